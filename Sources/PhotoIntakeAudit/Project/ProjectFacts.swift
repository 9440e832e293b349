/// What the rules know about the whole project, gathered from every file before any rule runs: which
/// words occur anywhere, the declared types and what they inherit, which types unregister photo library
/// observers, and which usage-description keys the app declares.
struct ProjectFacts: Sendable {
  struct TypeInfo: Sendable {
    var isMainActor = false
    var inherits: Set<String> = []
    /// A stored property of the type could hold the photo itself (see ``StoredProperty/isDurable``).
    var keepsPhoto = false
    /// Names of the project's or libraries' types its stored properties hold (``StoredProperty/typeNames``).
    var propertyTypes: Set<String> = []
    /// Names of its stored properties.
    var propertyNames: Set<String> = []
  }

  /// Words used in code anywhere in the project.
  var words = WordSet()
  /// The types declaring each stored property name.
  var propertyOwners: [String: Set<String>] = [:]
  /// Names assigned photo identifiers somewhere (`chosen = results.compactMap(\.assetIdentifier)`), so that
  /// storing them in another file stores identifiers.
  var identifierCarriers: Set<String> = []
  /// The files (by their number in the audit) that only targets main-actor by default compile
  /// (`SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor`, ``TargetMembership/isMainActorByDefault(_:)``): their
  /// code runs on the main actor unless it says otherwise.
  var mainActorByDefault: Set<Int> = []
  /// Types by simple name; extensions merge into their type.
  var types: [String: TypeInfo] = [:]
  /// Names of types (or `""` for top-level code) that call `unregisterChangeObserver` or
  /// `unregisterAvailabilityObserver` somewhere.
  var unregisteringTypes: Set<String> = []
  /// Types whose instances live as long as the app: the view controllers the main storyboard starts with
  /// (``InterfaceNames/lifetimeClasses``) and the types they keep in stored properties (`let dataSource =
  /// PhotosDataSource()`). Set by ``addAppLifetimeTypes(_:roots:)``.
  var appLifetimeTypes: Set<String> = []
  /// App views that draw their content closure once per row (``ListWrappers``), found before any file is
  /// added.
  var listWrappers: Set<String> = []
  /// Every usage key the folder declares, wherever it is declared.
  var usageKeys = UsageKeyIndex()
  /// The keys of each app project, for folders that hold several (see ``UsageKeyScopes``).
  var usageKeyScopes = UsageKeyScopes()
  /// Functions declared with a `UIImagePickerController.SourceType` parameter
  /// (`func pickImage(_ source: UIImagePickerController.SourceType)`), by name: a `.photoLibrary`
  /// passed to one picks from the library.
  var sourceTypeFunctions: Set<String> = []

