/// Where the values of a file's names come from, indexed once per file: the initializer of every
/// `let`/`var`, every plain assignment (`name = …`, `self.name = …`), every element added to a
/// collection (`ids.append(…)`, `ids.insert(…, at: 0)`, `ids += […]`), and the names declared as
/// `UserDefaults`/`NSUbiquitousKeyValueStore`. Built in one pass on first use, so that following a value
/// costs a dictionary lookup instead of a walk back through the function (which made a file of many
/// uses quadratic).
final class ValueFlow {
  /// One ``ValueFlow`` per file for the length of one rule's check, so following values into other files
  /// (a parameter's callers) indexes each file once.
  final class Cache {
    private var flows: [String: ValueFlow] = [:]

    func flow(for file: SourceFile) -> ValueFlow {
      if let known = flows[file.path] { return known }
      let flow = ValueFlow(file)
      flows[file.path] = flow
      return flow
    }
  }

  struct Assignment {
    /// The token of the assigned name.
    var target: Int
    /// The assigned expression.
    var value: Range<Int>
    /// Whether it is a declaration (`let name = …`) rather than an assignment.
    var declares: Bool
  }

  private let file: SourceFile
  private var built = false
  private var byName: [String: [Assignment]] = [:]
  private var defaults: Set<String> = []
  private var properties: Set<String> = []

  init(_ file: SourceFile) { self.file = file }

  /// Assignments and declarations with an initializer, by name, in source order.
  var assignments: [String: [Assignment]] {
    build()
    return byName
  }

  /// Names declared with `UserDefaults(…)`, `UserDefaults.standard` or a `UserDefaults` type.
  var defaultsNames: Set<String> {
    build()
    return defaults
  }

