/// Which `PHImageRequestOptions` are synchronous, followed through locals, properties, functions that
/// make them, parameters and the arguments callers pass — including options made synchronous only when a
/// parameter says so (`options.isSynchronous = synchronous`, `if synchronous { … }`), which block only for
/// the callers that pass `true` (or leave a default of `true`).
extension ProjectModel {
  /// Options made synchronous only when parameter `parameter` of function `function` is `value`.
  struct ConditionalOptions: Sendable {
    var function: Int
    var parameter: Int
    var value: Bool
  }

  /// Whether a PhotoKit request blocks, and for whom.
  enum Synchrony: Sendable, Equatable {
    case never
    /// Whenever the function holding it runs; `network`: the options allow iCloud downloads.
    case always(network: Bool)
    /// Only when the function holding it is called through one of these calls.
    case through(Set<Int>, network: Bool)

    var network: Bool {
      switch self {
      case .never: false
      case .always(let network), .through(_, let network): network
      }
    }
  }

  /// How the `options:` argument of the PhotoKit request at `call` blocks (`options.isSynchronous = true`
  /// on a local of the same function, a property of the type named or of the caller's own (`option`,
  /// `self.option`, `ImageOptions.synchronous`, `.sharedSynchronous`), a function or computed property that
  /// returns them, or a parameter its callers fill).
  func synchrony(ofRequest call: Int, in file: SourceFile) -> Synchrony {
    guard let close = file.match(call + 1) else { return .never }
    var cursor = call + 2
    while cursor < close {
      if file.word(cursor) == .options, file.kind(cursor + 1) == .colon { break }
      if file.tokens[cursor].isOpening, let partner = file.match(cursor) {
        cursor = partner + 1
        continue
      }
      cursor += 1
    }
    guard cursor < close else { return .never }
    let end = file.endOfArgument(from: cursor + 2, close: close)
    guard let name = ((cursor + 2)..<end).last(where: { file.kind($0) == .identifier }) else { return .never }
    return synchrony(ofOptions: name, in: file, depth: 2)
  }

  /// How the expression ending at token `name` is synchronous options; a parameter of the function around
  /// it is, for the callers that pass synchronous options for it (`image.loadImage(Self.options)`).
  private func synchrony(ofOptions name: Int, in file: SourceFile, depth: Int) -> Synchrony {
    let text = file.text(name)
    let (function, _) = self.function(at: name, in: file)
    let ownType = function >= 0 ? functions[function].typeName ?? "" : ""
    guard file.kind(name - 1) == .dot else {
      for key in ["\(function):\(text)", "\(ownType).\(text)", ".\(text)"] {
        let found = lookUp(key, requestIn: function)
        if found != .never { return found }
      }
      guard function >= 0 else { return .never }
      if depth > 0, let position = functions[function].parameters.firstIndex(where: { $0.name == text }) {
        var through: Set<Int> = []
        var network = false
        for number in incoming[function] {
          let call = calls[number]
          let caller = files[functions[call.caller].file]
          guard let argument = argument(position, of: number),
            let last = argument.last(where: { caller.kind($0) == .identifier })
          else { continue }
          let found = synchrony(ofOptions: last, in: caller, depth: depth - 1)
          if found != .never {
            through.insert(number)
            network = network || found.network
          }
        }
        return through.isEmpty ? .never : .through(through, network: network)
      }
      // `let options = photoRequestOptions()`: a local made by a function that returns synchronous options.
      // The first `let name =` in the body before the request, from the file's index.
      let body = file.body(of: functions[function].scope)
      let lets = letDeclarations[functions[function].file][Self.hash(file, name)] ?? []
      var low = lets.firstPosition(atOrAfter: body.lowerBound)
      while low < lets.count, lets[low] < min(name, body.upperBound), !file.source.sameText(lets[low], name) {
        low += 1
      }
      guard low < lets.count, lets[low] < min(name, body.upperBound) else { return .never }
      let declared = lets[low]
      let maker = declared + 2
      guard file.kind(maker) == .identifier, file.kind(maker + 1) == .leftParen else { return .never }
      let made = lookUp("\(ownType).\(file.text(maker))", requestIn: function)
      return made != .never ? made : lookUp(".\(file.text(maker))", requestIn: function)
    }
    let receiver = name - 2
    if file.word(receiver) == .selfKeyword || file.word(receiver) == .selfType {
      return lookUp("\(ownType).\(text)", requestIn: function)
    }
    if file.kind(receiver) == .identifier {
      return lookUp("\(file.text(receiver)).\(text)", requestIn: function)
    }
    // `.sharedSynchronous`: a static member of some type.
    return lookUp("*.\(text)", requestIn: function)
  }