  /// Whether the token at `index` lies in the arguments of a call of one of ``sourceTypeFunctions``
  /// (`pickImage(.photoLibrary)`, `presentPicker(.camera)`).
  func isSourceTypeArgument(_ index: Int, in file: SourceFile) -> Bool {
    file.enclosingParen(of: index).map { paren in
      file.kind(paren - 1) == .identifier && sourceTypeFunctions.contains(file.text(paren - 1))
    } ?? false
  }
  /// Names declared anywhere in the project as capture sessions (`let capture = AVCaptureSession()`,
  /// `var feed: AVCaptureSession?`), whatever they are called: `manager.capture.startRunning()` in
  /// another file is a session's.
  var sessionNames: Set<String> = []
  /// Types a representable's `makeUIView` or `makeUIViewController` makes (its return type, and types it
  /// initializes), when that representable has no `dismantleUIView` (`dismantleUIViewController`): what such
  /// a view or controller creates is created again with it.
  var representableViews: Set<String> = []
  /// Whether the project's string literals name a small or a large Flickr size key (see
  /// ``flickrRenditionsOnly``).
  var flickrSmallSizes = false
  var flickrLargeSizes = false
  /// The photo services (``photoServices``, by position) whose host the project's string literals name, and
  /// the names of their large renditions it reads (see ``serviceRenditionsOnly``).
  var photoServicesNamed: Set<Int> = []
  var largeRenditionsRead: Set<String> = []
  /// How the project takes images from `UIImagePickerController`: whether it reads the edited crop, reads
  /// the original other than as the crop's fallback, and sets `allowsEditing` to `true` or `false` (see
  /// ``ownPhotosAreEditedCrops``).
  var readsEditedImage = false
  var readsOriginalImage = false
  var allowsEditingSet: Set<Bool> = []
  /// Whether the project encodes an image it drew smaller first, or one it did not (see
  /// ``storesOnlyDownscaledImages``).
  var encodesDownscaledImages = false
  var encodesFullImages = false
  /// Per encode not known to be of a smaller copy (`image.compressed().jpegData(…)`), the names of the calls
  /// that make its image and of the function around it; and the project's functions that draw an image
  /// into a smaller context (see ``addImageRedraws(_:)``). Together they say whether it is of a smaller
  /// copy.
  var encodedCallResults: [[String]] = []
  var redrawingFunctions: Set<String> = []
  /// Whether the project assigns larger photo dimensions (see ``addPhotoDimensionSettings(_:)``).
  var setsPhotoDimensions = false
  /// Whether the project cancels image requests outside any cell class, and the cell classes that cancel
  /// their own (see ``addImageRequestCancels(_:)``).
  var cancelsImageRequestsOutsideCells = false
  var cellTypesCancellingRequests: Set<String> = []
  /// App subclasses of `UIImagePickerController` that never set `sourceType` themselves
  /// (`class CustomImagePickerController: UIImagePickerController { var imageButton: UIButton? }`): made
  /// with `()`, they keep the default source, the photo library.
  var defaultSourcePickerSubclasses: Set<String> = []
  /// Default `.photoLibrary` values that every call of their function or type overrides by label
  /// (``addUnreachedSourceDefaults(_:)``).
  var unreachedSourceDefaults: Set<SourceDefault> = []
  /// Names of the data lists and grids draw: what a `ForEach`/`List` iterates (`ForEach(model.photos)`),
  /// and what a list or grid context reads by subscript (`images[indexPath.item]`, `cache[url]`). A full-size
  /// decode stored into one of them is drawn in cells (see ``FullDecodeThumbnailRule``).
  var listDataNames: Set<String> = []
  /// Full-size decodes whose image reaches ``listDataNames`` through completions, `await` or Combine,
  /// built after every file is read (see ``DecodeFlows``).
  var decodeFlows: DecodeFlows?
  /// Names declared anywhere in the project as fetch results of assets (`var assets: PHFetchResult<PHAsset>!`,
  /// `let result = PHAsset.fetchAssets(with: options)`): `model.assets.count` in a view of another file is one.
  var fetchResultNames: Set<String> = []
  /// Names of properties declared anywhere in the project as read-write photo library authorization
  /// statuses (`@Published var authState: PHAuthorizationStatus = PHPhotoLibrary.authorizationStatus(for: level)`),
  /// less any name also given a legacy or add-only status: `service.authState == .authorized` in a view of
  /// another file checks the photo library (see ``addPhotoStatusNames(_:)``).
  var photoStatusNames: Set<String> = []
  /// Names given a legacy or add-only status somewhere, never counted in ``photoStatusNames``.
  var legacyStatusNames: Set<String> = []
  /// Calls and member reads made from list or grid contexts, by the called name (see ``ListCall``):
  /// a helper or view they reach draws cells too.
  var listCalls: [String: [ListCall]] = [:]
  /// Calls made inside functions that list or grid contexts call, by the called name
  /// (``addCallsOfListHelpers(_:)``): a helper they reach draws cells too.
  var helperListCalls: [String: [ListCall]] = [:]
  /// Methods that a `cellForItemAt`/`cellForRowAt` (or `willDisplay`) taking its asset from a fetch result by
  /// index path calls on what it shows, with no `localIdentifier` in sight
  /// (`cell.loadImage(phAsset: fetchAssets[indexPath.row])`), and properties it sets to it (`cell.asset = asset`,
  /// whose observer runs): a cell method or observed property of that name that requests the image is keyed by
  /// index too (see ``GridKeyedByIndexRule``).
  var cellLoaders: Set<String> = []
  /// The names a grid's cells may take their asset from by index path: ``fetchResultNames`` and the arrays
  /// copied from a fetch result of assets (``copiedAssetArrays(_:fetchResultNames:)``), whose elements a reused cell is
  /// just as likely to outlive. Set by ``addCellLoaders(_:)``.
  var cellAssetSources: Set<String> = []
  /// Properties such a method sets to what it shows (`cell.asset = asset`), with the cell types it casts to
  /// (`""` when it does not cast): an observer of that property in such a cell type is a cell loader.
  var cellLoaderProperties: [String: Set<String>] = [:]
  /// The call graph and execution contexts, built after every file is read when a rule that needs
  /// them can fire (see ``Auditor``).
  var model: ProjectModel?
  /// Which functions can run at all (see ``Reachability``), built after every file is read.
  var reachability: Reachability?

