/// The structure the rules need, recovered from tokens in one pass: matching brackets, and the tree of
/// ``Scope``s (types, functions, closures, blocks) with what each one is attached to.
///
/// This is not a parser. It relies on Swift's declaration keywords and on newlines ending statements, and
/// it errs towards "closure" when unsure, which rules treat as "keep looking outwards".
struct SyntaxTree: Sendable {
  /// For each bracket token, the index of its partner; -1 for other tokens and unbalanced brackets.
  let matches: [Int32]
  let scopes: [Scope]
  /// The innermost scope containing each token (a `{` or `}` belongs to the scope outside it).
  let scopeOfToken: [Int32]
  /// For each token, the innermost bracket still open before it (a closing bracket's own opener); -1 at
  /// the top level. Recorded in the same pass, so asking which parenthesis encloses a token costs one
  /// look, however long the argument list around it.
  let enclosingOpen: [Int32]
  /// For each scope and each ``Scope/Kind``, the innermost scope of that kind around it (itself
  /// included), or -1: row `scope`, column `kind.rawValue`.
  private let nearestOfKind: [Int32]

  init(_ source: LexedSource) {
    var builder = Builder(source.tokens, source.bytes)
    builder.build()
    matches = builder.matches
    scopes = builder.scopes
    scopeOfToken = builder.scopeOfToken
    enclosingOpen = builder.enclosingOpen
    // A parent is always recorded before its children, so one pass in order fills every kind's column.
    let kinds = Scope.Kind.allCases.count
    var nearest = [Int32](repeating: -1, count: kinds * scopes.count)
    for (index, scope) in scopes.enumerated() {
      if scope.parent >= 0 {
        for kind in 0..<kinds { nearest[index * kinds + kind] = nearest[scope.parent * kinds + kind] }
      }
      nearest[index * kinds + Int(scope.kind.rawValue)] = Int32(index)
    }
    nearestOfKind = nearest
  }

  func scope(of token: Int) -> Int { Int(scopeOfToken[token]) }

  /// The scopes enclosing `token`, innermost first, ending with the file.
  func enclosingScopes(of token: Int) -> UnfoldSequence<Int, (Int?, Bool)> {
    sequence(first: scope(of: token)) { index in
      let parent = scopes[index].parent
      return parent >= 0 ? parent : nil
    }
  }

  /// The innermost enclosing scope of one of `kinds`, or nil. Ancestors come before their descendants
  /// in ``scopes``, so the innermost is the latest of each kind's nearest: a few looks, however deep the
  /// nesting.
  func enclosing(_ token: Int, _ kinds: Scope.Kinds) -> Int? {
    enclosing(scope: scope(of: token), kinds)
  }

  /// The innermost scope of one of `kinds` around scope `scope`, itself included: one look per kind, so
  /// functions nested thousands deep each find their type without walking every scope between.
  func enclosing(scope: Int, _ kinds: Scope.Kinds) -> Int? {
    let stride = Scope.Kind.allCases.count
    var innermost: Int32 = -1
    for kind in Scope.Kind.allCases where kinds.contains(Scope.Kinds(kind)) {
      innermost = max(innermost, nearestOfKind[scope * stride + Int(kind.rawValue)])
    }
    return innermost >= 0 ? Int(innermost) : nil
  }
}

extension SyntaxTree {
  private struct Pending {
    var kind: Scope.Kind
    var head: Int
    var name: Int
    var nesting: Int
    var isProperty = false
    var isMainActor = false
    var isNonisolated = false
    var isOtherActor = false
    var angle = 0
    var inheritanceStart = -1
    var inheritanceEnd = -1
  }

  private struct Builder {
    let tokens: [Token]
    let bytes: [UInt8]
    var matches: [Int32]
    var scopes: [Scope]
    var scopeOfToken: [Int32]
    var enclosingOpen: [Int32]
    private var brackets: [(index: Int, scope: Int)] = []
    private var scopeStack = [0]
    private var pending: Pending?
    /// A stored property whose initial value (`= []`) ended its ``pending`` declaration: a `{` that
    /// opens `didSet`/`willSet` after the value still belongs to it (`var items: [URL] = [] { didSet … }`).
    private var initialized: Pending?
    private var closures: [Int] = []