  /// The synchrony of options recorded under `key`, for a request in function `request`.
  private func lookUp(_ key: String, requestIn request: Int) -> Synchrony {
    if synchronousOptions.contains(key) { return .always(network: networkOptions.contains(key)) }
    guard let condition = conditionalOptions[key] else { return .never }
    let network = networkOptions.contains(key)
    // The callers that may pass the value that makes them synchronous; a default argument counts for
    // the callers that leave it out.
    let through = Set(
      incoming[condition.function].filter { number in
        argumentValue(number, parameter: condition.parameter).map { $0 == condition.value } ?? true
      })
    if through.isEmpty { return .never }
    return condition.function == request ? .through(through, network: network) : .always(network: network)
  }

  /// The tokens of the argument call `number` passes for parameter `position` of its callee, or nil
  /// when it leaves it to the default.
  func argument(_ position: Int, of number: Int) -> Range<Int>? {
    let call = calls[number]
    let file = files[functions[call.caller].file]
    guard let arguments = CallArguments(file, callee: call.token),
      let matched = Parameter.matched(functions[call.callee].parameters, arguments),
      let index = matched.firstIndex(of: position)
    else { return nil }
    return arguments.values[index]
  }

  /// `true` or `false` when call `number` passes (or its default gives) a literal for parameter
  /// `position`; nil when the value is not known.
  func argumentValue(_ number: Int, parameter position: Int) -> Bool? {
    let callee = functions[calls[number].callee]
    let (tokens, file): (Range<Int>?, SourceFile)
    if let passed = argument(position, of: number) {
      (tokens, file) = (passed, files[functions[calls[number].caller].file])
    } else {
      guard position < callee.parameters.count else { return nil }
      (tokens, file) = (callee.parameters[position].defaultValue, files[callee.file])
    }
    guard let tokens, tokens.count == 1 else { return nil }
    switch file.word(tokens.lowerBound) {
    case .true: return true
    case .false: return false
    default: return nil
    }
  }