  /// Types whose code runs on the main actor by declaration: UIKit and SwiftUI make them `@MainActor`.
  static let mainActorBases: Set<String> = [
    "UIViewController", "UIView", "View", "App", "Scene", "UIResponder", "UIViewRepresentable",
    "UIViewControllerRepresentable", "UICollectionViewCell", "UITableViewCell", "UICollectionViewListCell",
    "UITableViewController", "UICollectionViewController", "UINavigationController", "UIApplicationDelegate",
    "UIWindowSceneDelegate", "UISceneDelegate", "UIHostingController",
  ]

  mutating func add(_ file: SourceFile) {
    words.formUnion(file.source.words)
    addFlickrSizes(file)
    addServiceRenditions(file)
    addPickerImageReads(file)
    addImageEncodes(file)
    addImageRedraws(file)
    addPhotoDimensionSettings(file)
    addImageRequestCancels(file)
    let keywords = StoredProperty.keywordsByScope(in: file)
    for (index, scope) in file.syntax.scopes.enumerated() where scope.kind == .type {
      guard let name = file.name(of: index) else { continue }
      var info = types[name] ?? TypeInfo()
      info.isMainActor = info.isMainActor || scope.isMainActor
      for token in scope.inheritance.clamped(to: 0..<file.count)
      where file.kind(token) == .identifier && file.kind(token + 1) != .dot {
        info.inherits.insert(file.text(token))
      }
      if file.word(scope.head) == .class,
        scope.inheritance.clamped(to: 0..<file.count).contains(where: {
          file.word($0) == .UIImagePickerController
        }),
        !file.contains([.sourceType], in: file.body(of: index))
      {
        defaultSourcePickerSubclasses.insert(name)
      }
      if scope.kind == .type, file.word(scope.head) != .protocol {
        for property in StoredProperty.all(in: file, type: index, keywords: keywords) {
          info.keepsPhoto = info.keepsPhoto || property.isDurable
          info.propertyTypes.formUnion(property.typeNames)
          info.propertyNames.insert(file.text(property.name))
          propertyOwners[file.text(property.name), default: []].insert(name)
        }
      }
      types[name] = info
    }
    // A file with a cell-named view but no list word (`struct JournalCell: View` that a `List` in another
    // file creates) still draws cells: its member reads (`entry.photo`) are list calls too.
    if file.source.words.containsAny(ListContext.words) || ListContext.declaresCellNamedView(file)
      || mentionsListWrapper(file)
    {
      addListCalls(file, skipping: nil)
      for index in 0..<file.count
      where (file.word(index) == .ForEach || file.word(index) == .List) && file.kind(index + 1) == .leftParen
      {
        guard let close = file.match(index + 1) else { continue }
        for token in (index + 2)..<file.endOfArgument(from: index + 2, close: close)
        where file.kind(token) == .identifier && file.word(token) == .none {
          listDataNames.insert(file.text(token))
        }
      }
    }
    // `images[indexPath.item]`, also in a helper that `cellForItemAt` calls: only table and collection
    // views hand out index paths, so what is read by one is what their cells draw.
    for index in 0..<file.count
    where file.kind(index) == .leftBracket && file.kind(index - 1) == .identifier
      && file.kind(index + 1) == .identifier && file.kind(index + 2) == .dot
      && file.text(index + 1) == "indexPath"
    {
      listDataNames.insert(file.text(index - 1))
    }
    if file.source.words.containsAny([.AVCaptureSession, .AVCaptureMultiCamSession]) {
      for index in 0..<file.count
      where (file.word(index) == .var || file.word(index) == .let) && file.kind(index + 1) == .identifier {
        // The declaration's own type (`lazy var feed: AVCaptureSession = { … }()`) or initializer
        // (`let capture = AVCaptureSession()`), not a closure that merely uses a session.
        let typed =
          file.kind(index + 2) == .colon
          && file.contains([.AVCaptureSession, .AVCaptureMultiCamSession], in: (index + 3)..<(index + 5))
        let statement = file.statement(from: index)
        let head = statement.lowerBound..<min(statement.upperBound, index + 8)
        let brace = head.first { file.kind($0) == .leftBrace } ?? head.upperBound
        if typed
          || file.contains([.AVCaptureSession, .AVCaptureMultiCamSession], in: head.lowerBound..<brace)
        {
          sessionNames.insert(file.text(index + 1))
        }
      }
    }
    if file.source.words.containsAny([.makeUIView, .makeUIViewController]) { addRepresentableViews(file) }
    if file.source.words.containsAny([.PHFetchResult, .fetchAssets]) { addFetchResultNames(file) }
    if file.source.words.containsAny([.PHAuthorizationStatus, .PHPhotoLibrary]) { addPhotoStatusNames(file) }
    if file.source.words.containsAny([.assetIdentifier, .localIdentifier, .itemIdentifier]) {
      addIdentifierCarriers(file)
    }
    if file.source.words.contains(.SourceType) {
      for (index, scope) in file.syntax.scopes.enumerated()
      where scope.kind == .function && file.word(scope.head) == .func
        && file.contains([.SourceType], in: scope.head..<scope.open)
      {
        if let name = file.name(of: index) { sourceTypeFunctions.insert(name) }
      }
    }
    if file.source.words.contains(.unregisterChangeObserver)
      || file.source.words.contains(.unregisterAvailabilityObserver)
    {
      for index in 0..<file.count
      where file.word(index) == .unregisterChangeObserver
        || file.word(index) == .unregisterAvailabilityObserver
      {
        unregisteringTypes.insert(file.enclosingType(of: index).flatMap { file.name(of: $0) } ?? "")
      }
    }
  }

