/// Where code runs when the SDK or the project's own functions decide it at a distance: delegate callbacks
/// whose queue the project names, and closures handed to the project's functions.
extension ProjectModel {
  // MARK: Closures passed to the project's functions

  /// For each function with closure parameters, where a closure passed to each of them runs, from where
  /// the body calls it (`completion(image)`): main when some call is on main (inside
  /// `DispatchQueue.main.async`), where the function runs when it calls it directly, and somewhere not
  /// main when every call is inside a callback PhotoKit, AVFoundation or another queue delivers (elsewhere
  /// when every one is a queue the project names). A closure kept in a property (`self.completion = completion`) runs where the type calls that
  /// property. Calls that pass only literals (`completion(nil)` on an early exit) count only when there is
  /// no other call. A call inside a closure handed to another of the project's functions is placed by what
  /// is already known of that function (the model runs this twice).
  func closureParameterContexts() -> [Int: [Int: Local]] {
    var result: [Int: [Int: Local]] = [:]
    // Where a type calls a closure property, asked once per property however many functions store into it.
    var storedSites: [String: [Local]] = [:]
    for (id, function) in functions.enumerated() where function.parameters.contains(where: \.isClosure) {
      let file = files[function.file]
      let body = file.body(of: function.scope)
      for (position, parameter) in function.parameters.enumerated() where parameter.isClosure {
        var sites: [(local: Local, trivial: Bool)] = []
        for index in body
        where file.kind(index) == .identifier && !file.isMember(index)
          && file.source.sameText(index, parameter.nameToken)
        {
          if let paren = Self.invocationParen(file, index) {
            sites.append(
              (local(at: index, in: file, upTo: function.scope), Self.passesOnlyLiterals(file, paren)))
          } else if file.word(index - 1) == .opAssign,
            let stored = storedProperty(assignedAt: index - 1, in: file)
          {
            let key = "\(function.typeName ?? "").\(stored)"
            let found = storedSites[key] ?? storedClosureSites(stored, typeName: function.typeName)
            storedSites[key] = found
            sites += found.map { ($0, false) }
          } else if file.kind(index + 1) == .rightParen || file.kind(index + 1) == .comma,
            let paren = file.enclosingParen(of: index), file.kind(paren - 1) == .identifier,
            let decided = Self.argumentDecision(callee: paren - 1, paren: paren, in: file)
          {
            // Handed straight to an API: `requestImage(…, resultHandler: completion)`.
            let around = local(at: paren, in: file, upTo: function.scope)
            sites.append((around == .inherit ? decided : around, false))
          }
        }
        let meaningful = sites.contains { !$0.trivial } ? sites.filter { !$0.trivial } : sites
        guard !meaningful.isEmpty else { continue }
        let locals = meaningful.map(\.local)
        // Handed only to other queues (`DispatchQueue.global().async(execute: closure)` in an app's
        // `Async.global { … }` wrapper): elsewhere, so a helper every caller runs from such closures is
        // not main (`leaveMainForOffMainCallers`). Callbacks of APIs stay unknown here; a helper called
        // only from inside them leaves main there too.
        let combined: Local
        if locals.contains(.main) {
          combined = .main
        } else if locals.contains(.inherit) {
          combined = .inherit
        } else {
          combined = locals.allSatisfy { $0 == .elsewhere } ? .elsewhere : .unknown
        }
        if combined != .inherit { result[id, default: [:]][position] = combined }
      }
    }
    return result
  }

  /// `completion(…)`, `completion?(…)`, `completion!(…)`: the `(` of a call of the name at `index`.
  private static func invocationParen(_ file: SourceFile, _ index: Int) -> Int? {
    var next = index + 1
    if file.kind(next) == .op, file.word(next) == .opQuestion || file.word(next) == .opBang,
      file.tokens[next].start == file.tokens[index].end
    {
      next += 1
    }
    return file.kind(next) == .leftParen && file.tokens[next].start == file.tokens[next - 1].end ? next : nil
  }

  /// Whether every argument of the call at `paren` is a literal (`nil`, `false`, `[]`, `""`, `0`).
  private static func passesOnlyLiterals(_ file: SourceFile, _ paren: Int) -> Bool {
    guard let close = file.match(paren) else { return false }
    return ((paren + 1)..<close).allSatisfy { token in
      switch file.kind(token) {
      case .string, .number, .comma, .leftBracket, .rightBracket, .colon: return true
      case .identifier:
        let word = file.word(token)
        return word == .nil || word == .true || word == .false || file.kind(token + 1) == .colon
      default: return false
      }
    }
  }

  /// The property `self.name = value` or `name = value` stores into, when it is not a local.
  private func storedProperty(assignedAt assign: Int, in file: SourceFile) -> String? {
    let target = assign - 1
    guard file.kind(target) == .identifier else { return nil }
    if file.kind(target - 1) == .dot {
      return file.word(target - 2) == .selfKeyword ? file.text(target) : nil
    }
    let name = file.text(target)
    let function = file.enclosingFunction(of: assign)
    let declaredHere = file.body(of: function).contains { token in
      token < assign && (file.word(token - 1) == .let || file.word(token - 1) == .var)
        && file.source.sameText(token, target)
    }
    return declaredHere ? nil : name
  }