    init(_ tokens: [Token], _ bytes: [UInt8]) {
      self.tokens = tokens
      self.bytes = bytes
      matches = Array(repeating: -1, count: tokens.count)
      scopeOfToken = Array(repeating: 0, count: tokens.count)
      enclosingOpen = Array(repeating: -1, count: tokens.count)
      scopes = [Scope(kind: .file, parent: -1, open: -1, close: tokens.count, head: -1)]
    }

    mutating func build() {
      for index in tokens.indices { visit(index) }
      for closure in closures { scopes[closure].parameters = closureParameters(scopes[closure].open) }
    }

    private func word(_ index: Int) -> Word {
      index >= 0 && index < tokens.count ? tokens[index].word : .none
    }

    private func kind(_ index: Int) -> Token.Kind? {
      index >= 0 && index < tokens.count ? tokens[index].kind : nil
    }

    private mutating func visit(_ index: Int) {
      let token = tokens[index]
      scopeOfToken[index] = Int32(scopeStack.last ?? 0)
      enclosingOpen[index] = brackets.last.map { Int32($0.index) } ?? -1
      let nesting = brackets.count
      if let current = pending, current.nesting == nesting, token.startsLine, index > current.head,
        !continuesStatement(index)
      {
        pending = nil
      }
      if let current = initialized, current.nesting == nesting, token.startsLine, !continuesStatement(index) {
        initialized = nil
      }
      switch token.kind {
      case .identifier: identifier(index, nesting: nesting)
      case .op:
        guard var current = pending, current.nesting == nesting else { break }
        if current.isProperty, token.word == .opAssign {
          initialized = current
          pending = nil
        } else if current.kind == .type {
          for offset in token.start..<token.end {
            let byte = tokenByte(offset)
            if byte == UInt8(ascii: "<") { current.angle += 1 }
            if byte == UInt8(ascii: ">") { current.angle -= 1 }
          }
          pending = current
        }
      case .colon:
        if var current = pending, current.kind == .type, current.nesting == nesting, current.angle == 0,
          current.inheritanceStart < 0
        {
          current.inheritanceStart = index + 1
          pending = current
        }
      case .semicolon:
        if pending?.nesting == nesting { pending = nil }
        if initialized?.nesting == nesting { initialized = nil }
      case .leftParen, .leftBracket:
        brackets.append((index, -1))
      case .leftBrace:
        openBrace(index, nesting: nesting)
      case .rightParen, .rightBracket, .rightBrace:
        closeBracket(index)
      default: break
      }
    }

    /// Generic angle brackets are lexed as operator characters, so counting them needs the bytes.
    private func tokenByte(_ offset: UInt32) -> UInt8 { bytes[Int(offset)] }

    private func continuesStatement(_ index: Int) -> Bool {
      // A postfix `?` or `!` (`var image: UIImage?`) ends the line's expression; an infix one would
      // have space before it.
      let previous = tokens[index - 1]
      if previous.kind == .op, previous.word == .opQuestion || previous.word == .opBang, index >= 2,
        tokens[index - 2].end == previous.start
      {
        return false
      }
      switch tokens[index - 1].kind {
      case .op, .comma, .colon, .dot, .leftParen, .leftBracket: return true
      default: break
      }
      switch tokens[index].kind {
      case .op, .dot, .leftBrace, .colon, .comma, .rightParen, .rightBracket: return true
      default: break
      }
      switch tokens[index].word {
      case .where, .throws, .rethrows, .async, .else: return true
      default: return false
      }
    }