  /// Records the types each `makeUIView` of a representable without `dismantleUIView` makes (see
  /// ``representableViews``), and each `makeUIViewController` without `dismantleUIViewController`: SwiftUI
  /// makes a controller again just as it makes a view again.
  private mutating func addRepresentableViews(_ file: SourceFile) {
    for (index, scope) in file.syntax.scopes.enumerated()
    where scope.kind == .function
      && (file.word(scope.name) == .makeUIView || file.word(scope.name) == .makeUIViewController)
    {
      let dismantle: Word =
        file.word(scope.name) == .makeUIView ? .dismantleUIView : .dismantleUIViewController
      guard let owner = file.enclosingType(of: scope.head),
        !file.contains([dismantle], in: file.body(of: owner))
      else { continue }
      var made: [Int] = []
      // A view's return type is the view it makes; a controller may be one a model keeps and hands out
      // (`return viewModel.viewController`), so only controllers it initializes count.
      if dismantle == .dismantleUIView,
        let arrow = (scope.head..<scope.open).first(where: { file.word($0) == .opArrow })
      {
        made += (arrow..<scope.open).filter { file.kind($0) == .identifier }
      }
      made += file.body(of: index).filter {
        file.kind($0) == .identifier && !file.isMember($0) && file.kind($0 + 1) == .leftParen
      }
      for token in made {
        let name = file.text(token)
        if name.first?.isUppercase == true { representableViews.insert(name) }
      }
    }
  }

