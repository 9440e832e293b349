/// One Swift file, lexed and structured, with the questions rules ask of tokens.
final class SourceFile: Sendable {
  /// Path relative to the audited folder, with `/` separators.
  let path: String
  let source: LexedSource
  let syntax: SyntaxTree
  /// Token ranges under `#if` branches that no app build compiles (see ``CompilationConditions``).
  let inactive: [Range<Int>]

  init(path: String, bytes: [UInt8], conditions: CompilationConditions = CompilationConditions()) {
    self.path = path
    let source = Lexer.lex(bytes)
    self.source = source
    syntax = SyntaxTree(source)
    inactive = conditions.inactiveRanges(source.tokens) { source.text($0) }
  }

  /// Whether token `index` is compiled by some app build (not under an `#if` branch that is certainly off).
  func isActive(_ index: Int) -> Bool {
    guard !inactive.isEmpty else { return true }
    var low = 0
    var high = inactive.count
    while low < high {
      let middle = (low + high) / 2
      if inactive[middle].upperBound <= index { low = middle + 1 } else { high = middle }
    }
    return low == inactive.count || !inactive[low].contains(index)
  }

  /// Whether line `line` (1-based) lies wholly inside code no app build compiles.
  func isInactive(line: Int) -> Bool {
    guard !inactive.isEmpty else { return false }
    for range in inactive where !range.isEmpty {
      let first = source.line(ofToken: range.lowerBound)
      let last = range.upperBound < count ? source.line(ofToken: range.upperBound) - 1 : Int.max
      if line >= first, line <= last { return true }
    }
    return false
  }

  var tokens: [Token] { source.tokens }
  var count: Int { source.tokens.count }

  func word(_ index: Int) -> Word {
    index >= 0 && index < source.tokens.count ? source.tokens[index].word : .none
  }

  func kind(_ index: Int) -> Token.Kind? {
    index >= 0 && index < source.tokens.count ? source.tokens[index].kind : nil
  }

  func match(_ index: Int) -> Int? {
    let partner = syntax.matches[index]
    return partner >= 0 ? Int(partner) : nil
  }

  func text(_ index: Int) -> String { source.text(index) }

  /// Whether token `index` is `word` reached as a member (`x.word`), not declared or called bare.
  func isMember(_ index: Int) -> Bool { kind(index - 1) == .dot }

  /// `.word` used as an implicit member expression or enum case (`.readWrite`, `.limited`).
  func isDotted(_ index: Int, _ candidate: Word) -> Bool {
    word(index) == candidate && kind(index - 1) == .dot
  }

  // MARK: Expressions

  /// The first token of the postfix expression that ends at `index` (`PHPhotoLibrary.shared().register`
  /// ends at `register` and starts at `PHPhotoLibrary`).
  func postfixStart(endingAt index: Int) -> Int {
    postfixStart(endingAt: index, notBefore: 0) ?? 0
  }

  /// ``postfixStart(endingAt:)`` if it is at `floor` or after, else nil: a walk of at most
  /// `index - floor` tokens, for callers that look at every member of a chain thousands long.
  func postfixStart(endingAt index: Int, notBefore floor: Int) -> Int? {
    var start = index
    while true {
      var candidate = start - 1
      // `a?.b`, `a!.b`: skip the optional-chaining operator before the dot.
      guard kind(candidate) == .dot else { return start }
      candidate -= 1
      if kind(candidate) == .op, word(candidate) == .opQuestion || word(candidate) == .opBang {
        candidate -= 1
      }
      if let partnerKind = kind(candidate), partnerKind == .rightParen || partnerKind == .rightBracket,
        let open = match(candidate)
      {
        candidate = kind(open - 1) == .identifier ? open - 1 : open
      }
      guard let candidateKind = kind(candidate),
        candidateKind == .identifier || candidateKind == .leftParen || candidateKind == .leftBracket
      else { return start }
      if candidate < floor { return nil }
      start = candidate
    }
  }

  /// Whether any token in `range` is one of `words`.
  func contains(_ words: Set<Word>, in range: Range<Int>) -> Bool {
    let clamped = range.clamped(to: 0..<count)
    for index in clamped where words.contains(source.tokens[index].word) { return true }
    return false
  }

  func first(_ words: Set<Word>, in range: Range<Int>) -> Int? {
    range.clamped(to: 0..<count).first { words.contains(source.tokens[$0].word) }
  }