    private mutating func identifier(_ index: Int, nesting: Int) {
      let token = tokens[index]
      let afterDot = kind(index - 1) == .dot
      switch token.word {
      case .func, .initKeyword, .deinit, .subscript:
        guard !afterDot, kind(index + 1) != .colon else { return }
        var declaration = Pending(
          kind: .function, head: index, name: token.word == .func ? index + 1 : index, nesting: nesting)
        attributes(before: index, into: &declaration)
        pending = declaration
      case .class, .struct, .enum, .actor, .extension, .protocol:
        guard !afterDot, kind(index + 1) == .identifier else { return }
        let next = word(index + 1)
        if next.isModifier || next == .func || next == .var || next == .let || next == .subscript
          || next == .initKeyword || next == .typealias
        {
          return  // `class func`, `class var`: a modifier, not a type
        }
        var name = index + 1
        while kind(name + 1) == .dot, kind(name + 2) == .identifier { name += 2 }
        var declaration = Pending(kind: .type, head: index, name: name, nesting: nesting)
        attributes(before: index, into: &declaration)
        pending = declaration
      case .var, .let:
        guard !afterDot, pending == nil || pending?.nesting != nesting else { return }
        var declaration = Pending(kind: .function, head: index, name: index + 1, nesting: nesting)
        declaration.isProperty = true
        attributes(before: index, into: &declaration)
        pending = declaration
      case .get, .set, .willSet, .didSet:
        guard !afterDot, kind(index + 1) == .leftBrace || kind(index + 1) == .leftParen else { return }
        let before = kind(index - 1)
        guard token.startsLine || before == .leftBrace || before == .rightBrace || before == .semicolon
        else { return }
        pending = Pending(kind: .accessor, head: index, name: index, nesting: nesting)
      case .where:
        if var current = pending, current.kind == .type, current.nesting == nesting {
          current.inheritanceEnd = index
          pending = current
        }
      default:
        // `for:` is an argument label, and inside a declaration's parentheses (`func f(for x: T)`)
        // these words are labels too.
        guard token.word.opensBlock, !afterDot, kind(index + 1) != .colon else { return }
        if let current = pending, current.nesting < nesting { return }
        if token.word == .else, pending?.kind == .block, pending?.nesting == nesting { return }
        pending = Pending(kind: .block, head: index, name: -1, nesting: nesting)
      }
    }

    /// Reads `@MainActor`, `nonisolated`, `@concurrent` or another global actor (an attribute whose name ends
    /// in `Actor`) and friends written before a declaration keyword.
    private func attributes(before keyword: Int, into declaration: inout Pending) {
      var index = keyword - 1
      while index >= 0 {
        let token = tokens[index]
        if token.kind == .identifier, token.word.isModifier {
          if token.word == .nonisolated { declaration.isNonisolated = true }
          index -= 1
        } else if token.kind == .attribute {
          if token.word == .MainActor {
            declaration.isMainActor = true
          } else {
            let text = bytes[Int(token.start)..<Int(token.end)]
            if text.elementsEqual("@concurrent".utf8) || text.suffix(5).elementsEqual("Actor".utf8) {
              declaration.isOtherActor = true
            }
          }
          index -= 1
        } else if token.kind == .rightParen, matches[index] > 0,
          tokens[Int(matches[index]) - 1].kind == .attribute
        {
          index = Int(matches[index]) - 1
        } else {
          break
        }
      }
    }

    private mutating func openBrace(_ index: Int, nesting: Int) {
      let parent = scopeStack.last ?? 0
      var scope: Scope
      if pending == nil, let current = initialized, current.nesting == nesting,
        word(index + 1) == .didSet || word(index + 1) == .willSet
      {
        pending = current
      }
      if initialized?.nesting == nesting { initialized = nil }
      if let current = pending, current.nesting == nesting {
        scope = Scope(
          kind: current.kind, parent: parent, open: index, close: tokens.count, head: current.head)
        scope.name = current.name
        scope.isMainActor = current.isMainActor
        scope.isNonisolated = current.isNonisolated
        scope.isOtherActor = current.isOtherActor
        if current.kind == .type, current.inheritanceStart >= 0 {
          let end = current.inheritanceEnd >= 0 ? current.inheritanceEnd : index
          scope.inheritance = current.inheritanceStart..<max(current.inheritanceStart, end)
        }
        pending = nil
      } else {
        scope = Scope(kind: .closure, parent: parent, open: index, close: tokens.count, head: index - 1)
        attach(&scope, at: index)
        closures.append(scopes.count)
      }
      scopes.append(scope)
      brackets.append((index, scopes.count - 1))
      scopeStack.append(scopes.count - 1)
    }