  /// Records the names assigned an expression that takes a picker or asset identifier, not a count of
  /// them and not an album's or collection's.
  private mutating func addIdentifierCarriers(_ file: SourceFile) {
    for index in 0..<file.count where file.word(index) == .opAssign && file.kind(index - 1) == .identifier {
      let value = file.statement(from: index + 1)
      guard value.count >= 2,
        value.contains(where: {
          [.assetIdentifier, .localIdentifier, .itemIdentifier].contains(file.word($0))
        }),
        !(file.kind(value.upperBound - 2) == .dot
          && (file.word(value.upperBound - 1) == .count || file.word(value.upperBound - 1) == .isEmpty))
      else { continue }
      let named = value.contains { token in
        guard file.kind(token) == .identifier else { return false }
        let lower = ASCII.lowercased(file.text(token))
        return ASCII.contains(lower, "collection") || ASCII.contains(lower, "album")
      }
      if !named { identifierCarriers.insert(file.text(index - 1)) }
    }
    // `trip.photos.append(result.assetIdentifier!)`, `ids.insert(asset.localIdentifier, at: 0)`: the list
    // appended to carries identifiers too. The first arguments only, so each call costs a bounded look.
    for index in 0..<file.count
    where (file.word(index) == .append || file.word(index) == .insert) && file.isMember(index)
      && file.kind(index + 1) == .leftParen && file.kind(index - 2) == .identifier
    {
      guard let close = file.match(index + 1) else { continue }
      let argument = (index + 2)..<min(close, index + 34)
      let takesIdentifier = argument.contains {
        [.assetIdentifier, .localIdentifier, .itemIdentifier].contains(file.word($0))
      }
      let named = argument.contains { token in
        guard file.kind(token) == .identifier else { return false }
        let lower = ASCII.lowercased(file.text(token))
        return ASCII.contains(lower, "collection") || ASCII.contains(lower, "album")
      }
      if takesIdentifier, !named { identifierCarriers.insert(file.text(index - 2)) }
    }
  }

  /// Records the names `file` declares as `PHFetchResult<PHAsset>` or initializes with `fetchAssets(…)`, and
  /// the names it assigns `PHAsset.fetchAssets(…)` to (`assets = PHAsset.fetchAssetsWithMediaType(.Image,
  /// options: nil)`, `self.assets = …`): before Swift 3 `PHFetchResult` was not generic, so `var assets:
  /// PHFetchResult!` says nothing of its elements, but only a fetch result of assets takes that value.
  private mutating func addFetchResultNames(_ file: SourceFile) {
    for index in 0..<file.count
    where file.word(index) == .fetchAssets && file.kind(index - 1) == .dot
      && file.text(index - 2) == "PHAsset"
      && file.word(index - 3) == .opAssign && file.kind(index - 4) == .identifier
    {
      fetchResultNames.insert(file.text(index - 4))
    }
    for index in 0..<file.count where file.kind(index) == .identifier && !file.isMember(index) {
      if file.kind(index + 1) == .colon, file.word(index + 2) == .PHFetchResult {
        // `PHFetchResult<PHAsset>`: collections and lists of albums are not photo grids.
        if index + 4 < file.count, file.text(index + 4) == "PHAsset" {
          fetchResultNames.insert(file.text(index))
        }
      } else if file.word(index - 1) == .let || file.word(index - 1) == .var {
        let statement = file.statement(from: index)
        let head = statement.lowerBound..<min(statement.upperBound, index + 8)
        if file.word(index + 1) == .opAssign, file.contains([.fetchAssets, .PHFetchResult], in: head),
          !head.contains(where: { file.kind($0) == .leftBrace })
        {
          fetchResultNames.insert(file.text(index))
        }
      }
    }
  }

