/// `grid-keyed-by-index`: a photo grid whose cells are keyed by their index in a `PHFetchResult`.
///
/// Two forms, both over a name the project declares as a `PHFetchResult<PHAsset>`
/// (``ProjectFacts/fetchResultNames``):
/// - SwiftUI: `ForEach(0..<fetchResult.count, id: \.self)` (or without `id:`), whose content never mentions
///   `localIdentifier`: the view's identity, and the state it loaded, stay with the index while a library change
///   moves another photo there.
/// - UIKit: `cellForItemAt`/`cellForRowAt` that takes `fetchResult.object(at: indexPath.item)` (or
///   `fetchResult[indexPath.row]`, or the element of an array copied from a fetch result,
///   ``ProjectFacts/cellAssetSources``) and calls `requestImage` there, with no `localIdentifier` anywhere in
///   the method, in a project that never cancels image requests: the result lands in whichever asset the
///   reused cell shows by then.
///
/// - UIKit, the request in the cell: such a `cellForItemAt` (or `willDisplay`) calls a method of the cell
///   (`cell.loadImage(phAsset: asset)`) or sets a property whose observer runs (`cell.asset = asset`, see
///   ``ProjectFacts/cellLoaders``), and that body requests the image and never checks what the cell shows
///   (no `localIdentifier`, no `==`/`===`), in a project that never cancels image requests: reported at the
///   cell's request.
///
/// Precision first: a grid whose request goes through a helper outside the cell (of the controller or another
/// type), whose cell checks what it shows, or that checks identifiers anywhere in the method, is left alone.
struct GridKeyedByIndexRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "grid-keyed-by-index", severity: .warning,
    summary:
      "Grid cells over a PHFetchResult are keyed by index; a library change or a reused cell shows or imports another photo.",
    leavesAlone:
      "Cells keyed or checked by localIdentifier, requests made in a helper outside the cell or in a cell method that checks which asset it shows when the image arrives (a comparison in the result handler), requests whose result handler checks which request the cell still shows (if cell.tag == tag), projects that cancel image requests (for a request in a cell's own method: outside cell classes, or in that cell class), SwiftUI index loops over arrays (also an array that shares its name with a fetch result elsewhere in the project), and UIKit cells over arrays not copied from a fetch result (the app's own picked assets).",
    fix: """
      Key cells by PHAsset.localIdentifier (ForEach(assets, id: \\.localIdentifier), a diffable data source \
      of identifiers), remember the identifier a cell shows (cell.representedAssetIdentifier = \
      asset.localIdentifier) and drop an image whose asset is no longer the cell's, and apply \
      PHFetchResultChangeDetails when the library changes, as Apple's sample code does.
      """,
    reference: .documentation(
      "Browsing and Modifying Photo Albums", "photokit/browsing-and-modifying-photo-albums"))

  let triggers: Set<Word> = [.ForEach, .cellForItemAt, .cellForRowAt, .requestImage]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard !project.fetchResultNames.isEmpty || !project.cellAssetSources.isEmpty else { return [] }
    var findings: [Finding] = []
    var arrays: [Int: [String: [Int]]] = [:]
    for index in 0..<file.count where file.word(index) == .ForEach && file.kind(index + 1) == .leftParen {
      guard let close = file.match(index + 1),
        indexRange(over: project, in: file, from: index + 2, to: close, arrays: &arrays)
      else { continue }
      // The content closure: trailing, or the last argument.
      let content =
        file.kind(close + 1) == .leftBrace
        ? (close + 1)..<(file.match(close + 1) ?? close + 1) : index..<close
      if file.contains([.localIdentifier], in: content) { continue }
      findings.append(file.finding(descriptor, at: index))
    }
    for (scopeIndex, scope) in file.syntax.scopes.enumerated()
    where scope.kind == .function
      && file.contains([.cellForItemAt, .cellForRowAt], in: scope.head..<max(scope.head, scope.open))
    {
      let body = file.body(of: scopeIndex)
      guard !file.contains([.localIdentifier], in: body), !project.words.contains(.cancelImageRequest),
        Self.takesObjectByIndexPath(over: project.cellAssetSources, in: file, body)
      else { continue }
      for request in body where file.word(request) == .requestImage && file.isMember(request) {
        // `var tag = cell.tag + 1; cell.tag = tag; … { image, _ in if cell.tag == tag { … } }`: the result
        // handler checks which request the cell still shows, as a cell method that compares does.
        if let handler = file.resultHandler(ofCallAt: request),
          Self.compares(file, in: file.body(of: handler), inequality: false)
        {
          continue
        }
        findings.append(file.finding(descriptor, at: request))
      }
    }
    findings += requestsInCellLoaders(file, project: project)
    return findings
  }

  /// Requests made in a cell method that an index-keyed `cellForItemAt` calls (``ProjectFacts/cellLoaders``),
  /// when the method never checks which asset the cell shows by the time the image arrives.
  private func requestsInCellLoaders(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard !project.cellLoaders.isEmpty || !project.cellLoaderProperties.isEmpty,
      !project.cancelsImageRequestsOutsideCells
    else { return [] }
    var findings: [Finding] = []
    for (scopeIndex, scope) in file.syntax.scopes.enumerated() where scope.kind == .function {
      guard let name = file.name(of: scopeIndex), let type = file.enclosingType(of: scope.head) else {
        continue
      }
      let setProperty =
        file.word(scope.head) != .func
        && project.cellLoaderProperties[name].map { casts in
          casts.contains("") || file.name(of: type).map(casts.contains) == true
        } == true
      guard project.cellLoaders.contains(name) || setProperty,
        project.typeInherits(file, scope: type, anyOf: ListContext.cellBases),
        // A cell class that cancels its own requests (in `prepareForReuse`) covers itself, not others.
        !(file.name(of: type).map { project.cellTypesCancellingRequests.contains($0) } ?? false)
      else { continue }
      let body = file.body(of: scopeIndex)
      guard !file.contains([.localIdentifier], in: body) else { continue }
      for request in body where file.word(request) == .requestImage && file.isMember(request) {
        // What the cell shows is checked when the image arrives: a comparison in the result handler
        // (`if self.asset == asset`, `if self.tag == tag`). One before the request (`if
        // mediaAsset.asset.mediaType == .video`) checks nothing about the arriving image.
        let checks =
          file.resultHandler(ofCallAt: request).map { handler in
            Self.compares(file, in: file.body(of: handler), inequality: true)
          } ?? Self.compares(file, in: body, inequality: false)
        guard !checks else { continue }
        findings.append(file.finding(descriptor, at: request))
      }
    }
    return findings
  }

  /// Whether `range` holds an equality test (`==`, `===`), or also an inequality (`!=`, `!==`) when
  /// `inequality`: a check of which asset or request a cell still shows.
  private static func compares(_ file: SourceFile, in range: Range<Int>, inequality: Bool) -> Bool {
    range.contains { token in
      file.word(token) == .opEqual || file.text(token) == "==="
        || (inequality && (file.word(token) == .opNotEqual || file.text(token) == "!=="))
    }
  }

  /// Whether the first argument of a `ForEach` (tokens `start..<end`) is `0..<name.count` with `name` a
  /// fetch result: it begins with the number and reads `.count` of a fetch result name.
  /// `arrays` keeps ``arrayDeclarations(in:of:)`` per type scope.
  private func indexRange(
    over project: ProjectFacts, in file: SourceFile, from start: Int, to end: Int,
    arrays: inout [Int: [String: [Int]]]
  ) -> Bool {
    guard file.kind(start) == .number, file.text(start) == "0" else { return false }
    let argument = start..<file.endOfArgument(from: start, close: end)
    for index in argument where file.word(index) == .count && file.isMember(index) {
      var receiver = index - 2
      if file.word(receiver) == .opQuestion || file.word(receiver) == .opBang { receiver -= 1 }
      if file.kind(receiver) == .identifier, project.fetchResultNames.contains(file.text(receiver)),
        !Self.declaresArray(receiver, in: file, arrays: &arrays)
      {
        return true
      }
    }
    return false
  }

  /// Whether the type around `name` declares that name as an array (`let photos: [Photo]`): the project's
  /// fetch result of the same name is another value, and an index loop over an array is left alone.
  ///
  /// The type's array declarations are read once (`arrays`, per type scope): a view with thousands of
  /// `ForEach(0..<assets.count)` read the whole type for each.
  private static func declaresArray(_ name: Int, in file: SourceFile, arrays: inout [Int: [String: [Int]]])
    -> Bool
  {
    guard let type = file.enclosingType(of: name) else { return false }
    if arrays[type] == nil { arrays[type] = arrayDeclarations(in: file, of: type) }
    return arrays[type]?[file.text(name)]?.contains { $0 != name } ?? false
  }

  /// The names that the body of the type scope `type` declares as arrays (`let photos: [Photo]`), with
  /// their tokens.
  private static func arrayDeclarations(in file: SourceFile, of type: Int) -> [String: [Int]] {
    var names: [String: [Int]] = [:]
    for token in file.body(of: type)
    where file.kind(token) == .identifier && (file.word(token - 1) == .let || file.word(token - 1) == .var)
      && file.kind(token + 1) == .colon && file.kind(token + 2) == .leftBracket
    {
      names[file.text(token), default: []].append(token)
    }
    return names
  }

  /// Whether `body` reads a fetch result at an index path: `name.object(at: indexPath.item)`,
  /// `name[indexPath.row]`, or Swift 2's `name.objectAtIndex(indexPath.row)`.
  static func takesObjectByIndexPath(
    over fetchResultNames: Set<String>, in file: SourceFile, _ body: Range<Int>
  )
    -> Bool
  {
    for index in body
    where file.kind(index) == .identifier && fetchResultNames.contains(file.text(index)) {
      var next = index + 1
      if file.word(next) == .opQuestion || file.word(next) == .opBang { next += 1 }
      let open: Int
      if file.kind(next) == .dot,
        file.text(next + 1) == "object" || file.text(next + 1) == "objectAtIndex",
        file.kind(next + 2) == .leftParen
      {
        open = next + 2
      } else if file.kind(next) == .leftBracket {
        open = next
      } else {
        continue
      }
      guard let close = file.match(open) else { continue }
      if ((open + 1)..<close).contains(where: { file.text($0) == "indexPath" }) { return true }
    }
    return false
  }
}
