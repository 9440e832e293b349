/// `full-decode-thumbnail`: `UIImage(data:)` / `UIImage(contentsOfFile:)` for a list or grid cell, a
/// PhotoKit request for `PHImageManagerMaximumSize` there, or an `AsyncImage` of a URL named for the
/// full-size photo (`fullURL`, `originalURL`, `largeImageURL`).
///
/// A list or grid context is: a `ForEach`/`List`/`LazyVGrid`/`LazyHGrid`/`LazyVStack`/`LazyHStack`/`Grid`
/// content closure, a cell registration or diffable data source cell provider, a
/// `cellForItemAt`/`cellForRowAt` or `willDisplay` method, or a type that is (or is named like) a cell, row, tile or
/// thumbnail. The enclosing function is fine if it downsamples (ImageIO thumbnails, `preparingThumbnail`,
/// `byPreparingThumbnail`, `prepareThumbnail`, `prepareForDisplay`). In a cell's own callback (a download
/// finishing), the decoded image must also be drawn there — assigned to an `image` property, or passed to
/// `setImage`/`Image(uiImage:)` — since a cell that hands the decode to a cache or a delegate shows nothing.
struct FullDecodeThumbnailRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "full-decode-thumbnail", severity: .warning,
    summary:
      "A list or grid cell decodes the full-size photo with UIImage(data:)/UIImage(contentsOfFile:); downsample instead.",
    reports:
      "A list or grid cell that decodes the full-size photo with UIImage(data:)/UIImage(contentsOfFile:) (also spelled UIImage.init(data:), or UIImage(named:) of a file's path), an image generator's copyCGImage without maximumSize or CGImageSourceCreateImageAtIndex, also in a helper that returns the image (or hands it to a completion closure; an image it is only given, a placeholder, does not count), builds the row's view (-> some View, @ViewBuilder) or draws the image into the view it is called on (an image view extension that sets self.image, called on a cell's outlet), or an Image or UIImage initializer of the app's (Image(data:)), that each cell or row calls, directly, through a model or through a function the cell calls (a NavigationLink(value:) label is a row; so is a SwiftUI view named like a cell or row in a file of its own, and the views a row's view makes, up to 4 levels deep, with their @StateObject loaders), or in code that stores the decoded photos into an array or cache that a ForEach or List iterates or a cell reads by subscript (also in a helper of cellForItemAt, by indexPath), or frames an image generator copies in a loop in a file that makes image views in a loop (a trimmer's thumbnail strip), also when a completion handler, an awaited result (an async function, async let, a task group) or a Combine stage (map, then sink or assign) hands the decoded image on to the code that stores it, through up to 4 functions; requests the full-size photo from PhotoKit (PHImageManagerMaximumSize, or the asset's own pixelWidth x pixelHeight) in a cell, or stores such a request's image into an array that a ForEach or List iterates (in its result handler, or through a helper that returns it); or shows AsyncImage of a photo kept only at full size.",
    leavesAlone:
      "Full-size decodes outside list and grid cells (a detail screen, a sheet, a navigation destination, a view's own body, the pages a ForEach makes in a TabView, the fixed sections of a List given no data and a stack's or grid's own content beside its ForEach, an action a cell installs with #selector, which runs on a tap), in functions that downsample with ImageIO, preparingThumbnail or a generator's maximumSize, frames of a generator its type gives a maximumSize elsewhere (set in configure, copied in loadImage), frames copied in a loop for anything but image views made in a loop (a GIF's frames, an export), decodes of thumbnails and small images (an argument named for a thumbnail, or reading a property or dictionary key named for an avatar, icon or logo, people[row].avatarImg, thumbnailsFolder.appendingPathComponent(name).path, or bound just before from a thumbnail property, album.thumbnailURL, or downloaded from a URL bound just before from a key or property naming an image a service sizes, a profile_image_url key), in properties that cells only read by name on another type (mission.image where the file declares missions: [Mission]), decodes stored where no list reads them (also when handed on through completions, await or Combine into one photo's property), decodes made into thumbnails on the way (preparingThumbnail in the caller's closure or a Combine stage), PhotoKit requests scaled down from the asset's pixel size (pixelWidth / 4) or sized for the cell, AsyncImage of thumbnail URLs or of images a service sizes (avatars, icons, posters) in projects that store no photos of their own, UIImage decodes and AsyncImage in a project whose own photos are all an image picker's edited crops (allowsEditing = true, editedImage read, originalImage only as its fallback, no other picker, library or camera source, no photo service named), which are about the screen's size, decodes of a stored photo's data (UIImage(data: entry.imageData)) in a project whose every image encode (jpegData, pngData) is of a copy it drew smaller first (image.resizeImage(to:height:), a photo journal's screen-sized copy, or a helper of any name that draws into a smaller image context, compressed(quality:maxWidth:)), decodes in a Flickr client that asks only for renditions of 640 pixels or less (url_z, url_m), or an Unsplash, Pexels, Pixabay, TMDB or Picsum client that never reads their large renditions (urls.regular, full or raw; src.original or large2x; largeImageURL; /t/p/original or w1280; download_url), and has no photos of its own, views that lists create only with such an image (RemoteImage(url: video.thumbnailURL)), and helpers drawing into the view they are called on that cells call only with such an image (cell.avatarView.load(member.profileImageURL), or a name bound just before from one, if let url = photo.thumbImageURL()), and a cell's own methods that lists call only with such an image (cell.setImage(from: show.icon), a tvg-logo key).",
    fix: """
      Make the thumbnail with ImageIO (CGImageSourceCreateThumbnailAtIndex with \
      kCGImageSourceThumbnailMaxPixelSize set to the cell's pixel size) or UIImage.preparingThumbnail(of:). \
      A 48 MP photo decodes to about 190 MB; a grid of them is terminated for memory.
      """,
    reference: .wwdc(2018, 219, "Image and Graphics Best Practices"))

  let triggers: Set<Word> = [
    .UIImage, .PHImageManagerMaximumSize, .AsyncImage, .copyCGImage, .CGImageSourceCreateImageAtIndex,
    .requestImage,
  ]

  static let downsampling: Set<Word> = [
    .CGImageSourceCreateThumbnailAtIndex, .preparingThumbnail, .byPreparingThumbnail, .prepareThumbnail,
    .prepareForDisplay, .kCGImageSourceThumbnailMaxPixelSize, .kCGImageSourceSubsampleFactor,
    // `AVAssetImageGenerator.maximumSize`: frames come out at that size, not the video's.
    .maximumSize,
  ]

  /// A whole-image decode at `index`: `UIImage(data:)`, `UIImage(contentsOfFile:)` (also spelled
  /// `UIImage.init(data:)`), `UIImage(named:)` of a file's path (`UIImage(named: url.path)` decodes the file
  /// whole, as `contentsOfFile:` does, and caches it), an image generator's `copyCGImage(at:actualTime:)` (a
  /// frame at the video's full size unless `maximumSize` is set) or `CGImageSourceCreateImageAtIndex` (the
  /// full image, where `…CreateThumbnailAtIndex` makes a small one).
  static func isFullDecode(_ file: SourceFile, _ index: Int) -> Bool {
    if file.word(index) == .UIImage, let label = imageLabel(file, index) {
      guard !file.isMember(index), file.kind(label + 1) == .colon else { return false }
      let decodes =
        file.word(label) == .data || file.word(label) == .contentsOfFile
        || (file.text(label) == "named" && namesFilePath(file, paren: label - 1, argument: label + 2))
      return decodes && !namesThumbnail(file, paren: label - 1, argument: label + 2)
    }
    guard file.kind(index + 1) == .leftParen else { return false }
    switch file.word(index) {
    case .copyCGImage: return file.isMember(index)
    case .CGImageSourceCreateImageAtIndex: return !file.isMember(index)
    default: return false
    }
  }

  /// Whether the decode at `index` is `generator.copyCGImage(…)` on a generator that its type gives a
  /// `maximumSize` anywhere (`imageGenerator?.maximumSize = cellSize` in `configure(with:)`, the frames
  /// copied in `loadImage(at:)`): a generator held in a property makes every frame at that size. `memo`
  /// keeps, per type scope, the names given a `maximumSize`, found in one pass over the type.
  static func sizedGenerator(_ file: SourceFile, _ index: Int, memo: inout [Int: Set<String>]) -> Bool {
    guard file.word(index) == .copyCGImage, file.kind(index - 1) == .dot else { return false }
    var receiver = index - 2
    if file.word(receiver) == .opQuestion || file.word(receiver) == .opBang { receiver -= 1 }
    guard file.kind(receiver) == .identifier, let type = file.enclosingType(of: index) else { return false }
    if memo[type] == nil {
      var names: Set<String> = []
      for token in file.body(of: type) where file.word(token) == .maximumSize && file.kind(token - 1) == .dot
      {
        var owner = token - 2
        if file.word(owner) == .opQuestion || file.word(owner) == .opBang { owner -= 1 }
        if file.kind(owner) == .identifier { names.insert(file.text(owner)) }
      }
      memo[type] = names
    }
    return memo[type]?.contains(file.text(receiver)) ?? false
  }

  /// How a message names the decode at `index`.
  static func decodeName(_ file: SourceFile, _ index: Int) -> String {
    switch file.word(index) {
    case .copyCGImage: return "copyCGImage(at:actualTime:)"
    case .CGImageSourceCreateImageAtIndex: return "CGImageSourceCreateImageAtIndex"
    case .requestImage: return "requestImage(for:targetSize:…) at full size"
    default: return "UIImage(\(imageLabel(file, index).map { file.text($0) } ?? "data"):)"
    }
  }

  /// The first argument label of `UIImage(…)` or `UIImage.init(…)` at `index`, if it is a call.
  static func imageLabel(_ file: SourceFile, _ index: Int) -> Int? {
    if file.kind(index + 1) == .leftParen { return index + 2 }
    if file.kind(index + 1) == .dot, file.word(index + 2) == .initKeyword, file.kind(index + 3) == .leftParen
    {
      return index + 4
    }
    return nil
  }

  /// Whether the decode at `index` is `UIImage(data:)` of a stored property (`entry.imageData`,
  /// `photo?.imageData`): data the project kept, not a download or a file.
  static func decodesStoredData(_ file: SourceFile, _ index: Int) -> Bool {
    guard file.word(index) == .UIImage, let label = imageLabel(file, index), file.word(label) == .data,
      file.kind(label + 1) == .colon, let close = file.match(label - 1)
    else { return false }
    let end = file.endOfArgument(from: label + 2, close: close)
    var last = end - 1
    if file.word(last) == .opBang { last -= 1 }
    guard last > label + 2, file.kind(last) == .identifier, file.kind(last - 1) == .dot else { return false }
    return (label + 2...last).allSatisfy { token in
      file.kind(token) == .identifier || file.kind(token) == .dot || file.word(token) == .opQuestion
        || file.word(token) == .opBang
    }
  }

  /// Whether the argument starting at `start` names a thumbnail (`thumbnailData`,
  /// `thumbnails.appendingPathComponent(name).path`), or is a name bound just before from a thumbnail
  /// property (`let data = NSData(contentsOfURL: NSURL(string: album.thumbnailURL)!)`, `let path = folder +
  /// item.thumbPath`), or from the contents of a URL bound just before from an image a service sizes
  /// (`let url = URL(string: user["profile_image_url"] as! String)`, then `Data(contentsOf: url!)`): decoding
  /// a small image whole is what thumbnails are for.
  private static func namesThumbnail(_ file: SourceFile, paren: Int, argument start: Int) -> Bool {
    guard let close = file.match(paren) else { return false }
    let end = file.endOfArgument(from: start, close: close)
    if namesThumbnail(file, start..<min(end, start + 32)) { return true }
    // A property or a dictionary key of the argument that names an image kept or sent small
    // (`rows[indexPath.row].avatarImg`, `user["profile_image_url"]`).
    if (start..<min(end, start + 32)).contains(where: { token in
      (file.isMember(token) || (file.kind(token) == .string && file.kind(token - 1) == .leftBracket))
        && namesSizedImage(file.text(token))
    }) {
      return true
    }
    // A plain name: its binding among the few statements before, if any.
    var name = start
    while file.word(name + 1) == .opBang { name += 1 }
    guard file.kind(start) == .identifier, name + 1 == end, let line = bindingLine(file, of: start)
    else { return false }
    // The binding's own line, a bounded look, and only the properties it reads (`album.thumbnailURL`,
    // `contact.thumbnailImageData`): a local's name (`let newsThumbnail = try? Data(contentsOf: url)`)
    // is the developer's label for whatever was downloaded, not a property of the source.
    if line.contains(where: { file.isMember($0) && namesThumbnail(file, $0..<($0 + 1)) }) { return true }
    // `Data(contentsOf: url)` of a URL bound just before: the URL's own binding names a small image.
    guard
      let label = line.first(where: {
        file.kind($0) == .identifier && file.kind($0 + 1) == .colon
          && (file.text($0) == "contentsOf" || file.text($0) == "contentsOfURL")
      }), file.kind(label + 2) == .identifier, let url = bindingLine(file, of: label + 2)
    else { return false }
    return url.contains { token in
      (file.isMember(token) || file.kind(token) == .string) && namesSizedImage(file.text(token))
    }
  }

  /// The tokens after `=` on the line that binds the name at `use` (`let data = …`), found among the 128
  /// tokens before it and read at most 32 tokens long.
  static func bindingLine(_ file: SourceFile, of use: Int) -> Range<Int>? {
    var token = use - 1
    while token > max(0, use - 128) {
      if file.kind(token) == .identifier, file.source.sameText(token, use),
        file.word(token - 1) == .let || file.word(token - 1) == .var, file.word(token + 1) == .opAssign
      {
        var last = token + 2
        while last < min(file.count, token + 34), !file.source.tokens[last].startsLine { last += 1 }
        return (token + 2)..<last
      }
      token -= 1
    }
    return nil
  }

  /// Parts of a property's name or a JSON key that name an image a service sends small (a thumbnail, an
  /// avatar, an icon): `profile_image_url`, `avatarURL`, `favicon`, `artworkUrl60`.
  private static let sizedImageWords: [StaticString] = [
    "thumb", "avatar", "icon", "logo", "artwork", "profile_image", "profileimage", "small", "tiny", "mini",
  ]

  private static func namesSizedImage(_ text: String) -> Bool {
    guard text.utf8.count <= 64 else { return false }
    let lowered = ASCII.lowercased(text)
    return sizedImageWords.contains { ASCII.contains(lowered, $0) }
  }

  /// Whether an identifier among `tokens` names a thumbnail.
  private static func namesThumbnail(_ file: SourceFile, _ tokens: Range<Int>) -> Bool {
    tokens.contains { token in
      file.kind(token) == .identifier && ASCII.contains(ASCII.lowercased(file.text(token)), "thumb")
    }
  }

  /// Whether the argument starting at `start` is a file's path rather than an asset catalog name: it ends
  /// in a URL's `.path` (`imageURL.path`, `docs.appendingPathComponent(name).path`) or builds one with
  /// `appendingPathComponent`. A string literal or a plain name is an asset's name.
  private static func namesFilePath(_ file: SourceFile, paren: Int, argument start: Int) -> Bool {
    guard let close = file.match(paren) else { return false }
    let end = file.endOfArgument(from: start, close: close)
    // A long argument is not looked through, so nested calls cost a bounded look each.
    guard end > start + 1, end - start <= 64 else { return false }
    if file.kind(end - 2) == .dot, file.text(end - 1) == "path" { return true }
    return (start..<end).contains { file.text($0) == "appendingPathComponent" }
  }
  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    var findings: [Finding] = []
    // Types a list or grid context creates (`PhotoCard(photo: photo)` in a `ForEach`) draw cells too.
    let inList = ListContext.scopes(in: file, wrappers: project.listWrappers) { type in
      project.typeInherits(file, scope: type, anyOf: ListContext.cellBases)
        || (file.name(of: type).map { project.createsPhotoView($0) } ?? false)
    }
    let presents = file.source.words.containsAny([.NavigationLink, .sheet, .popover, .fullScreenCover])
    // A cell's own code, not a destination it presents (`NavigationLink(destination: Detail(…))`).
    func isListContext(_ index: Int) -> Bool {
      inList[file.syntax.scope(of: index)] && !(presents && ListContext.isPresented(file, index))
    }
    // Whether a function downsamples, per function scope (asked once per decode).
    var downsamples: [Int: Bool] = [:]
    var sizedGenerators: [Int: Set<String>] = [:]
    let locals = ListDataLocals()
    var stripViewMakers: Set<Int>?
    // A client of Flickr or another photo service that asks only for small renditions decodes no original.
    let renditionsOnly = project.flickrRenditionsOnly || project.serviceRenditionsOnly
    // A project that keeps only copies it drew smaller decodes small images from its stored data.
    let storesSmallCopies = project.storesOnlyDownscaledImages
    // A project whose own photos are all a picker's edited crops decodes no full-size photo of its own.
    let editedCropsOnly = project.ownPhotosAreEditedCrops
    for index in 0..<file.count where !renditionsOnly && Self.isFullDecode(file, index) {
      let function = file.enclosingFunction(of: index)
      let downsampled = downsamples[function] ?? file.contains(Self.downsampling, in: file.body(of: function))
      downsamples[function] = downsampled
      guard !downsampled, !Self.sizedGenerator(file, index, memo: &sizedGenerators) else { continue }
      if storesSmallCopies, Self.decodesStoredData(file, index) { continue }
      if editedCropsOnly, file.word(index) == .UIImage { continue }
      guard isListContext(index) else {
        if let finding = helperCalledFromList(file, index, function: function, project: project)
          ?? decodedIntoListData(file, index, function: function, project: project, locals: locals)
          ?? handedToListData(file, index, function: function, project: project)
        {
          findings.append(finding)
        } else if Self.copiesStripFrame(file, index, viewMakers: &stripViewMakers) {
          findings.append(
            file.finding(
              descriptor, at: index,
              message:
                "A strip of image views gets frames copied at the video's full size with copyCGImage(at:actualTime:); set the generator's maximumSize to the strip's cell size."
            ))
        }
        continue
      }
      if let callback = cellCallback(file, index), !isDrawn(file, index, in: callback) { continue }
      if Self.calledOnlyWithSmallImages(file, function: function, project: project) { continue }
      findings.append(
        file.finding(
          descriptor, at: index,
          message: file.word(index) != .UIImage
            ? "A list or grid cell decodes the full-size image with \(Self.decodeName(file, index)); make a thumbnail instead."
            : Self.imageLabel(file, index).map { file.text($0) } == "named"
              ? "A list or grid cell decodes the full-size photo with UIImage(named:) of its file's path, which also caches it; downsample instead."
              : nil
        ))
    }
    // Requests for the full-size photo: in a cell (`PHImageManagerMaximumSize` is reported just below), or
    // stored into list data. Helpers returning one are looked up a bounded number of times per file.
    var helperLookups = Self.requestHelperLookups
    var requestsLeft = Self.requestsFollowed
    for index in 0..<file.count where file.word(index) == .requestImage {
      guard let target = Self.fullSizeTarget(file, callee: index) else { continue }
      let function = file.enclosingFunction(of: index)
      if isListContext(index) {
        guard file.word(target) != .PHImageManagerMaximumSize else { continue }
        findings.append(
          file.finding(
            descriptor, at: index,
            message:
              "A list or grid cell requests the photo at its own pixel size (pixelWidth x pixelHeight), the full-size photo; request the cell's pixel size."
          ))
        continue
      }
      guard requestsLeft > 0 else { continue }
      requestsLeft -= 1
      if !(downsamples[function] ?? file.contains(Self.downsampling, in: file.body(of: function))),
        let finding = requestedIntoListData(
          file, callee: index, function: function, project: project, locals: locals, lookups: &helperLookups)
      {
        findings.append(finding)
      }
    }
    for index in 0..<file.count
    where file.word(index) == .PHImageManagerMaximumSize || file.word(index) == .AsyncImage {
      guard !(editedCropsOnly && file.word(index) == .AsyncImage), isListContext(index),
        let message = fullSizeRequest(file, index, project: project)
      else {
        continue
      }
      findings.append(file.finding(descriptor, at: index, message: message))
    }
    return findings.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
  }

  /// Whether the decode lies in a cell's own method (`extension UITableViewCell { func setImage(from
  /// urlString: String?) }`) that list code calls, and calls only with a small image
  /// (`cell.setImage(from: channel.attributes["tvg-logo"])`, `cell.setImage(from: show.icon)`): the
  /// arguments say what the cell decodes. Not `cellForRowAt` itself, which no list code calls.
  private static func calledOnlyWithSmallImages(_ file: SourceFile, function: Int, project: ProjectFacts)
    -> Bool
  {
    guard function > 0 else { return false }
    let scope = file.scope(function)
    guard scope.kind == .function, let name = file.name(of: function), let calls = project.listCalls[name],
      let paren = (scope.head..<max(scope.head, scope.open)).first(where: { file.kind($0) == .leftParen })
    else { return false }
    let parameters = ListCall.parameterLabels(file, paren: paren)
    let typeName = file.enclosingType(of: function).flatMap { file.name(of: $0) }
    let reaching = calls.filter {
      $0.matches(parameters: parameters, typeName: typeName, file: file.path, isPrivate: false)
    }
    return !reaching.isEmpty && reaching.allSatisfy(\.namesSmallImage)
  }

  /// A full-size decode in a helper that returns the image (`func image(for photo:) -> UIImage?`, a
  /// computed `var image: UIImage?`) or builds the view that shows it (`func row(_ entry:) -> some View`,
  /// a `@ViewBuilder` function, a computed `var …: some View`), which list or grid contexts elsewhere call: reported once, at the
  /// decode, with each cell's call in the context path.
  func helperCalledFromList(_ file: SourceFile, _ index: Int, function: Int, project: ProjectFacts)
    -> Finding?
  {
    let scope = file.scope(function)
    guard scope.kind == .function, let name = file.name(of: function) else { return nil }
    let head = scope.head..<max(scope.head, scope.open)
    var modifier = scope.head - 1
    var isPrivate = false
    var isViewBuilder = false
    while modifier >= 0, file.word(modifier).isModifier || file.kind(modifier) == .attribute {
      isPrivate = isPrivate || file.word(modifier) == .private || file.word(modifier) == .fileprivate
      isViewBuilder =
        isViewBuilder || (file.kind(modifier) == .attribute && file.text(modifier).hasSuffix("ViewBuilder"))
      modifier -= 1
    }
    let typeName = file.enclosingType(of: index).flatMap { file.name(of: $0) }
    // An initializer of the image type itself (`extension Image { init?(data: Data) { … } }`), which a
    // cell calls as `Image(data: photo.data)`.
    let imageInitializer =
      file.word(scope.head) == .initKeyword && (typeName == "Image" || typeName == "UIImage")
    // A helper that returns the image, or one that builds the view showing it (`-> some View`, a
    // computed `var …: some View`, a `@ViewBuilder` function): a row or cell drawn per list item.
    let returnsImage =
      imageInitializer || Self.handsOutImage(file, head: head) || isViewBuilder
      || Self.returnsView(file, head: head)
    // Or one that draws the decode itself (`extension UIImageView { func load(_ url: String) { … self.image
    // = downloaded } }`), which cells call on an outlet (`cell.photoView.load(photo.url)`); the cells'
    // arguments say what it draws, so calls given a small image (`profileImageURL`) do not count.
    // Asked only of names cells call, and with a bounded look, so a file of many decodes stays linear.
    let drawsOnly =
      !returnsImage && (project.listCalls[name] != nil || project.helperListCalls[name] != nil)
      && isDrawn(file, index, in: function, within: Self.drawLookahead)
    guard returnsImage || drawsOnly else { return nil }
    let isProperty = file.word(scope.head) == .var
    // A view's own `body` is what the view draws, not a helper its cells call: `.body` read in a list
    // belongs to the views the list creates, which are list contexts themselves.
    if isProperty, name == "body" { return nil }
    let parameters: [String]?
    if isProperty {
      parameters = nil
    } else if let paren = (scope.head..<scope.open).first(where: { file.kind($0) == .leftParen }) {
      parameters = ListCall.parameterLabels(file, paren: paren)
    } else {
      return nil
    }
    let labels = parameters?.map { $0 + ":" }.joined() ?? ""
    let called = imageInitializer ? "\(typeName ?? "Image").init(\(labels))" : name
    func reaching(_ recorded: [ListCall]?) -> [ListCall] {
      (recorded ?? []).filter {
        $0.matches(parameters: parameters, typeName: typeName, file: file.path, isPrivate: isPrivate)
          && Self.mayReach($0, typeName: typeName, project: project) && !(drawsOnly && $0.namesSmallImage)
      }
    }
    // The cells' own calls; failing those, calls made by a function the cells call (a helper's helper).
    var calls: [ListCall]
    if imageInitializer, let parameters {
      // `init(data: Data, scale: CGFloat = 1)` is called `Image(data:)` too: calls are filed under their
      // own labels, so every leading run of the parameters' labels is a key (``ListCall/matches`` then
      // checks the rest).
      calls = (0...parameters.count).flatMap { count in
        reaching(
          project.listCalls[
            "\(typeName ?? "Image").init(\(parameters.prefix(count).map { $0 + ":" }.joined()))"])
      }
    } else {
      calls = reaching(project.listCalls[called])
    }
    if calls.isEmpty, !imageInitializer { calls = reaching(project.helperListCalls[called]) }
    guard !calls.isEmpty else { return nil }
    let shown =
      imageInitializer ? "\(typeName ?? "Image")(\(labels))" : isProperty ? name : "\(name)(\(labels))"
    var finding = file.finding(
      descriptor, at: index,
      message:
        "\(shown) decodes the full-size photo with \(Self.decodeName(file, index)), and list or grid cells call it; downsample instead."
    )
    finding.contextPath = calls.map(\.step)
    return finding
  }

  /// Whether a member read whose receiver's type is known (`mission.image`, `mission: Mission`) can reach a
  /// property of `typeName`: the same type, a subclass or conformer of it, or a type it inherits from. A
  /// read of a receiver of unknown type reaches every declaration of the name.
  private static func mayReach(_ call: ListCall, typeName: String?, project: ProjectFacts) -> Bool {
    guard let receiver = call.receiverType, let typeName, receiver != typeName else { return true }
    return project.inherits(receiver, anyOf: [typeName]) || project.inherits(typeName, anyOf: [receiver])
  }

  private static let imageTypes: Set<Word> = [.UIImage, .Image, .CGImage]

  /// How many tokens after a decode a drawing helper is looked through for the statement that draws it.
  private static let drawLookahead = 256

  /// Whether a declaration's head returns a view: `-> some View` or `var row: some View`.
  /// Whether the function or computed property declared by `head` hands an image out: its return type, the
  /// property's type, or a parameter of a completion closure it takes (`completion: @escaping (UIImage?) ->
  /// Void`). An image it is given (`placeHolder: UIImage?`) is not one it hands out: such a helper counts only
  /// if it draws the decode itself, and then the cells' arguments say what it draws.
  private static func handsOutImage(_ file: SourceFile, head: Range<Int>) -> Bool {
    guard file.word(head.lowerBound) == .func,
      let paren = head.first(where: { file.kind($0) == .leftParen }),
      let close = file.match(paren), close < head.upperBound
    else { return file.contains(imageTypes, in: head) }
    if file.contains(imageTypes, in: (close + 1)..<head.upperBound) { return true }
    // Inside the parameter list, an image type nested in parentheses is a closure's parameter.
    var depth = 0
    for token in (paren + 1)..<close {
      switch file.kind(token) {
      case .leftParen: depth += 1
      case .rightParen: depth -= 1
      default: if depth > 0, imageTypes.contains(file.word(token)) { return true }
      }
    }
    return false
  }

  private static func returnsView(_ file: SourceFile, head: Range<Int>) -> Bool {
    head.contains { index in
      file.word(index) == .View && file.text(index - 1) == "some"
        && (file.word(index - 2) == .opArrow || file.kind(index - 2) == .colon)
    }
  }

  /// `requestImage(…, targetSize: PHImageManagerMaximumSize, …)`, or `AsyncImage(url:)` of a photo that
  /// exists only at full size: a URL named for the original (`fullURL`, `originalURL`), a photo URL of a
  /// model that also has a thumbnail URL the cell passes over, or a photo URL of a model in a project that
  /// stores the photos itself (it writes `jpegData`/`pngData`), where no smaller copy exists. Names that say
  /// small (`thumbnailURL`, `previewURL`) or that name what services send small anyway (an avatar, icon,
  /// logo, poster) are left alone.
  private func fullSizeRequest(_ file: SourceFile, _ index: Int, project: ProjectFacts) -> String? {
    if file.word(index) == .PHImageManagerMaximumSize {
      guard let paren = file.enclosingParen(of: index), file.word(paren - 1) == .requestImage else {
        return nil
      }
      return
        "A list or grid cell requests PHImageManagerMaximumSize, the full-size photo; request the cell's pixel size."
    }
    guard !file.isMember(index), file.kind(index + 1) == .leftParen, let close = file.match(index + 1) else {
      return nil
    }
    let end = file.endOfArgument(from: index + 2, close: close)
    var identifiers = ((index + 2)..<end).filter { file.kind($0) == .identifier }
    // `if let url = post.imageURLs.first { AsyncImage(url: url) }`: a plain name bound just before says
    // which property the URL comes from, as a member read in the argument would.
    if !identifiers.contains(where: { file.isMember($0) }) {
      for token in identifiers where file.kind(token + 1) != .colon {
        guard let line = Self.bindingLine(file, of: token) else { continue }
        identifiers += line.filter { file.kind($0) == .identifier }
      }
    }
    let names = identifiers.map { ASCII.lowercased(file.text($0)) }
    let small = names.contains { name in ListCall.smallImageWords.contains { ASCII.contains(name, $0) } }
    guard !small else { return nil }
    let fullSize = names.contains { name in
      ["full", "original", "large", "hires", "highres", "raw", "download"].contains {
        ASCII.contains(name, $0)
      }
    }
    if fullSize {
      return
        "A list or grid cell shows AsyncImage of the full-size photo, decoded at full size; load a thumbnail URL."
    }
    // The model property the URL comes from: `post.imageUrl`, `URL(string: photo.url)`,
    // `URL(string: upload.link)`, `folder.appendingPathComponent(entry.imagePath)`.
    for token in identifiers.reversed() where file.isMember(token) {
      let name = file.text(token)
      let lower = ASCII.lowercased(name)
      guard
        ["image", "photo", "picture", "pic", "media", "url", "path", "link", "uri", "src"].contains(where: {
          ASCII.contains(lower, $0)
        }),
        let owners = project.propertyOwners[name]
      else { continue }
      let hasSmaller = owners.contains { owner in
        (project.types[owner]?.propertyNames ?? []).contains { sibling in
          let other = ASCII.lowercased(sibling)
          return ["thumb", "small", "preview", "resized", "compressed"].contains { ASCII.contains(other, $0) }
        }
      }
      if hasSmaller {
        return
          "A list or grid cell shows AsyncImage of \(name), the full-size photo, although its model has a smaller one; load that."
      }
      if project.words.containsAny([.jpegData, .pngData, .heicData]) {
        return
          "A list or grid cell shows AsyncImage of \(name), a photo the app stores only at full size, decoded at full size; store and load a thumbnail."
      }
      return nil
    }
    return nil
  }

  /// The closure around `index` when the list context is the cell type itself and not a list builder,
  /// data source method or registration: the callback a cell passes to a download or a loader.
  private func cellCallback(_ file: SourceFile, _ index: Int) -> Int? {
    var closure: Int?
    for scopeIndex in file.syntax.enclosingScopes(of: index) {
      let scope = file.scope(scopeIndex)
      switch scope.kind {
      case .closure:
        if ListContext.containers.contains(file.word(scope.callee)) { return nil }
        if closure == nil { closure = scopeIndex }
      case .function:
        if file.contains([.cellForItemAt, .cellForRowAt], in: scope.head..<max(scope.head, scope.open)) {
          return nil
        }
      case .type: return closure
      default: continue
      }
    }
    return nil
  }

  /// Whether the image decoded at `index` is drawn inside `closure`: the decode itself, or the name it is
  /// bound to (`let image = UIImage(data: data)`), is assigned to an `…image` property or passed to a
  /// call named for images (`setImage`, `Image(uiImage:)`, `UIImageView(image:)`).
  private func isDrawn(_ file: SourceFile, _ index: Int, in closure: Int, within limit: Int? = nil) -> Bool {
    if isImageSink(file, at: index) { return true }
    // The whole expression: `generator.copyCGImage(…)` starts at its receiver, after any `try`.
    var start = file.isMember(index) ? file.postfixStart(endingAt: index) : index
    if file.word(start - 1) == .try { start -= 1 }
    if file.word(start - 1) == .opQuestion || file.word(start - 1) == .opBang, file.word(start - 2) == .try {
      start -= 2
    }
    guard file.word(start - 1) == .opAssign, file.kind(start - 2) == .identifier,
      file.word(start - 3) == .let || file.word(start - 3) == .var
    else { return false }
    let name = start - 2
    let body = file.body(of: closure)
    let end = limit.map { min(body.upperBound, index + 1 + $0) } ?? body.upperBound
    for use in (index + 1)..<max(index + 1, end)
    where file.kind(use) == .identifier && file.source.sameText(use, name) {
      if isImageSink(file, at: use) { return true }
      // A frame wrapped for the view: `imageView.image = UIImage(cgImage: frame)`.
      if file.text(use - 2) == "cgImage", file.kind(use - 1) == .colon,
        let paren = file.enclosingParen(of: use), file.word(paren - 1) == .UIImage,
        isImageSink(file, at: paren - 1)
      {
        return true
      }
    }
    return false
  }

  /// `x.image = <expression at index>` or `setImage(<expression at index>)`.
  private func isImageSink(_ file: SourceFile, at index: Int) -> Bool {
    // Not a binding (`let image = …`): that names the image, it does not draw it.
    if file.word(index - 1) == .opAssign, file.kind(index - 2) == .identifier,
      file.word(index - 3) != .let, file.word(index - 3) != .var,
      file.text(index - 2).lowercased().hasSuffix("image")
    {
      return true
    }
    if let paren = file.enclosingParen(of: index), file.kind(paren - 1) == .identifier,
      file.word(paren - 1) != .UIImage, file.text(paren - 1).lowercased().contains("image")
    {
      return true
    }
    return false
  }
}