  /// Whether token `index` lies in the parentheses of `#selector(…)`: it names a method an action runs,
  /// it does not call it.
  func isSelectorReference(_ index: Int) -> Bool {
    guard let paren = enclosingParen(of: index) else { return false }
    return kind(paren - 1) == .pound && text(paren - 1) == "#selector"
  }

  /// Whether a token in `range` is one of a few `words`, written as a literal (`[.async]`): compared one
  /// by one, without building and hashing into a `Set` at each call.
  func contains(_ words: [Word], in range: Range<Int>) -> Bool {
    let clamped = range.clamped(to: 0..<count)
    for index in clamped where words.contains(source.tokens[index].word) { return true }
    return false
  }

  func first(_ words: [Word], in range: Range<Int>) -> Int? {
    range.clamped(to: 0..<count).first { words.contains(source.tokens[$0].word) }
  }

  /// Whether the statement begun at `index` continues onto the token `next` on a new line.
  func continuesStatement(at next: Int) -> Bool {
    switch kind(next - 1) {
    case .op:
      // A postfix `?` or `!` (`var clip: AVAsset?`, `label.text!`) ends its operand, not the line's
      // statement; a binary or ternary operator (`a ?`, `+`) goes on to the next line.
      let last = next - 1
      let isPostfix =
        (word(last) == .opQuestion || word(last) == .opBang) && last > 0
        && source.tokens[last].start == source.tokens[last - 1].end
      return !isPostfix
    case .comma, .colon, .dot, .leftParen, .leftBracket: return true
    default: break
    }
    switch kind(next) {
    case .op, .dot: return true
    default: return false
    }
  }

  /// The tokens of the expression statement starting at `index`, up to the newline, `;` or closing
  /// bracket that ends it; bracketed groups (arguments, trailing closures) are included whole.
  func statement(from index: Int) -> Range<Int> {
    var cursor = index + 1
    while cursor < count {
      let token = source.tokens[cursor]
      if token.isClosing || token.kind == .semicolon { break }
      if token.startsLine, !continuesStatement(at: cursor) { break }
      if token.isOpening {
        guard let close = match(cursor) else { break }
        cursor = close + 1
        continue
      }
      cursor += 1
    }
    return index..<cursor
  }

  /// The `(` of the call argument list directly enclosing `index`, if `index` is inside one (not inside
  /// a `{` or `[` within it). One look in ``SyntaxTree/enclosingOpen``.
  func enclosingParen(of index: Int) -> Int? {
    guard index > 0, index <= count else { return nil }
    // The bracket open just before `index`: recorded at `index`, or after the last token at the end.
    let open: Int
    if index < count {
      open = Int(syntax.enclosingOpen[index])
    } else if tokens[count - 1].isOpening {
      open = count - 1
    } else if tokens[count - 1].isClosing, let opener = match(count - 1) {
      open = Int(syntax.enclosingOpen[opener])
    } else {
      open = Int(syntax.enclosingOpen[count - 1])
    }
    guard open >= 0, kind(open) == .leftParen else { return nil }
    return open
  }

  /// The index of the `,` or `)` that ends the call argument starting at `start`.
  func endOfArgument(from start: Int, close: Int) -> Int {
    var cursor = start
    while cursor < close, kind(cursor) != .comma {
      if source.tokens[cursor].isOpening, let partner = match(cursor) {
        cursor = partner + 1
      } else {
        cursor += 1
      }
    }
    return min(cursor, close)
  }

  /// The argument label right before `index` in a call (`for` in `requestAuthorization(for: .readWrite)`).
  func label(before index: Int) -> Word? {
    kind(index - 1) == .colon && kind(index - 2) == .identifier ? word(index - 2) : nil
  }

  // MARK: Scopes

  func scope(_ index: Int) -> Scope { syntax.scopes[index] }

  /// The scope whose `{` is token `brace`. Scopes are created in token order, so their `open` indices
  /// ascend and a binary search finds it.
  func scopeOpened(at brace: Int) -> Int? {
    let scopes = syntax.scopes
    var low = 1
    var high = scopes.count - 1
    while low <= high {
      let middle = (low + high) / 2
      if scopes[middle].open == brace { return middle }
      if scopes[middle].open < brace { low = middle + 1 } else { high = middle - 1 }
    }
    return nil
  }

  /// How many tokens after a parameter list ``functionDeclaring(parameter:)`` looks for the body's `{`.
  static let signatureTailWindow = 256

