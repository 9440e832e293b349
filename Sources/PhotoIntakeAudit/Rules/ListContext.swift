/// Which code of a file draws list or grid cells, decided once per scope.
///
/// A scope is a list context when it is a `ForEach` content closure or that of a `List` given its data
/// (`List(photos) { … }`), a cell registration or diffable data source cell provider, a
/// `cellForItemAt`/`cellForRowAt` method or a `willDisplay` delegate method (which UIKit calls for each cell
/// as it appears), or a type that is (or is named like) a cell, row, tile or
/// thumbnail — or lies inside one. Navigation destinations, sheets and popovers shown from a list are not
/// cells: a full-size image there is what the user asked to see. The fixed content of a `List` given no
/// data (a form's sections) and of a `LazyVGrid`/`LazyHGrid`/`LazyVStack`/`LazyHStack`/`Grid` is made once;
/// only a `ForEach` inside it makes one view per item.
enum ListContext {
  static let containers: Set<Word> = [
    .ForEach, .List, .LazyVGrid, .LazyHGrid, .LazyVStack, .LazyHStack, .Grid, .CellRegistration,
    .UICollectionViewDiffableDataSource, .UITableViewDiffableDataSource,
  ]
  /// Words without which a file has no list context.
  static let words: [Word] =
    Array(containers) + [
      .cellForItemAt, .cellForRowAt, .willDisplay, .UICollectionViewCell, .UITableViewCell,
      .UICollectionViewListCell,
    ]
  static let cellBases: Set<String> = [
    "UICollectionViewCell", "UITableViewCell", "UICollectionViewListCell",
  ]
  private static let cellSuffixes = ["Cell", "Row", "Tile", "Thumbnail", "GridItem"]
  /// Closures that present something other than the cell.
  private static let presenters: Set<Word> = [
    .NavigationLink, .sheet, .fullScreenCover, .navigationDestination, .popover,
  ]

  /// For each scope of `file`, whether code in it draws a list or grid cell. `isCellType` adds types
  /// known from elsewhere (a base class declared in another file, a view a grid creates).
  /// `wrappers`: app views whose trailing closure draws each row (``ListWrappers``).
  static func scopes(
    in file: SourceFile, wrappers: Set<String> = [], isCellType: (Int) -> Bool = { _ in false }
  ) -> [Bool] {
    let scopes = file.syntax.scopes
    var inList = [Bool](repeating: false, count: scopes.count)
    for (index, scope) in scopes.enumerated() where index > 0 {
      let parent = scope.parent >= 0 && scope.parent < index ? inList[scope.parent] : false
      switch scope.kind {
      case .closure:
        let callee = file.word(scope.callee)
        if presenters.contains(callee) {
          // `NavigationLink { destination } label: { cell }`, `NavigationLink(destination: D) { cell }`:
          // only the label is the cell.
          inList[index] =
            parent && callee == .NavigationLink
            && (file.word(scope.label) == .label || isLabelAfterDestination(file, scope))
        } else if callee == .ForEach, !parent, isPagerContent(file, scope, scopes) {
          // `TabView { ForEach(photos) { … } }`: the pages of a pager, each shown alone on the screen,
          // not the cells of a list.
          inList[index] = false
        } else {
          inList[index] =
            parent || (containers.contains(callee) && !isStaticContent(file, scope, callee))
            || (callee == .none && !wrappers.isEmpty && scope.callee >= 0
              && wrappers.contains(file.text(scope.callee)))
        }
      case .function:
        inList[index] =
          parent
          || file.contains([.cellForItemAt, .cellForRowAt], in: scope.head..<max(scope.head, scope.open))
          || isWillDisplayCell(file, scope)
      case .type:
        let name = file.name(of: index) ?? ""
        inList[index] =
          parent || cellSuffixes.contains(where: { name.hasSuffix($0) })
          || declaresCellBase(file, scope)
          || isCellType(index)
      default:
        inList[index] = parent
      }
    }
    return inList
  }

  /// Whether the closure `scope` given to the container `callee` holds fixed views, not one per item: a
  /// stack's or grid's content (`LazyVGrid(columns:) { … }`, whose items a `ForEach` inside makes), or a
  /// `List` given no data (`List { Section { ProfilePhoto() } }`, a form). Views written there are made once,
  /// like any screen's; a `List(photos) { photo in … }` makes one row per item.
  private static func isStaticContent(_ file: SourceFile, _ scope: Scope, _ callee: Word) -> Bool {
    switch callee {
    case .LazyVGrid, .LazyHGrid, .LazyVStack, .LazyHStack, .Grid: return true
    case .List:
      // `List(items)`, `List(items, id: \.self)`: an unlabeled first argument is the data.
      let paren = scope.callee + 1
      guard scope.callee >= 0, file.kind(paren) == .leftParen, file.kind(paren + 1) != .rightParen else {
        return true
      }
      return file.kind(paren + 1) == .identifier && file.kind(paren + 2) == .colon
    default: return false
    }
  }

