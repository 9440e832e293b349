/// The parameters a function declares and the arguments a call passes, and whether they fit: the part of
/// Swift's overload resolution the call graph needs, by argument labels (not by types).
///
/// `func start(at time: Int)` and `func start()` are different functions to a call `start(at: 5)`, and
/// `func load(_ asset: PHAsset, options: PHImageRequestOptions? = nil, completion: @escaping (UIImage?) -> Void)`
/// is reached by `load(asset) { … }` (a defaulted parameter skipped, a trailing closure for the last one).
struct Parameter: Sendable {
  /// The argument label, `_` for none.
  var label: String
  /// The declaration writes a label before the name (`at time: Int`, `_ asset: PHAsset`), rather than
  /// one name that is both (`asset: PHAsset`, which Swift 2 left unlabeled in the first place).
  var hasOwnLabel: Bool
  /// ``label``'s hash (``WordTable/hash(_:)``), which calls compare with: a call's labels are hashed as
  /// they are read, with no string made for them.
  var labelHash: UInt64
  /// The name the body uses.
  var name: String
  /// Token of the internal name (for the parameter's uses in the body).
  var nameToken: Int
  /// The default value's tokens, when the declaration has one (`= false`).
  var defaultValue: Range<Int>?
  /// The type is a function type (`@escaping (UIImage?) -> Void`, `(() -> Void)?`): a closure argument.
  var isClosure: Bool
  /// `Int...`: takes any number of arguments.
  var isVariadic: Bool

  var hasDefault: Bool { defaultValue != nil }
}

/// The arguments of one call: labels in order (hashed; `_` for unlabeled), the tokens of each, and how many
/// closures trail the parentheses.
struct CallArguments: Sendable {
  /// Hashes of the labels (``Parameter/unlabeled`` for none).
  var labels: [UInt64] = []
  /// Value tokens of each argument in the parentheses (after the label and colon).
  var values: [Range<Int>] = []
  /// `{ … }` after the parentheses, then `label: { … }` for each further trailing closure.
  var trailing: [Int] = []

  var count: Int { labels.count + trailing.count }
}

extension Parameter {
  /// The hash of `_`, the label of an unlabeled argument or parameter.
  static let unlabeled = WordTable.hash("_")

  /// The hash of the label token at `token`.
  static func hash(_ file: SourceFile, _ token: Int) -> UInt64 {
    WordTable.hash(file.source.bytes[Int(file.tokens[token].start)..<Int(file.tokens[token].end)])
  }

  /// The parameters declared in the parentheses whose `(` is `paren`; with `swiftTwoFunction` (a `func` of a
  /// Swift 2 file, ``SwiftTwoEvidence``) a first parameter that writes no label of its own has none.
  static func list(_ file: SourceFile, paren: Int, swiftTwoFunction: Bool = false) -> [Parameter] {
    guard let close = file.match(paren), close > paren + 1 else { return [] }
    var parameters: [Parameter] = []
    var start = paren + 1
    while start < close {
      let end = file.endOfArgument(from: start, close: close)
      if let parameter = parse(file, start..<end) { parameters.append(parameter) }
      start = end + 1
    }
    if swiftTwoFunction, let first = parameters.first, !first.hasOwnLabel {
      parameters[0].label = "_"
      parameters[0].labelHash = unlabeled
    }
    return parameters
  }

  /// `label name: Type = default`, `_ name: Type`, `name: Type`; attributes and `inout` are skipped.
  private static func parse(_ file: SourceFile, _ range: Range<Int>) -> Parameter? {
    var cursor = range.lowerBound
    while cursor < range.upperBound, file.kind(cursor) == .attribute { cursor += 1 }
    guard let colon = (cursor..<range.upperBound).first(where: { file.kind($0) == .colon }) else {
      return nil
    }
    let names = (cursor..<colon).filter { file.kind($0) == .identifier }
    guard let nameToken = names.last else { return nil }
    let labelToken = names.count >= 2 ? names[names.count - 2] : nameToken
    // The type runs to a `=` at this level; brackets inside it are skipped whole.
    var type = colon + 1
    var assign: Int?
    while type < range.upperBound {
      if file.tokens[type].isOpening, let partner = file.match(type) {
        type = partner + 1
        continue
      }
      if file.word(type) == .opAssign {
        assign = type
        break
      }
      type += 1
    }
    let typeTokens = (colon + 1)..<(assign ?? range.upperBound)
    let isClosure = typeTokens.contains { file.word($0) == .opArrow || file.word($0) == .escaping }
    let last = typeTokens.upperBound - 1
    let isVariadic = last > colon && file.kind(last) == .op && file.text(last) == "..."
    return Parameter(
      label: file.text(labelToken), hasOwnLabel: names.count >= 2, labelHash: hash(file, labelToken),
      name: file.text(nameToken),
      nameToken: nameToken,
      defaultValue: assign.map { ($0 + 1)..<range.upperBound }, isClosure: isClosure, isVariadic: isVariadic)
  }