  /// Whether `file` names one of the ``listWrappers`` (`FilteredList(…) { row }`): its closures draw rows.
  private func mentionsListWrapper(_ file: SourceFile) -> Bool {
    guard !listWrappers.isEmpty else { return false }
    return (0..<file.count).contains { index in
      file.kind(index) == .identifier && file.word(index) == .none && file.kind(index + 1) == .leftParen
        && listWrappers.contains(file.text(index))
    }
  }

  /// Records the calls (`thumbnail(for:)`, `PhotoCard(photo:)`) and member reads (`photo.image`) that
  /// list and grid contexts of `file` make, a few places per name.
  private mutating func addListCalls(_ file: SourceFile, skipping known: [Bool]? = nil) {
    let inList =
      known == nil
      ? ListContext.scopes(in: file, wrappers: listWrappers)
      : ListContext.scopes(in: file, wrappers: listWrappers) { [listCalls] type in
        file.name(of: type).map { listCalls[$0]?.contains { !$0.namesSmallImage } == true } ?? false
      }
    let presents = file.source.words.containsAny([.NavigationLink, .sheet, .popover])
    var receivers: ReceiverTypes?  // read when the file's first member read in a list needs it
    for index in 0..<file.count where file.kind(index) == .identifier {
      let word = file.word(index)
      // `Image(data: photo.data)`: an initializer an extension of the image type may declare, recorded
      // as `Image.init(data:)` (a name no type has, so it makes no view a list context).
      let imageCall =
        (word == .Image || word == .UIImage) && file.kind(index + 1) == .leftParen && !file.isMember(index)
      guard word == .none || imageCall else { continue }
      let scope = file.syntax.scope(of: index)
      guard inList[scope], known?[scope] != true else { continue }
      if imageCall {
        addImageInitializerCall(file, index)
        continue
      }
      if file.kind(index + 1) == .leftBracket, !Self.declarationKeywords.contains(file.word(index - 1)) {
        listDataNames.insert(file.text(index))
      }
      let call = file.kind(index + 1) == .leftParen
      guard call || (file.isMember(index) && file.kind(index + 1) != .colon) else { continue }
      if Self.declarationKeywords.contains(file.word(index - 1)) { continue }  // a declaration's name
      // `#selector(imageTapped(_:))` names an action, which runs when the user acts, once, not per cell.
      if file.isSelectorReference(index) { continue }
      let name = file.text(index)
      if listCalls[name, default: []].count >= Self.listCallsKept { continue }
      if presents, ListContext.isPresented(file, index) { continue }
      let function = file.enclosingFunction(of: index)
      var display = file.name(of: function) ?? "top-level code"
      let typeName = file.enclosingType(of: index).flatMap { file.name(of: $0) }
      if let typeName { display = typeName + "." + display }
      let isBare = !file.isMember(index) || file.word(index - 2) == .selfKeyword
      let (line, column) = file.source.location(ofByte: file.tokens[index].start)
      let labels = call ? ListCall.labels(file, paren: index + 1) : nil
      let shown = call ? "\(name)(\(labels?.map { $0 + ":" }.joined() ?? ""))" : name
      var receiverType: String?
      if !call, !isBare, let receiver = Self.receiverName(file, member: index) {
        if receivers == nil { receivers = ReceiverTypes(file) }
        receiverType = receivers?.type(of: receiver)
      }
      listCalls[name, default: []].append(
        ListCall(
          labels: labels, isBare: isBare, typeName: typeName, receiverType: receiverType,
          namesSmallImage: call && ListCall.namesSmallImage(file, paren: index + 1),
          step: ContextStep(
            function: display, reason: "a list or grid cell uses \(shown)", file: file.path, line: line,
            column: column)))
    }
  }