    private mutating func closeBracket(_ index: Int) {
      guard let (open, scope) = brackets.popLast() else { return }
      matches[open] = Int32(index)
      matches[index] = Int32(open)
      if scope >= 0 {
        scopes[scope].close = index
        if let position = scopeStack.lastIndex(of: scope) { scopeStack.removeSubrange(position...) }
      }
      if let current = pending, current.nesting > brackets.count { pending = nil }
    }

    /// Works out what a closure is passed to: its callee's name and, for a labeled argument, the label.
    private func attach(_ scope: inout Scope, at brace: Int) {
      let previous = brace - 1
      guard previous >= 0 else { return }
      switch tokens[previous].kind {
      case .rightParen:
        scope.callee = callee(beforeParen: Int(matches[previous]))
      case .identifier:
        scope.callee = previous
      case .op:
        scope.callee = callee(beforeParen: brace)
      case .colon:
        if kind(previous - 1) == .identifier { scope.label = previous - 1 }
        if let top = brackets.last, tokens[top.index].kind == .leftParen {
          scope.callee = callee(beforeParen: top.index)
        }
      case .leftParen, .comma:
        if let top = brackets.last, tokens[top.index].kind == .leftParen {
          scope.callee = callee(beforeParen: top.index)
        }
      default: break
      }
      if kind(brace + 1) == .attribute, word(brace + 1) == .MainActor { scope.isMainActor = true }
    }

    /// The most tokens ``callee(beforeParen:)`` walks back over generic arguments. Generic arguments hold
    /// no braces or semicolons and are never this long; a `>` that is a comparison (`a > (b) { 0 }`) would
    /// otherwise send the walk back to the file's start once per closure, a quadratic file.
    static let maxGenericArgumentTokens = 256

    /// The name called by the `(` (or trailing `{`) at `paren`, skipping generic arguments
    /// (`CellRegistration<Cell, Item>(…)`).
    private func callee(beforeParen paren: Int) -> Int {
      var index = paren - 1
      guard index >= 0 else { return -1 }
      if tokens[index].kind == .op {
        // Walk back over `<…>`: count angle characters in op tokens until balanced; a brace, a semicolon
        // or a walk too long ends it: no generic arguments there.
        var depth = 0
        let floor = paren - Self.maxGenericArgumentTokens
        while index >= 0 {
          let kind = tokens[index].kind
          if index < floor || kind == .leftBrace || kind == .rightBrace || kind == .semicolon { return -1 }
          if tokens[index].kind == .op {
            for offset in tokens[index].start..<tokens[index].end {
              let byte = tokenByte(offset)
              if byte == UInt8(ascii: ">") { depth += 1 }
              if byte == UInt8(ascii: "<") { depth -= 1 }
            }
            if depth <= 0 { break }
          }
          index -= 1
        }
        index -= 1
      }
      return index >= 0 && tokens[index].kind == .identifier ? index : -1
    }

    /// `{ url, error in`, `{ (url, error) in`, `{ [weak self] result in`: the parameter name tokens.
    private func closureParameters(_ brace: Int) -> [Int] {
      var index = brace + 1
      if kind(index) == .attribute { index += 1 }
      if kind(index) == .leftBracket, matches[index] > 0 { index = Int(matches[index]) + 1 }
      var names: [Int] = []
      if kind(index) == .leftParen, matches[index] > 0 {
        let close = Int(matches[index])
        var expectName = true
        var cursor = index + 1
        while cursor < close {
          let token = tokens[cursor]
          if token.isOpening, matches[cursor] > 0 {
            cursor = Int(matches[cursor]) + 1
            continue
          }
          if expectName, token.kind == .identifier { names.append(cursor) }
          expectName = token.kind == .comma
          cursor += 1
        }
        index = close + 1
      } else {
        while kind(index) == .identifier, word(index) != .in {
          names.append(index)
          index += 1
          guard kind(index) == .comma else { break }
          index += 1
        }
      }
      // Skip `throws`, `async`, `-> Type` up to `in`; no `in` means these were not parameters.
      var steps = 0
      while index < tokens.count, steps < 24 {
        if word(index) == .in { return names }
        if tokens[index].kind == .leftBrace || tokens[index].kind == .rightBrace { break }
        index += 1
        steps += 1
      }
      return []
    }
  }
}