  /// Whether a call with `arguments` can reach a declaration with `parameters`: each label matches the
  /// next parameter of that label, skipping only defaulted ones; the trailing closures then fill what is
  /// left, and what they do not fill must have defaults.
  static func accepts(_ parameters: [Parameter], _ arguments: CallArguments) -> Bool {
    guard let matched = matched(parameters, arguments) else { return false }
    let rest = parameters[(matched.last.map { $0 + 1 } ?? 0)...]
    guard arguments.trailing.count <= rest.count else { return false }
    return arguments.trailing.count >= rest.filter { !$0.hasDefault }.count
  }

  /// The parameter each argument in the parentheses fills, or nil when a label fits no parameter.
  static func matched(_ parameters: [Parameter], _ arguments: CallArguments) -> [Int]? {
    var result: [Int] = []
    var position = 0
    for label in arguments.labels {
      // A variadic parameter takes further unlabeled arguments.
      if let previous = result.last, parameters[previous].isVariadic, label == unlabeled {
        result.append(previous)
        continue
      }
      while position < parameters.count, parameters[position].labelHash != label {
        guard parameters[position].hasDefault else { return nil }
        position += 1
      }
      guard position < parameters.count else { return nil }
      result.append(position)
      position += 1
    }
    return result
  }

  /// The parameter that the closure argument opening at `brace` fills: by its label, by its place in the
  /// parentheses, or for the first trailing closure the first closure parameter after those arguments.
  static func position(of brace: Int, in parameters: [Parameter], arguments: CallArguments, file: SourceFile)
    -> Int?
  {
    guard let matched = matched(parameters, arguments) else { return nil }
    if let number = arguments.trailing.firstIndex(of: brace) {
      if number > 0, file.kind(brace - 2) == .identifier {
        let label = hash(file, brace - 2)
        return parameters.firstIndex { $0.labelHash == label }
      }
      let after = matched.last.map { $0 + 1 } ?? 0
      return parameters[after...].firstIndex { $0.isClosure }
    }
    guard let argument = arguments.values.firstIndex(where: { $0.lowerBound == brace }) else { return nil }
    return matched[argument]
  }
}

extension CallArguments {
  /// The arguments of the call whose name is at `name` (`start(at: 5)`, `load(asset) { … }`,
  /// `show { … }`), or nil when the token is not called.
  init?(_ file: SourceFile, callee name: Int) {
    var afterArguments = name + 1
    if file.kind(name + 1) == .leftParen, let close = file.match(name + 1) {
      var start = name + 2
      while start < close {
        let labeled = file.kind(start) == .identifier && file.kind(start + 1) == .colon
        labels.append(labeled ? Parameter.hash(file, start) : Parameter.unlabeled)
        let end = file.endOfArgument(from: start, close: close)
        values.append((labeled ? start + 2 : start)..<end)
        start = end + 1
      }
      afterArguments = close + 1
    }
    guard afterArguments > name + 1 || Self.opensTrailingClosure(file, afterArguments) else { return nil }
    var brace = afterArguments
    while Self.opensTrailingClosure(file, brace), let close = file.match(brace) {
      trailing.append(brace)
      // `} label: {`: another trailing closure of the same call.
      guard file.kind(close + 1) == .identifier, file.kind(close + 2) == .colon,
        file.kind(close + 3) == .leftBrace,
        !file.tokens[close + 1].startsLine
      else { break }
      brace = close + 3
    }
  }

  /// A `{` on the same line that opens a closure (not the body of `if let x = f() {`).
  private static func opensTrailingClosure(_ file: SourceFile, _ brace: Int) -> Bool {
    guard file.kind(brace) == .leftBrace, !file.tokens[brace].startsLine,
      let scope = file.scopeOpened(at: brace)
    else { return false }
    return file.scope(scope).kind == .closure
  }
}