  /// Records `Image(data: …)` or `UIImage(data: …)` made in a list context under `Image.init(data:)`.
  private mutating func addImageInitializerCall(_ file: SourceFile, _ index: Int) {
    // The system's own initializers (`Image(systemName:)`, `Image("asset")`, `Image(uiImage:)`) are the
    // most common calls in lists and decode nothing: skipped before any work.
    let first = index + 2
    if file.kind(first) == .string || file.kind(first) == .rightParen
      || (file.kind(first + 1) == .colon && Self.systemImageLabels.contains(file.text(first)))
    {
      return
    }
    let labels = ListCall.labels(file, paren: index + 1)
    let key = "\(file.text(index)).init(\(labels.map { $0 + ":" }.joined()))"
    if listCalls[key, default: []].count >= Self.listCallsKept { return }
    let function = file.enclosingFunction(of: index)
    let typeName = file.enclosingType(of: index).flatMap { file.name(of: $0) }
    let display = (typeName.map { $0 + "." } ?? "") + (file.name(of: function) ?? "top-level code")
    let (line, column) = file.source.location(ofByte: file.tokens[index].start)
    listCalls[key, default: []].append(
      ListCall(
        labels: labels, isBare: false, typeName: typeName,
        namesSmallImage: ListCall.namesSmallImage(file, paren: index + 1),
        step: ContextStep(
          function: display,
          reason: "a list or grid cell uses \(file.text(index))(\(labels.map { $0 + ":" }.joined()))",
          file: file.path, line: line,
          column: column)))
  }

  /// Records, once every file is read, the calls made by views that list contexts create in other files
  /// (`PersonRow(person:)` in a `ForEach`, whose `person.thumbnail()` draws a cell too). A view created
  /// only with a small image (`RemoteImage(url: video.thumbnailURL)`) does not draw the photo.
  ///
  /// Views such a view creates draw the cell too (`GalleryItemView` in a `ForEach`, whose body makes
  /// `AsyncPicsImageView(url:)`, whose `@StateObject` loader decodes): the files are read again, each time
  /// recording only the calls of the views found in the round before, for up to ``createdViewRounds`` rounds.
  mutating func addCallsOfCreatedViews(_ files: [SourceFile]) {
    // Per file, the scopes whose calls are recorded already, and the type scopes list contexts were found
    // to create when they were. A file whose created types did not change has the same list contexts, so
    // they are not worked out again (``ListContext/scopes(in:wrappers:isCellType:)`` reads every scope).
    var recorded: [Int: [Bool]] = [:]
    var created: [Int: [Int]] = [:]
    var typeScopes: [Int: [Int]] = [:]
    for _ in 0..<Self.createdViewRounds {
      var grew = false
      for (number, file) in files.enumerated() where file.syntax.scopes.contains(where: { $0.kind == .type })
      {
        let types =
          typeScopes[number] ?? file.syntax.scopes.indices.filter { file.syntax.scopes[$0].kind == .type }
        typeScopes[number] = types
        let nowCreated = types.filter { file.name(of: $0).map { createsPhotoView($0) } ?? false }
        // Unchanged: the list contexts are those recorded (or, with none created yet, the plain ones).
        guard nowCreated != created[number] ?? [] else { continue }
        let known = recorded[number] ?? ListContext.scopes(in: file, wrappers: listWrappers)
        let createdSet = Set(nowCreated)
        let now = ListContext.scopes(in: file, wrappers: listWrappers) { createdSet.contains($0) }
        created[number] = nowCreated
        guard now.indices.contains(where: { now[$0] && !known[$0] }) else {
          recorded[number] = known
          continue
        }
        addListCalls(file, skipping: known)
        recorded[number] = now
        grew = true
      }
      if !grew { break }
    }
  }

  /// How many views deep ``addCallsOfCreatedViews(_:)`` follows views that create views.
  static let createdViewRounds = 4

  /// Whether a list context creates the type `name` (`PhotoCard(photo: photo)` in a `ForEach`) with
  /// something other than a small image.
  func createsPhotoView(_ name: String) -> Bool {
    listCalls[name]?.contains { !$0.namesSmallImage } == true
  }

  /// The plain name a member read starts from: `mission` in `mission.image` or `self.mission.image`;
  /// `nil` for longer chains (`model.photos.first.image`) and calls (`load().image`).
  private static func receiverName(_ file: SourceFile, member index: Int) -> String? {
    let receiver = index - 2
    guard file.kind(index - 1) == .dot, file.kind(receiver) == .identifier,
      file.word(receiver) != .selfKeyword
    else { return nil }
    if file.isMember(receiver) {
      guard file.word(receiver - 2) == .selfKeyword, !file.isMember(receiver - 2) else { return nil }
    }
    return file.text(receiver)
  }