  /// The initializer of the local declared as `name` (the token's text) earlier in the same function.
  func local(_ name: Int, before use: Int) -> Range<Int>? {
    build()
    guard let entries = byName[file.text(name)] else { return nil }
    let function = file.enclosingFunction(of: use)
    let body = file.body(of: function)
    // Entries are in source order: find the last one before `use`, then walk back within the function.
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].target < use { low = middle + 1 } else { high = middle }
    }
    var candidate = low - 1
    while candidate >= 0, entries[candidate].target >= body.lowerBound {
      let entry = entries[candidate]
      if entry.declares, entry.target != name, file.enclosingFunction(of: entry.target) == function {
        return entry.value
      }
      candidate -= 1
    }
    return nil
  }

  /// What the name at token `name` may hold at `use`: its local initializer earlier in the same
  /// function or, for a name declared as a property of a type in this file, every value assigned to it
  /// anywhere in the file.
  func values(of name: Int, before use: Int) -> [Range<Int>] {
    if let local = local(name, before: use) {
      // What the function adds to or assigns to the local before `use`
      // (`var ids = defaults.stringArray(forKey: key) ?? []`, then `ids.append(asset.localIdentifier)`).
      let function = file.enclosingFunction(of: use)
      let body = file.body(of: function)
      let later = (byName[file.text(name)] ?? []).lazy.filter {
        !$0.declares && $0.target > local.lowerBound && $0.target < use && body.contains($0.target)
          && self.file.enclosingFunction(of: $0.target) == function
      }
      return [local] + later.prefix(Self.assignmentsFollowed).map(\.value)
    }
    let text = file.text(name)
    guard properties.contains(text) else { return [] }
    // A property set in a great many places is followed through its first few assignments only, which
    // keeps a generated file of thousands of them linear.
    return Array(
      (byName[text] ?? []).lazy.filter { $0.target != name }.prefix(Self.assignmentsFollowed).map(\.value))
  }

  private static let assignmentsFollowed = 16

  /// Whether the name at token `name` is declared as a property of a type in this file, or reached as
  /// one (`self.name`), rather than a local.
  func isProperty(_ name: Int) -> Bool {
    build()
    if file.isMember(name) { return file.word(name - 2) == .selfKeyword }
    let text = file.text(name)
    if properties.contains(text) { return true }
    if byName[text] != nil { return false }  // a local of this file
    // Not a parameter of the function around it: then a property declared in another file.
    let function = file.scope(file.enclosingFunction(of: name))
    guard function.kind == .function, function.head >= 0 else { return true }
    return !(function.head..<function.open).contains {
      file.source.sameText($0, name) && file.kind($0 + 1) == .colon
    }
  }

  private func build() {
    guard !built else { return }
    built = true
    let hasDefaults =
      file.source.words.contains(.UserDefaults) || file.source.words.contains(.NSUbiquitousKeyValueStore)
    for index in 0..<file.count {
      switch file.word(index) {
      case .var, .let:
        guard file.kind(index + 1) == .identifier, !file.isMember(index) else { continue }
        declaration(at: index, defaults: hasDefaults)
      case .opAssign:
        assignment(at: index)
      case .append, .insert:
        addition(at: index)
      case .none
      where file.kind(index) == .op && file.tokens[index].end - file.tokens[index].start == 2
        && file.text(index) == "+=":
        assignment(at: index)
      default: continue
      }
    }
  }

  /// `let name = …`, `var name: T = …`; a tuple or other pattern binding is left alone.
  private func declaration(at keyword: Int, defaults hasDefaults: Bool) {
    let name = file.text(keyword + 1)
    if file.scope(file.syntax.scope(of: keyword)).kind == .type { properties.insert(name) }
    let statement = file.statement(from: keyword)
    if hasDefaults, file.contains([.UserDefaults, .NSUbiquitousKeyValueStore], in: statement) {
      defaults.insert(name)
    }
    // The `=` at the statement's own level: brackets (a type's generic arguments, a closure type) are
    // skipped whole.
    var cursor = keyword + 2
    while cursor < statement.upperBound, file.word(cursor) != .opAssign {
      if file.kind(cursor) == .leftBrace { return }  // computed, or observers without a value
      if file.tokens[cursor].isOpening, let close = file.match(cursor) { cursor = close }
      cursor += 1
    }
    guard cursor < statement.upperBound else { return }
    byName[name, default: []].append(
      Assignment(target: keyword + 1, value: (cursor + 1)..<statement.upperBound, declares: true))
  }

  /// Whether the name at `target`, or `self.` and it, is the first thing in a statement (a line's start, or
  /// after `;`, `{` or a closure's `in`).
  private func beginsStatement(_ target: Int) -> Bool {
    let start = file.isMember(target) ? target - 2 : target
    if file.isMember(target), file.word(start) != .selfKeyword { return false }
    let previous = file.kind(start - 1)
    return file.tokens[start].startsLine || previous == .semicolon || previous == .leftBrace
      || file.word(start - 1) == .in
  }

  /// `name = …` or `self.name = …` as a statement of its own.
  private func assignment(at index: Int) {
    let target = index - 1
    // Only a statement's first tokens: this excludes a declaration's `=` (handled at its keyword),
    // parameter defaults (`name: T = …`), `case a = 1` and labels.
    guard file.kind(target) == .identifier, beginsStatement(target) else { return }
    let value = file.statement(from: index)
    byName[file.text(target), default: []].append(
      Assignment(target: target, value: (index + 1)..<value.upperBound, declares: false))
  }

  /// `name.append(…)`, `name.append(contentsOf: …)`, `name.insert(…, at: …)`, `self.name.append(…)` as a
  /// statement of its own: the arguments are values the collection now holds.
  private func addition(at index: Int) {
    let target = index - 2
    guard file.kind(index - 1) == .dot, file.kind(target) == .identifier, file.kind(index + 1) == .leftParen,
      let close = file.match(index + 1), beginsStatement(target)
    else { return }
    byName[file.text(target), default: []].append(
      Assignment(target: target, value: (index + 2)..<close, declares: false))
  }
}