  /// Options made synchronous, as `function:name` for a local, `Type.name` for a property or for a
  /// function or computed property that returns them (`.name` at file level), and `*.name` for any
  /// member, which an implicit member expression may name; the ones made synchronous only under a
  /// parameter; and the keys whose options also allow network access (`isNetworkAccessAllowed = true`
  /// beside `isSynchronous`).
  static func synchronousOptions(in files: [SourceFile], model: ProjectModel)
    -> (always: Set<String>, conditional: [String: ConditionalOptions], network: Set<String>)
  {
    var names: Set<String> = []
    var conditional: [String: ConditionalOptions] = [:]
    var network: Set<String> = []
    // Per function: whether its body holds a `return`, asked once, not once per assignment.
    var returns: [Int: Bool] = [:]
    for file in files where file.source.words.contains(.isSynchronous) {
      // Per holder scope: the receivers of `x.isNetworkAccessAllowed = true` and the names declared with
      // `let`/`var` in its body, read once per holder, so that thousands of assignments in one function
      // do not each rescan it.
      var holders: [Int: (network: Set<String>, locals: Set<String>)] = [:]
      for index in 0..<file.count
      where file.word(index) == .isSynchronous && file.word(index + 1) == .opAssign
        && file.kind(index - 2) == .identifier && file.isActive(index)
      {
        let receiver = index - 2
        let (function, _) = model.function(at: index, in: file)
        guard let made = model.condition(ofAssignment: index + 1, in: file, function: function) else {
          continue
        }
        let typeName = file.enclosingType(of: index).flatMap { file.name(of: $0) } ?? ""
        let holder = file.syntax.enclosing(index, [.closure, .function, .accessor]) ?? 0
        if holders[holder] == nil {
          let body = holder > 0 ? file.body(of: holder) : 0..<0
          var facts: (network: Set<String>, locals: Set<String>) = ([], [])
          for token in body {
            if file.word(token) == .isNetworkAccessAllowed, file.word(token + 1) == .opAssign,
              file.word(token + 2) == .true, token >= 2
            {
              facts.network.insert(file.text(token - 2))
            }
            if file.word(token - 1) == .let || file.word(token - 1) == .var {
              facts.locals.insert(file.text(token))
            }
          }
          holders[holder] = facts
        }
        let receiverText = file.text(receiver)
        let allowsNetwork = holders[holder]?.network.contains(receiverText) == true
        func record(_ key: String) {
          if case .when(let condition) = made {
            if !names.contains(key) { conditional[key] = condition }
          } else {
            names.insert(key)
            conditional[key] = nil
          }
          if allowsNetwork { network.insert(key) }
        }
        func member(_ name: String) {
          record("\(typeName).\(name)")
          record("*.\(name)")
        }
        let isLocal = holders[holder]?.locals.contains(receiverText) == true
        if !isLocal {
          member(file.text(receiver))
        } else if function >= 0 {
          record("\(function):\(file.text(receiver))")
        }
        if function >= 0, returns[function] == nil {
          returns[function] = file.contains([.return], in: file.body(of: model.functions[function].scope))
        }
        if function >= 0, file.scope(holder).kind != .closure,
          returns[function] == true || model.functions[function].arity < 0
        {
          member(model.functions[function].name)
        }
        // `static let options: PHImageRequestOptions = { … }()`: the property the closure initializes.
        if holder > 0, file.scope(holder).kind == .closure {
          var back = file.scope(holder).open - 1
          while back > file.scope(holder).open - 12, back > 0 {
            if file.word(back) == .let || file.word(back) == .var {
              member(file.text(back + 1))
              break
            }
            back -= 1
          }
        }
      }
    }
    return (names, conditional, network)
  }

  /// What `options.isSynchronous = <value>` (the `=` at `assign`) does.
  enum MadeSynchronous {
    case always
    /// Only when a parameter has a value: `= synchronous`, or `= true` inside `if synchronous { … }`.
    case when(ConditionalOptions)
  }

  /// Nil when the assignment does not make the options synchronous (`false`, or a value not known).
  fileprivate func condition(ofAssignment assign: Int, in file: SourceFile, function: Int) -> MadeSynchronous?
  {
    let value = assign + 1
    let parameters = function >= 0 ? functions[function].parameters : []
    func parameter(_ token: Int) -> Int? {
      file.kind(token) == .identifier ? parameters.firstIndex { $0.name == file.text(token) } : nil
    }
    if file.word(value) == .true {
      // `if synchronous { options.isSynchronous = true }`, `if !fast {`, `if synchronous == true {`
      for scopeIndex in file.syntax.enclosingScopes(of: assign) {
        let scope = file.scope(scopeIndex)
        if scope.kind == .function || scope.kind == .accessor || scope.kind == .closure { break }
        guard scope.kind == .block, file.word(scope.head) == .if else { continue }
        var cursor = scope.head + 1
        var expected = true
        if file.word(cursor) == .opBang {
          expected = false
          cursor += 1
        }
        guard let position = parameter(cursor) else { continue }
        var end = cursor + 1
        if file.word(end) == .opEqual, file.word(end + 1) == .true || file.word(end + 1) == .false {
          if file.word(end + 1) == .false { expected.toggle() }
          end += 2
        }
        guard end == scope.open else { continue }
        return .when(ConditionalOptions(function: function, parameter: position, value: expected))
      }
      return .always
    }
    let next = value + 1
    let endsStatement =
      next >= file.count || file.tokens[next].startsLine || file.kind(next) == .semicolon
      || file.kind(next) == .rightBrace
    if let position = parameter(value), endsStatement {
      return .when(ConditionalOptions(function: function, parameter: position, value: true))
    }
    return nil
  }
}