  /// Whether the type `scope`'s own inheritance clause names a UIKit cell class (`: UICollectionViewCell`).
  static func declaresCellBase(_ file: SourceFile, _ scope: Scope) -> Bool {
    scope.inheritance.clamped(to: 0..<file.count).contains { cellBases.contains(file.text($0)) }
  }

  /// Whether the function `scope` is `collectionView(_:willDisplay:forItemAt:)` or
  /// `tableView(_:willDisplay:forRowAt:)`: UIKit calls it for each cell as it appears, as it calls
  /// `cellForItemAt` (`willDisplayHeaderView` and the like are other words).
  private static func isWillDisplayCell(_ file: SourceFile, _ scope: Scope) -> Bool {
    guard file.word(scope.head) == .func, scope.open > scope.head else { return false }
    let head = scope.head..<min(scope.open, scope.head + 16)
    return head.contains { file.word($0) == .willDisplay && file.kind($0 + 1) == .identifier }
  }

  /// Whether the closure `scope` lies directly in a `TabView`'s content closure: a `ForEach` there makes
  /// the pages of a pager (`.tabViewStyle(.page)`) or the tabs, one screen each.
  private static func isPagerContent(_ file: SourceFile, _ scope: Scope, _ scopes: [Scope]) -> Bool {
    guard scope.parent > 0, scope.parent < scopes.count else { return false }
    let outer = scopes[scope.parent]
    return outer.kind == .closure && file.word(outer.callee) == .TabView
  }

  /// `NavigationLink(destination: Detail()) { Row() }`, `NavigationLink(value: item) { Row() }`: the
  /// trailing closure after a `destination:` or `value:` argument is the label (a `value:` link's
  /// destination is a `navigationDestination` elsewhere).
  private static func isLabelAfterDestination(_ file: SourceFile, _ scope: Scope) -> Bool {
    guard file.kind(scope.open - 1) == .rightParen, let paren = file.match(scope.open - 1) else {
      return false
    }
    return ((paren + 1)..<(scope.open - 1)).contains {
      (file.text($0) == "destination" || file.text($0) == "value") && file.kind($0 + 1) == .colon
    }
  }

  /// Whether `file` declares a SwiftUI view named like a cell, row, tile or thumbnail
  /// (`struct JournalCell: View`): it draws a cell wherever a list creates it, also in a file that names
  /// no list builder or cell class itself. UIKit cell extensions in such files (`extension PostCell` with
  /// its button actions) are left out: what their actions present is not the cell.
  static func declaresCellNamedView(_ file: SourceFile) -> Bool {
    file.syntax.scopes.indices.contains { index in
      let scope = file.scope(index)
      return scope.kind == .type
        && file.name(of: index).map { name in cellSuffixes.contains(where: { name.hasSuffix($0) }) } == true
        && scope.inheritance.clamped(to: 0..<file.count).contains { file.word($0) == .View }
    }
  }

  /// Whether token `index` lies in the parentheses of a presenter (`NavigationLink(destination: …)`), also
  /// inside a call there (`NavigationLink(destination: Detail(image: …))`).
  static func isPresented(_ file: SourceFile, _ index: Int) -> Bool {
    var cursor = index
    while let paren = file.enclosingParen(of: cursor) {
      if presenters.contains(file.word(paren - 1)) { return true }
      cursor = paren
    }
    return false
  }
}

/// A call or member read made from a list or grid context (see ``ListContext``), as ``ProjectFacts``
/// records it: `model.thumbnail(for: photo)` in a `LazyVGrid`, `photo.image` in a cell,
/// `PhotoCard(photo: photo)` in a `ForEach`.
struct ListCall: Sendable {
  /// The argument labels (`_` for none), or `nil` for a property read.
  var labels: [String]?
  /// Whether the call has no receiver (`loadImage(named:)`, `self.loadImage(named:)`): it reaches a
  /// function of its own type only.
  var isBare: Bool
  /// The type around the call, by name, if any.
  var typeName: String?
  /// For a member read (`mission.image`), the receiver's type where its file declares it plainly (see
  /// ``ReceiverTypes``): the read reaches only a declaration of that type or one related to it.
  var receiverType: String? = nil
  /// Whether the call passes an argument named for a small image (`RemoteImage(url: video.thumbnailURL)`,
  /// `Avatar(user.profileImage)`): a view it creates is given a thumbnail or an image a service sizes, not
  /// the photo.
  var namesSmallImage = false
  /// Where it is, for the finding's context path.
  var step: ContextStep

