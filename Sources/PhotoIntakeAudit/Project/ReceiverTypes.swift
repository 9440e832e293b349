/// The type a plain name has where its own file says so: `photo: Photo`, `let frame = frames[row]` with
/// `var frames: [Frame]`, `for entry in entries`, or the element of a list a `ForEach`/`List` closure
/// takes (`List(missions) { mission in … }` with `let missions: [Mission]`).
///
/// A member read found in a list context (`mission.image`) otherwise reaches every declaration of that
/// property by name: `Mission.image`, a `String`, would count as a cell calling `Photo.image`, which decodes.
/// So the rules ask this for the receiver's type and let a read reach only a declaration of that type
/// (or one it inherits from, or that inherits from it).
///
/// Deliberately conservative: a name declared anywhere in the file in a way it cannot read (`if let`, a
/// generic or dotted type, an optional chain, a closure parameter of anything but a list, two different
/// types) has no known type, and a read of it reaches every declaration, as before.
struct ReceiverTypes {
  private enum Declared: Equatable {
    case type(String)
    case array(of: String)
    case element(of: String)
    case unknown
  }

  private var declared: [String: [Declared]] = [:]

  /// Reads every declaration of `file` once.
  init(_ file: SourceFile) {
    for index in 0..<file.count where Self.isPlainName(file, index) {
      if let declaration = Self.declaration(file, index) {
        declared[file.text(index), default: []].append(declaration)
      }
    }
    // Parameters, walked once per function (`func show(_ photo: Photo, for entry: Entry)`).
    for scope in file.syntax.scopes
    where scope.kind == .function && (file.word(scope.head) == .func || file.word(scope.head) == .initKeyword)
    {
      guard
        let paren = (scope.head..<max(scope.head, scope.open)).first(where: { file.kind($0) == .leftParen }),
        let close = file.match(paren)
      else { continue }
      var start = paren + 1
      while start < close {
        let name = file.kind(start + 1) == .colon ? start : start + 1
        if file.kind(name) == .identifier, file.kind(name + 1) == .colon {
          declared[file.text(name), default: []].append(Self.annotation(file, at: name + 2))
        }
        start = file.endOfArgument(from: start, close: close) + 1
      }
    }
    for scope in file.syntax.scopes where scope.kind == .closure && !scope.parameters.isEmpty {
      let element = scope.parameters.count == 1 ? Self.listElement(file, scope) : nil
      for parameter in scope.parameters where file.kind(parameter) == .identifier {
        declared[file.text(parameter), default: []].append(element.map { .element(of: $0) } ?? .unknown)
      }
    }
  }

  /// Answers already given: a list may read the same receiver many times.
  private var answers: [String: String?] = [:]

  /// The type `name` has in this file, if every declaration of it says the same plainly.
  mutating func type(of name: String) -> String? {
    if let known = answers[name] { return known }
    let answer = resolve(name, depth: 0)
    answers[name] = answer
    return answer
  }

  /// A name declared more often than this is not read: each read stays linear in the file.
  private static let declarationsRead = 16

  private func resolve(_ name: String, depth: Int) -> String? {
    guard depth < 4, let entries = declared[name], !entries.isEmpty, entries.count <= Self.declarationsRead
    else { return nil }
    var found: String?
    for entry in entries {
      let type: String?
      switch entry {
      case .type(let name): type = name
      case .element(let collection): type = element(of: collection, depth: depth + 1)
      case .array, .unknown: type = nil
      }
      guard let type, found == nil || found == type else { return nil }
      found = type
    }
    return found
  }

  /// The element type of a collection every declaration of which is an array of one type.
  private func element(of collection: String, depth: Int) -> String? {
    guard depth < 4, let entries = declared[collection], !entries.isEmpty,
      entries.count <= Self.declarationsRead
    else { return nil }
    var found: String?
    for entry in entries {
      guard case .array(let element) = entry, found == nil || found == element else { return nil }
      found = element
    }
    return found
  }

  /// An identifier that is not a keyword and not a member (`x` in `x.image`, not `image`).
  private static func isPlainName(_ file: SourceFile, _ index: Int) -> Bool {
    file.kind(index) == .identifier && !file.isMember(index) && !file.word(index).isKeywordLike
  }

  /// What the declaration at `index` says, or `nil` when `index` is not a declared name.
  private static func declaration(_ file: SourceFile, _ index: Int) -> Declared? {
    let before = file.word(index - 1)
    let isBinding = before == .let || before == .var
    if isBinding, file.kind(index + 1) == .colon {
      // `let photos: [Photo]`, `var photo: Photo?` (parameters are read per function).
      return annotation(file, at: index + 2)
    }
    if isBinding, file.word(index + 1) == .opAssign {
      return initialValue(file, at: index + 2)
    }
    if before == .for, file.word(index + 1) == .in {
      // `for entry in entries {`
      let collection = index + 2
      guard isPlainName(file, collection), file.kind(collection + 1) == .leftBrace else { return .unknown }
      return .element(of: file.text(collection))
    }
    return nil
  }

  /// `Photo`, `Photo?`, `[Photo]`; anything else (`Set<Photo>`, `Module.Photo`, a tuple) is unknown.
  private static func annotation(_ file: SourceFile, at start: Int) -> Declared {
    if file.kind(start) == .leftBracket, file.kind(start + 1) == .identifier,
      file.kind(start + 2) == .rightBracket
    {
      return .array(of: file.text(start + 1))
    }
    guard file.kind(start) == .identifier, isTypeName(file.text(start)),
      file.kind(start + 1) != .dot, !(file.kind(start + 1) == .op && file.text(start + 1) == "<")
    else { return .unknown }
    return .type(file.text(start))
  }

  /// `frames[row]`, `[Photo]()`, `Photo(…)`; anything else is unknown.
  private static func initialValue(_ file: SourceFile, at start: Int) -> Declared {
    if isPlainName(file, start), file.kind(start + 1) == .leftBracket, !isTypeName(file.text(start)) {
      return .element(of: file.text(start))
    }
    if file.kind(start) == .leftBracket, file.kind(start + 1) == .identifier,
      file.kind(start + 2) == .rightBracket, file.kind(start + 3) == .leftParen
    {
      return .array(of: file.text(start + 1))
    }
    if isPlainName(file, start), isTypeName(file.text(start)), file.kind(start + 1) == .leftParen {
      return .type(file.text(start))
    }
    return .unknown
  }

  /// The list whose elements a `ForEach`/`List` content closure takes: its first argument, a plain name
  /// or `self.name` (`ForEach(photos) { photo in`, `List(self.missions) { mission in`).
  private static func listElement(_ file: SourceFile, _ scope: Scope) -> String? {
    let callee = scope.callee
    guard callee >= 0, file.word(callee) == .ForEach || file.word(callee) == .List,
      file.kind(callee + 1) == .leftParen
    else { return nil }
    var first = callee + 2
    if file.word(first) == .selfKeyword, file.kind(first + 1) == .dot { first += 2 }
    guard file.kind(first) == .identifier, !file.word(first).isKeywordLike,
      file.kind(first + 1) == .rightParen || file.kind(first + 1) == .comma
    else { return nil }
    return file.text(first)
  }

  private static func isTypeName(_ text: String) -> Bool {
    text.first?.isUppercase == true
  }
}

extension Word {
  /// Keywords and modifiers, which are never a variable's name.
  fileprivate var isKeywordLike: Bool {
    number >= Word.func.number && number <= Word.borrowing.number
  }
}