  private static let listCallsKept = 8
  /// First argument labels of system `Image` and `UIImage` initializers no app redeclares.
  private static let systemImageLabels: Set<String> = [
    "systemName", "uiImage", "nsImage", "cgImage", "ciImage", "decorative", "imageLiteralResourceName",
  ]
  private static let declarationKeywords: Set<Word> = [
    .func, .var, .let, .class, .struct, .enum, .actor, .protocol, .extension, .typealias, .case,
  ]

  /// Whether `name` (or a type it inherits, transitively within the project) is one of `bases`.
  func inherits(_ name: String, anyOf bases: Set<String>) -> Bool {
    if bases.contains(name) { return true }
    // Most names are not the project's, or inherit nothing: answered without a walk.
    guard let first = types[name], !first.inherits.isEmpty else { return false }
    var seen: Set<String> = [name]
    var queue = Array(first.inherits)
    while let next = queue.popLast() {
      if bases.contains(next) { return true }
      guard seen.insert(next).inserted, let info = types[next] else { continue }
      queue.append(contentsOf: info.inherits)
    }
    return false
  }

  /// Whether a value of the project's type `name` could hold a photo's bytes or a way to them, through
  /// its stored properties and the project's types they hold; `nil` for a type the project does not declare.
  func keepsPhoto(_ name: String) -> Bool? {
    guard types[name] != nil else { return nil }
    var seen: Set<String> = []
    var queue = [name]
    while let next = queue.popLast() {
      guard seen.insert(next).inserted, let info = types[next] else { continue }
      if info.keepsPhoto { return true }
      queue.append(contentsOf: info.propertyTypes)
    }
    return false
  }

  /// Whether code in the type named `name` runs on the main actor: marked `@MainActor`, a UIKit or
  /// SwiftUI type that is, or a type that inherits from or conforms to a `@MainActor` type or protocol of
  /// the project (isolation is inferred from them, SE-0316).
  func isMainActorType(_ name: String) -> Bool {
    if types[name]?.isMainActor == true { return true }
    if inherits(name, anyOf: Self.mainActorBases) { return true }
    // Any other UIKit or AppKit view, control or controller (`UIScrollView`, `UIButton`,
    // `NSWindowController`) is main-actor too; the few `UI` classes that are not are named here.
    var seen: Set<String> = []
    var queue = [name]
    while let next = queue.popLast(), seen.insert(next).inserted {
      guard let info = types[next] else { continue }
      for base in info.inherits {
        // A `@MainActor` superclass or protocol the type conforms to makes it main-actor too (SE-0316).
        if Self.isInterfaceFramework(base) || types[base]?.isMainActor == true { return true }
        queue.append(base)
      }
    }
    return false
  }

  private static let nonMainUIKitClasses: Set<String> = [
    "UIImage", "UIColor", "UIFont", "UIBezierPath", "UIDocument", "UIActivityItemProvider", "UIActivity",
  ]

  private static func isInterfaceFramework(_ base: String) -> Bool {
    let utf8 = Array(base.utf8)
    guard utf8.count > 3, utf8[2] >= UInt8(ascii: "A"), utf8[2] <= UInt8(ascii: "Z") else { return false }
    if base.hasPrefix("UI") { return !nonMainUIKitClasses.contains(base) }
    return base.hasPrefix("NS") && (base.hasSuffix("View") || base.hasSuffix("Controller"))
  }

  /// The type a scope declares or extends, by name, checked through the project's declarations.
  func typeInherits(_ file: SourceFile, scope: Int, anyOf bases: Set<String>) -> Bool {
    for token in file.scope(scope).inheritance.clamped(to: 0..<file.count)
    where bases.contains(file.text(token)) {
      return true
    }
    guard let name = file.name(of: scope) else { return false }
    return inherits(name, anyOf: bases)
  }
}
