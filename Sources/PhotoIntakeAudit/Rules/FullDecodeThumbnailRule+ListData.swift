/// Full-size decodes stored into the data a list or grid draws (issue 25: "a full-size decode in a helper
/// that a cell or SwiftUI grid calls through a model"): a model or view that decodes each photo whole into
/// an array or cache (`photos.insert(image, at: 0)`, `imageCache[url] = UIImage(data: data)`,
/// `images = files.compactMap { UIImage(contentsOfFile: $0.path) }`) that a `ForEach`/`List` iterates or a
/// cell reads by subscript (``ProjectFacts/listDataNames``).
extension FullDecodeThumbnailRule {
  /// The finding for the decode at `index` when its image is stored into data that list or grid cells
  /// draw, directly or through one local collection of the same function (`loaded.append(image)` …
  /// `photos = loaded`).
  func decodedIntoListData(_ file: SourceFile, _ index: Int, function: Int, project: ProjectFacts) -> Finding?
  {
    guard !project.listDataNames.isEmpty, function > 0 else { return nil }
    let body = file.body(of: function)
    var stores: Set<String> = []
    for sink in Self.sinks(of: index, in: file, body: body) {
      if Self.declaresLocally(sink, in: file, body: body, before: index) {
        // A local collection: follow it once, to the property it is stored into.
        for use in (index + 1)..<body.upperBound
        where file.kind(use) == .identifier && !file.isMember(use) && file.text(use) == sink {
          stores.formUnion(Self.sinks(of: use, in: file, body: body))
        }
      } else {
        stores.insert(sink)
      }
    }
    guard let store = stores.sorted().first(where: { project.listDataNames.contains($0) }) else { return nil }
    return file.finding(
      descriptor, at: index,
      message:
        "\(Self.decodeName(file, index)) decodes the full-size photo into \(store), which list or grid cells draw; downsample instead."
    )
  }

  /// The finding for the decode at `index` when its image reaches data that list or grid cells draw
  /// through a completion handler, an `await` or a Combine chain (``DecodeFlows``): reported once, at the
  /// decode, with each store in the context path.
  func handedToListData(_ file: SourceFile, _ index: Int, function: Int, project: ProjectFacts) -> Finding? {
    guard let steps = project.decodeFlows?.steps(path: file.path, index: index), !steps.isEmpty else {
      return nil
    }
    let name = function > 0 ? file.name(of: function).map { $0 + " " } ?? "" : ""
    var finding = file.finding(
      descriptor, at: index,
      message:
        "\(name)decodes the full-size photo with \(Self.decodeName(file, index)), and the image is handed on into data that list or grid cells draw; downsample instead."
    )
    finding.contextPath = steps
    return finding
  }

  /// Where the image made at `index` (a decode, or a use of a name bound to one) is stored: the
  /// collection it is appended or inserted into (also inside another value, `PhotoItem(image: image)`),
  /// the name it is assigned to (`cache[key] = …`, `images = … .compactMap { UIImage(data: $0) }`), and
  /// the same for the name it is bound to (`let image = UIImage(data: data)`).
  static func sinks(of index: Int, in file: SourceFile, body: Range<Int>) -> [String] {
    var result: [String] = []
    var value = index
    // `xs.compactMap { UIImage(data: $0) }`: the whole mapped expression is the value.
    if let closure = file.syntax.enclosing(index, [.closure, .function, .accessor]),
      file.scope(closure).kind == .closure, file.scope(closure).callee >= 0,
      ["map", "compactMap", "flatMap"].contains(file.text(file.scope(closure).callee))
    {
      value = file.postfixStart(endingAt: file.scope(closure).callee)
    }
    if let stored = storedInto(value, in: file) { result.append(stored) }
    // `let image = UIImage(data: data)`, `if let image = …`: follow the name through the function.
    if value == index, file.word(index - 1) == .opAssign, file.kind(index - 2) == .identifier,
      file.word(index - 3) == .let || file.word(index - 3) == .var
    {
      let name = index - 2
      for use in (index + 1)..<body.upperBound
      where file.kind(use) == .identifier && !file.isMember(use) && file.source.sameText(use, name) {
        if let stored = storedInto(use, in: file) { result.append(stored) }
      }
    }
    return result
  }

  /// The collection or name the value at `start` is stored into: an `append`/`insert` argument (at any
  /// depth of the call's arguments), or the right side of an assignment.
  private static func storedInto(_ start: Int, in file: SourceFile) -> String? {
    var paren = file.enclosingParen(of: start)
    while let open = paren {
      let callee = open - 1
      if file.kind(callee) == .identifier, file.text(callee) == "append" || file.text(callee) == "insert",
        file.kind(callee - 1) == .dot, file.kind(callee - 2) == .identifier
      {
        return file.text(callee - 2)
      }
      paren = file.enclosingParen(of: open)
    }
    guard file.word(start - 1) == .opAssign else { return nil }
    var target = start - 2
    if file.kind(target) == .rightBracket, let open = file.match(target) { target = open - 1 }
    guard file.kind(target) == .identifier, file.word(target - 1) != .let, file.word(target - 1) != .var
    else { return nil }
    return file.text(target)
  }

  /// Whether `name` is a local of the function (`var loaded: [UIImage] = []`) declared before `index`.
  private static func declaresLocally(
    _ name: String, in file: SourceFile, body: Range<Int>, before index: Int
  )
    -> Bool
  {
    (body.lowerBound..<index).contains { token in
      (file.word(token) == .var || file.word(token) == .let) && file.kind(token + 1) == .identifier
        && file.text(token + 1) == name
    }
  }
}