  /// Parts of names that say an image is small, or one that services send small anyway.
  static let smallImageWords: [StaticString] = [
    "thumb", "small", "preview", "avatar", "icon", "logo", "sprite", "poster", "artwork", "flag", "badge",
    "profile", "low", "tiny", "mini",
  ]

  /// Whether one of the first arguments of the call whose `(` is at `paren` names a small image (by a name
  /// or a dictionary key), or is a plain name bound just before from a property that names one (`if let
  /// url = photo.thumbImageURL() { cell.imageView.load(url: url) }`).
  static func namesSmallImage(_ file: SourceFile, paren: Int) -> Bool {
    guard let close = file.match(paren) else { return false }
    // The first arguments only, so nested calls cost a bounded look each.
    let arguments = (paren + 1)..<min(close, paren + 65)
    // Also a dictionary key (`channel.attributes["tvg-logo"]`, `user["profile_image_url"]`).
    if arguments.contains(where: { token in
      (file.kind(token) == .identifier
        || (file.kind(token) == .string && file.kind(token - 1) == .leftBracket))
        && namesSmallImage(file.text(token))
    }) {
      return true
    }
    // A plain name (`load(url: url)`): the properties its binding reads, as the decode's own argument is
    // followed (the local's name is the developer's label, not the source's). The first few such
    // arguments only, each a bounded look back, so a call of many arguments costs a bounded look.
    var looks = 0
    for token in arguments where looks < 4 && file.kind(token) == .identifier && !file.isMember(token) {
      guard file.kind(token + 1) == .rightParen || file.kind(token + 1) == .comma,
        file.kind(token - 1) == .colon || token == paren + 1
      else { continue }
      looks += 1
      if let line = FullDecodeThumbnailRule.bindingLine(file, of: token),
        line.contains(where: { file.isMember($0) && namesSmallImage(file.text($0)) })
      {
        return true
      }
    }
    return false
  }

  /// Whether a word of the name (split at case changes, `_`, `-` and digits) starts with one of
  /// ``smallImageWords``: `avatarImg`, `profile_image_url`, `tvg-logo`, `thumbnailURL`, not `flowerPhotoURLs`
  /// (whose `low` is inside a word) or `followers`.
  private static func namesSmallImage(_ text: String) -> Bool {
    var words: [[UInt8]] = []
    var current: [UInt8] = []
    var previousIsLower = false
    for byte in text.utf8 {
      let isUpper = byte >= 0x41 && byte <= 0x5A
      let isLetter = isUpper || (byte >= 0x61 && byte <= 0x7A)
      if !isLetter || (isUpper && previousIsLower) {
        if !current.isEmpty { words.append(current) }
        current = []
      }
      if isLetter { current.append(isUpper ? byte + 0x20 : byte) }
      previousIsLower = isLetter && !isUpper
    }
    if !current.isEmpty { words.append(current) }
    return words.contains { word in smallImageWords.contains { ASCII.hasPrefix(word, $0) } }
  }

  /// Whether a call with these labels can reach a declaration taking `parameters`: the same labels, or
  /// the leading ones with the rest defaulted or given as trailing closures.
  /// A bare call reaches only a function of its own type or a top-level function of its own file (Swift
  /// looks a name up in the type first, then in the module), and a `private` or `fileprivate` function is
  /// reached only from its own file.
  func matches(parameters: [String]?, typeName: String?, file: String, isPrivate: Bool) -> Bool {
    if isBare, typeName == nil ? step.file != file : self.typeName != typeName { return false }
    if isPrivate, step.file != file { return false }
    guard let labels, let parameters else { return labels == nil && parameters == nil }
    return labels.count <= parameters.count && Array(parameters.prefix(labels.count)) == labels
  }

  /// The labels of the call whose `(` is at `paren`.
  static func labels(_ file: SourceFile, paren: Int) -> [String] {
    guard let close = file.match(paren), close > paren + 1 else { return [] }
    var labels: [String] = []
    var start = paren + 1
    while start < close {
      let labeled = file.kind(start) == .identifier && file.kind(start + 1) == .colon
      labels.append(labeled ? file.text(start) : "_")
      start = file.endOfArgument(from: start, close: close) + 1
    }
    return labels
  }

  /// The external parameter labels of the function declared with its `(` at `paren`.
  static func parameterLabels(_ file: SourceFile, paren: Int) -> [String] {
    guard let close = file.match(paren), close > paren + 1 else { return [] }
    var labels: [String] = []
    var start = paren + 1
    while start < close {
      labels.append(file.kind(start) == .identifier || file.word(start) != .none ? file.text(start) : "_")
      start = file.endOfArgument(from: start, close: close) + 1
    }
    return labels
  }
}