  /// Where a closure kept in the property `name` of `typeName` runs: at each call of it in the type's
  /// functions, on main if that call is in a main block or in a function the first pass put on main.
  private func storedClosureSites(_ name: String, typeName: String?) -> [Local] {
    guard let typeName else { return [] }
    var sites: [Local] = []
    let nameHash = WordTable.hash(name)
    for id in membersByType[typeName] ?? [] {
      let function = functions[id]
      let file = files[function.file]
      for index in file.body(of: function.scope)
      where file.kind(index) == .identifier && Self.hash(file, index) == nameHash && file.text(index) == name
        && (!file.isMember(index) || file.word(index - 2) == .selfKeyword)
      {
        guard Self.invocationParen(file, index) != nil else { continue }
        let here = local(at: index, in: file, upTo: function.scope)
        sites.append(here == .inherit ? (origins[id].context == .main ? .main : .unknown) : here)
      }
    }
    return sites
  }

  /// Where the closure `scope` runs when it is passed to a function of the project whose body decides
  /// (``closureContexts``); nil when it is not, or the body does not say.
  func projectClosureContext(_ scope: Scope, in file: SourceFile) -> Local? {
    guard !closureContexts.isEmpty, scope.callee >= 0, let fileNumber = fileIndex[file.path],
      let numbers = callsAt[fileNumber][scope.callee],
      let arguments = CallArguments(file, callee: scope.callee)
    else { return nil }
    var result: Local?
    for number in numbers {
      let callee = calls[number].callee
      guard let contexts = closureContexts[callee],
        let position = Parameter.position(
          of: scope.open, in: functions[callee].parameters, arguments: arguments, file: file),
        let context = contexts[position]
      else { return nil }
      if context == .main { return .main }
      result = context
    }
    return result
  }

  // MARK: Delegate queues

  /// Delegate callbacks whose queue the project names when it sets the delegate:
  /// `output.setMetadataObjectsDelegate(self, queue: DispatchQueue.main)` puts
  /// `metadataOutput(_:didOutput:from:)` of the caller's type on main, and
  /// `setSampleBufferDelegate(self, queue: videoQueue)` puts `captureOutput(…)` on that queue.
  func findDelegateQueues(variables: [[String: String]]) -> [String: (context: Context, reason: String)] {
    var result: [String: (context: Context, reason: String)] = [:]
    for (fileNumber, file) in files.enumerated()
    where file.source.words.containsAny([
      .setSampleBufferDelegate, .setMetadataObjectsDelegate, .setDelegate, .URLSession,
    ]) {
      for index in 0..<file.count where file.kind(index + 1) == .leftParen && file.isActive(index) {
        let callbacks: [String]
        switch file.word(index) {
        case .setSampleBufferDelegate: callbacks = ["captureOutput"]
        case .setMetadataObjectsDelegate: callbacks = ["metadataOutput"]
        case .setDelegate: callbacks = ["dataOutputSynchronizer", "depthDataOutput", "resourceLoader"]
        case .URLSession: callbacks = ["urlSession"]
        default: continue
        }
        guard let arguments = CallArguments(file, callee: index),
          let delegate = arguments.labels.indices.first(where: {
            arguments.labels[$0] == Parameter.unlabeled || arguments.labels[$0] == Self.delegateLabel
          }),
          let queue = Self.queueArgument(file, paren: index + 1), queue != .unknown,
          let type = delegateType(arguments.values[delegate], in: file, variables: variables[fileNumber])
        else { continue }
        let context: Context = queue == .main ? .main : .elsewhere
        let reason =
          "delegate of \(file.text(index))(…queue:) on \(queue == .main ? "the main queue" : "a queue of its own")"
        for callback in callbacks where result[type + "." + callback] == nil {
          result[type + "." + callback] = (context, reason)
        }
      }
    }
    return result
  }

  private static let delegateLabel = WordTable.hash("delegate")

  /// The type of a delegate argument: `self` (the type around the call), a variable or property of a
  /// declared type, or `Type()`.
  private func delegateType(_ value: Range<Int>, in file: SourceFile, variables: [String: String]) -> String?
  {
    guard let first = value.first else { return nil }
    if file.word(first) == .selfKeyword, value.count == 1 {
      return file.enclosingType(of: first).flatMap { file.name(of: $0) }
    }
    var name = value.upperBound - 1
    while name > first, file.kind(name) != .identifier { name -= 1 }
    guard file.kind(name) == .identifier else { return nil }
    let text = file.text(name)
    if text.first?.isUppercase == true { return text }
    if let type = variables[text] { return type }
    let owner = file.enclosingType(of: first).flatMap { file.name(of: $0) } ?? ""
    return memberTypes[owner + "." + text]
  }
}