  /// The function scope whose parameter list contains `index` (`status` in
  /// `func show(status: PHAuthorizationStatus) {`), if any.
  func functionDeclaring(parameter index: Int) -> Int? {
    guard let paren = enclosingParen(of: index) else { return nil }
    let head = word(paren - 1) == .initKeyword ? paren - 1 : paren - 2
    guard word(head) == .func || word(head) == .initKeyword, let close = match(paren) else { return nil }
    // Its body's `{` is the first brace after the parameters (past `throws`, `->` and a `where`), found by
    // a bounded look and a binary search rather than a walk over every scope of the file.
    guard
      let brace = ((close + 1)..<min(count, close + 1 + Self.signatureTailWindow)).first(where: {
        kind($0) == .leftBrace
      }),
      let scope = scopeOpened(at: brace), syntax.scopes[scope].kind == .function,
      syntax.scopes[scope].head == head
    else { return nil }
    return scope
  }

  /// The range of tokens a scope covers, braces excluded.
  func body(of scope: Int) -> Range<Int> {
    let scope = syntax.scopes[scope]
    return (scope.open + 1)..<max(scope.open + 1, scope.close)
  }

  /// The names the body of function scope `function` returns (`return picker`, `return thumbnail`): one
  /// pass over the body.
  func returnedNames(inBodyOf function: Int) -> Set<String> {
    var names: Set<String> = []
    for token in body(of: function) where word(token) == .return && kind(token + 1) == .identifier {
      names.insert(text(token + 1))
    }
    return names
  }

  /// The innermost function, accessor or file scope around `index` (closures and blocks are looked
  /// through, since they run as part of that function).
  func enclosingFunction(of index: Int) -> Int {
    syntax.enclosing(index, [.function, .accessor, .file]) ?? 0
  }

  /// The innermost type scope around `index`.
  func enclosingType(of index: Int) -> Int? { syntax.enclosing(index, [.type]) }

  /// Whether the declaration starting at `head` is `public` or `open` (its attributes and modifiers are read
  /// back from `head`): API, whose callers may be outside the project.
  func isPublicOrOpen(declarationAt head: Int) -> Bool {
    var cursor = head - 1
    while cursor >= 0, kind(cursor) == .attribute || word(cursor).isModifier {
      if word(cursor) == .public || word(cursor) == .open { return true }
      cursor -= 1
    }
    return false
  }

  /// The declared name of a scope (`CameraViewController`), if it has one.
  func name(of scope: Int) -> String? {
    let name = syntax.scopes[scope].name
    return name >= 0 && name < count ? text(name) : nil
  }

  /// The type the `let`/`var` at `keyword` is made of by its initializer: `Store` in `let store = Store()` or
  /// `var store: Store = Store(…)` (an annotation of one token); nil for a declaration initialized otherwise.
  func initializerType(ofDeclarationAt keyword: Int) -> Int? {
    guard word(keyword) == .let || word(keyword) == .var, kind(keyword + 1) == .identifier else { return nil }
    var value = keyword + 2
    if kind(value) == .colon { value += 2 }
    guard word(value) == .opAssign, kind(value + 1) == .identifier, kind(value + 2) == .leftParen else {
      return nil
    }
    return value + 1
  }

  /// Words written in a type's inheritance clause (`: UIViewController, PHPhotoLibraryChangeObserver`).
  func inheritance(of scope: Int) -> [Word] {
    syntax.scopes[scope].inheritance.clamped(to: 0..<count).map { word($0) }.filter { $0 != .none }
  }

  /// The token that starts at 1-based `line` and `column` (in Unicode scalars, as findings count them),
  /// or the last token before that place; -1 when the place is before every token.
  func token(atLine line: Int, column: Int) -> Int {
    guard line >= 1, line <= source.lineStarts.count else { return -1 }
    var offset = Int(source.lineStarts[line - 1])
    var scalars = 1
    while scalars < column, offset < source.bytes.count {
      offset += 1
      while offset < source.bytes.count, source.bytes[offset] & 0xC0 == 0x80 { offset += 1 }
      scalars += 1
    }
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if Int(source.tokens[middle].start) <= offset { low = middle + 1 } else { high = middle }
    }
    return low - 1
  }

  func finding(_ rule: RuleDescriptor, at index: Int, message: String? = nil) -> Finding {
    let (line, column) = source.location(ofByte: source.tokens[index].start)
    return Finding(
      rule: rule.id, severity: rule.severity, file: path, line: line, column: column,
      message: message ?? rule.summary)
  }
}
