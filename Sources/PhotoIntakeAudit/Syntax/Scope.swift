/// A region of code delimited by braces: a type, a function or computed property, a closure, or a
/// control-flow block. The rules ask questions like "which function encloses this call", "is this closure
/// the trailing closure of `DispatchQueue.main.async`" and "does this type inherit `UIViewController`".
struct Scope: Sendable {
  /// A set of ``Kind``s, as bits: asked on almost every token (`enclosing(index, [.function, .accessor])`),
  /// so it allocates nothing.
  struct Kinds: OptionSet, Sendable {
    let rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }
    init(_ kind: Kind) { rawValue = 1 << kind.rawValue }
    static let file = Kinds(.file)
    static let type = Kinds(.type)
    static let function = Kinds(.function)
    static let accessor = Kinds(.accessor)
    static let closure = Kinds(.closure)
    static let block = Kinds(.block)
  }

  enum Kind: UInt8, Sendable, CaseIterable {
    /// The whole file (scope 0).
    case file
    /// `class`, `struct`, `enum`, `actor`, `extension` or `protocol`.
    case type
    /// `func`, `init`, `deinit`, `subscript`, or a computed property (`var body: some View { … }`).
    case function
    /// `get`, `set`, `willSet`, `didSet`.
    case accessor
    case closure
    /// `if`, `guard … else`, `for`, `while`, `repeat`, `do`, `catch`, `defer`, `switch`.
    case block
  }

  var kind: Kind
  var parent: Int
  /// Index of the `{` token (-1 for the file).
  var open: Int
  /// Index of the matching `}` (the token count for the file, or for an unclosed brace).
  var close: Int
  /// The keyword that declared it (`func`, `class`, `if`…), or for a closure the token before its `{`.
  var head: Int
  /// The declared name's token, if any (`extension A.B` names `B`).
  var name: Int = -1
  /// Attributes and modifiers on the declaration that decide where its code runs.
  var isMainActor = false
  var isNonisolated = false
  /// `@concurrent`, or a global actor other than `@MainActor`: isolated away from the main actor.
  var isOtherActor = false
  /// For types, the tokens between the `:` after the name and the `{` (the inheritance clause).
  var inheritance: Range<Int> = 0..<0
  /// For closures: the called function's name token (`async` in `queue.async { }`, `loadObject` in
  /// `provider.loadObject(ofClass:) { }`), or -1.
  var callee: Int = -1
  /// For closures passed as a labeled argument, the label's token (`completionHandler`), or -1.
  var label: Int = -1
  /// For closures, the tokens naming its parameters before `in` (`url, error` in `{ url, error in`).
  var parameters: [Int] = []

  /// Whether token `index` lies inside this scope's braces.
  func contains(_ index: Int) -> Bool { index > open && index < close }
}
