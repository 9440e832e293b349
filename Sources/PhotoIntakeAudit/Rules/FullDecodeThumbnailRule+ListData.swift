/// Full-size decodes stored into the data a list or grid draws (issue 25: "a full-size decode in a helper
/// that a cell or SwiftUI grid calls through a model"): a model or view that decodes each photo whole into
/// an array or cache (`photos.insert(image, at: 0)`, `imageCache[url] = UIImage(data: data)`,
/// `images = files.compactMap { UIImage(contentsOfFile: $0.path) }`) that a `ForEach`/`List` iterates or a
/// cell reads by subscript (``ProjectFacts/listDataNames``).
extension FullDecodeThumbnailRule {
  /// The locals of each function that ``decodedIntoListData(_:_:function:project:locals:)`` follows, read
  /// once per function within one check.
  ///
  /// A function that appends thousands of decodes to one local collection asked, per decode, whether the
  /// local was declared before it (a scan from the function's start) and where each later use of it is
  /// stored (a scan to the function's end): quadratic. Here each function's declarations and uses are
  /// indexed in one pass, and each local's stores are summed from its last use backwards, once.
  final class ListDataLocals {
    /// Per function scope, each local's first `let`/`var` token.
    private var declarations: [Int: [String: Int]] = [:]
    /// Per function scope, the non-member identifiers by name, in order.
    private var uses: [Int: [String: [Int]]] = [:]
    /// Per function scope and local: its uses, and for each the first (in sorted order) list-data name
    /// that it or a later use is stored into.
    private var followed: [Int: [String: (uses: [Int], store: [String?])]] = [:]

    /// Whether `name` is a local of the function (`var loaded: [UIImage] = []`) declared before `index`.
    func declaresLocally(_ name: String, in file: SourceFile, function: Int, before index: Int) -> Bool {
      if declarations[function] == nil {
        var first: [String: Int] = [:]
        for token in file.body(of: function)
        where (file.word(token) == .var || file.word(token) == .let) && file.kind(token + 1) == .identifier {
          let text = file.text(token + 1)
          if first[text] == nil { first[text] = token }
        }
        declarations[function] = first
      }
      return declarations[function]?[name].map { $0 < index } ?? false
    }

    /// The first (in sorted order) list-data name that a use of the local `name` after `index` is stored
    /// into.
    func store(
      of name: String, after index: Int, in file: SourceFile, function: Int, project: ProjectFacts
    ) -> String? {
      if followed[function]?[name] == nil {
        let body = file.body(of: function)
        if uses[function] == nil {
          var table: [String: [Int]] = [:]
          for token in body where file.kind(token) == .identifier && !file.isMember(token) {
            table[file.text(token), default: []].append(token)
          }
          uses[function] = table
        }
        let list = uses[function]?[name] ?? []
        var store = [String?](repeating: nil, count: list.count + 1)
        for position in list.indices.reversed() {
          store[position] = FullDecodeThumbnailRule.first(
            listData: FullDecodeThumbnailRule.sinks(of: list[position], in: file, body: body),
            project: project, before: store[position + 1])
        }
        followed[function, default: [:]][name] = (list, store)
      }
      guard let (list, store) = followed[function]?[name] else { return nil }
      // The first use after `index`, by binary search.
      return store[list.partitioningIndex { $0 > index }]
    }
  }

  /// The first, in sorted order, of `current` and the names in `names` that list or grid cells draw.
  static func first(listData names: [String], project: ProjectFacts, before current: String?) -> String? {
    var best = current
    for name in names where project.listDataNames.contains(name) && best.map({ name < $0 }) ?? true {
      best = name
    }
    return best
  }

  /// The finding for the decode at `index` when its image is stored into data that list or grid cells
  /// draw, directly or through one local collection of the same function (`loaded.append(image)` …
  /// `photos = loaded`).
  func decodedIntoListData(
    _ file: SourceFile, _ index: Int, function: Int, project: ProjectFacts, locals: ListDataLocals
  ) -> Finding? {
    guard !project.listDataNames.isEmpty, function > 0 else { return nil }
    let body = file.body(of: function)
    var store: String?
    for sink in Self.sinks(of: index, in: file, body: body) {
      if locals.declaresLocally(sink, in: file, function: function, before: index) {
        // A local collection: follow it once, to the property it is stored into.
        let followed = locals.store(of: sink, after: index, in: file, function: function, project: project)
        store = Self.first(listData: followed.map { [$0] } ?? [], project: project, before: store)
      } else {
        store = Self.first(listData: [sink], project: project, before: store)
      }
    }
    guard let store else { return nil }
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
}
