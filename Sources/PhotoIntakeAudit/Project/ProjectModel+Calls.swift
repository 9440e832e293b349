/// Resolving calls, and where the code inside a closure runs relative to the function around it.
extension ProjectModel {
  // MARK: Calls

  /// Records the calls the identifier at `index` makes: a call (`start(at: 5)`, `load(asset) { … }`), a
  /// read of a computed property, or a function named as an argument (`.onAppear(perform: loadImage)`),
  /// matched by argument labels and narrowed by the receiver's type.
  mutating func addCalls(
    at index: Int, in file: SourceFile, _ fileNumber: Int, candidates: [Int], variables: [String: String],
    facts: ProjectFacts
  ) {
    let before = file.word(index - 1)
    // Declarations and argument labels are not calls.
    if before == .func || before == .var || before == .let || before == .case
      || file.kind(index + 1) == .colon
    {
      return
    }
    if file.kind(index - 1) == .identifier, file.word(index - 1).isModifier { return }
    // A call in a stored property's initial value (`@StateObject var camera = CameraModel()`) has no
    // function around it: the type's initialization makes it, recorded in ``initialValueCalls``.
    var owner: (name: String, scope: Int)?
    let callerScope: Int
    var caller = -1
    if let scope = file.syntax.enclosing(index, [.function, .accessor]) {
      callerScope = scope
      caller = Int(functionOfScope[fileNumber][callerScope])
      guard caller >= 0 else { return }
    } else {
      guard let type = file.enclosingType(of: index), let name = file.name(of: type) else { return }
      owner = (name, type)
      callerScope = type
    }
    // Only a capitalised name can be a type's; the rest need no string at all (names match by hash).
    let first = file.source.bytes[Int(file.tokens[index].start)]
    let capitalised = first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z")
    let name = capitalised ? file.text(index) : ""
    let isTypeName = capitalised && facts.types[name] != nil
    let arguments = CallArguments(file, callee: index)
    // `.onAppear(perform: loadImage)`, `queue.async(execute: work)`: the function runs where a closure
    // passed there would.
    var referenceContext: Local?
    if arguments == nil, !file.isMember(index), !isTypeName,
      file.kind(index - 1) == .colon || file.kind(index - 1) == .leftParen || file.kind(index - 1) == .comma,
      file.kind(index + 1) == .rightParen || file.kind(index + 1) == .comma,
      let paren = file.enclosingParen(of: index), file.kind(paren - 1) == .identifier
    {
      // Only where the callee runs what it is given at a known place; elsewhere a bare name is a value.
      referenceContext = Self.argumentDecision(callee: paren - 1, paren: paren, in: file)
    }
    let isReference = referenceContext != nil
    // Candidates share the name's hash: initializers are filed under their type's name, the rest under
    // their own, so a type name reaches initializers and any other name the functions it names.
    let shape = CallShape(
      name: Self.hash(file, index), typeName: isTypeName ? name : nil, labels: arguments?.labels,
      trailing: arguments?.trailing.count ?? 0, isReference: isReference,
      isAssigned: Self.isAssigned(index, in: file))
    let match = callMatch(shape, candidates: candidates, arguments: arguments)
    var matching = match.matching
    guard !matching.isEmpty else { return }
    let callerType = owner?.name ?? functions[caller].typeName
    if !isTypeName {
      if file.kind(index - 1) == .dot {
        guard
          let narrowed = narrow(
            match, receiverOf: index, in: file, callerType: callerType,
            variables: variables, facts: facts)
        else { return }
        matching = narrowed
      } else {
        let own = match.byType[callerType] ?? []
        matching = own.isEmpty ? match.byType[String?.none] ?? [] : own
      }
    }
    var local = local(at: index, in: file, fileNumber, upTo: callerScope)
    if let referenceContext, local == .inherit { local = referenceContext }
    if let owner {
      for callee in matching {
        initialValueCalls.append(
          InitialValueCall(owner: owner.name, file: fileNumber, token: index, callee: callee, local: local))
      }
      return
    }
    for callee in matching where callee != caller {
      incoming[callee].append(calls.count)
      outgoing[caller].append(calls.count)
      callsAt[fileNumber][index, default: []].append(calls.count)
      calls.append(Call(caller: caller, callee: callee, token: index, local: local))
    }
  }

  /// What decides which candidates a call accepts, besides the candidates themselves: the name (its hash,
  /// and a type's name for an initializer), the argument labels and trailing closures (nil labels: no
  /// parentheses), whether the name is passed as a function, and whether it is set there.
  struct CallShape: Hashable {
    var name: UInt64
    var typeName: String?
    var labels: [UInt64]?
    var trailing: Int
    var isReference: Bool
    var isAssigned: Bool
  }

  /// The candidates a ``CallShape`` accepts, in order, and the same by declaring type, so that a call
  /// looks only at its own type's, its ancestors' and its descendants' (see ``narrow(_:receiverOf:in:callerType:variables:facts:)``).
  struct CallMatch {
    var matching: [Int] = []
    /// `matching` by declaring type (nil: a free function).
    var byType: [String?: [Int]] = [:]
    /// `matching` by declaring type, a free function's as "".
    var byTypeName: [String: [Int]] = [:]
  }

  /// ``callMatches`` for `shape`: the candidates filtered once per shape of call. Linear in the candidates
  /// per shape, where filtering per call was quadratic for a name every type declares (`setupUI()`).
  private mutating func callMatch(_ shape: CallShape, candidates: [Int], arguments: CallArguments?)
    -> CallMatch
  {
    if let known = callMatches[shape] { return known }
    var matching = possible(candidates, shape: shape, arguments: arguments).filter { candidate in
      // A stored property with observers runs its `didSet` when it is set, not when it is read.
      if observedProperties[candidate], !shape.isAssigned { return false }
      if let name = shape.typeName {
        guard functions[candidate].isInitializer, functions[candidate].typeName == name, let arguments else {
          return false
        }
        return Parameter.accepts(functions[candidate].parameters, arguments)
      }
      guard !functions[candidate].isInitializer else { return false }
      let arity = functions[candidate].arity
      guard let arguments else { return shape.isReference ? arity >= 0 : arity < 0 }
      return arity >= 0 && Parameter.accepts(functions[candidate].parameters, arguments)
    }
    // Both `f()` and `f(x: Int = 0)` accept `f()`; Swift picks the one without defaults.
    if let arguments, matching.contains(where: { functions[$0].arity == arguments.count }) {
      matching = matching.filter { functions[$0].arity == arguments.count }
    }
    var match = CallMatch(matching: matching)
    for candidate in matching {
      match.byType[functions[candidate].typeName, default: []].append(candidate)
      match.byTypeName[functions[candidate].typeName ?? "", default: []].append(candidate)
    }
    callMatches[shape] = match
    return match
  }

  /// The candidates that may accept a call with `arguments`: when the call has parentheses, those whose
  /// parameters have no default and no variadic accept it only when their labels begin with the call's
  /// and they take exactly one more parameter per trailing closure (``Parameter/accepts(_:_:)``), so they
  /// are looked up in ``plainOverloads`` by that prefix; the rest are all kept. A name of thousands of
  /// overloads called thousands of times with different labels (`f(a:x0:)`, `f(a:x1:)`…) stays linear.
  private mutating func possible(_ candidates: [Int], shape: CallShape, arguments: CallArguments?) -> [Int] {
    guard let arguments, candidates.count > 8 else { return candidates }
    if plainOverloads[shape.name] == nil {
      var index = PlainOverloads()
      for candidate in candidates {
        let parameters = functions[candidate].parameters
        guard parameters.allSatisfy({ !$0.hasDefault && !$0.isVariadic }) else {
          index.others.append(candidate)
          continue
        }
        var prefix = Self.labelPrefixSeed
        index.byPrefix[LabelPrefix(hash: prefix, count: parameters.count), default: []].append(candidate)
        for parameter in parameters {
          prefix = Self.labelPrefix(prefix, parameter.labelHash)
          index.byPrefix[LabelPrefix(hash: prefix, count: parameters.count), default: []].append(candidate)
        }
      }
      plainOverloads[shape.name] = index
    }
    guard let index = plainOverloads[shape.name] else { return candidates }
    let prefix = arguments.labels.reduce(Self.labelPrefixSeed, Self.labelPrefix)
    let key = LabelPrefix(hash: prefix, count: arguments.labels.count + arguments.trailing.count)
    return ((index.byPrefix[key] ?? []) + index.others).sorted()
  }

  /// A hash of a sequence of argument labels, and a parameter count.
  struct LabelPrefix: Hashable {
    var hash: UInt64
    var count: Int
  }

  /// Per name: its candidates with plain parameters by every prefix of their labels and their parameter
  /// count, and the others (a default or a variadic parameter).
  struct PlainOverloads {
    var byPrefix: [LabelPrefix: [Int]] = [:]
    var others: [Int] = []
  }

  private static let labelPrefixSeed: UInt64 = 0xcbf2_9ce4_8422_2325
  private static func labelPrefix(_ hash: UInt64, _ label: UInt64) -> UInt64 {
    (hash ^ label) &* 0x0000_0100_0000_01b3
  }

  /// Whether the name at `index` is set there, which runs its `didSet`: `asset = …`, `self.count += 1`,
  /// `items[0] = …`, `items.append(…)` (a mutating method), or `&items` (passed `inout`); not a
  /// comparison (`==`, `!==`, `~=`).
  static func isAssigned(_ index: Int, in file: SourceFile) -> Bool {
    if file.kind(index - 1) == .op, file.text(index - 1) == "&" { return true }
    // `&self.items`
    if file.kind(index - 1) == .dot, file.word(index - 2) == .selfKeyword, file.kind(index - 3) == .op,
      file.text(index - 3) == "&"
    {
      return true
    }
    var next = index + 1
    if file.word(next) == .opBang || file.word(next) == .opQuestion { next += 1 }
    if file.kind(next) == .leftBracket, let close = file.match(next) { next = close + 1 }
    // `items.append(x)`, `items.sort { … }`, `items.removeAll { … }`
    if file.kind(next) == .dot, file.kind(next + 2) == .leftParen || file.kind(next + 2) == .leftBrace {
      return mutatingMethods.contains(file.text(next + 1))
    }
    if file.word(next) == .opAssign { return true }
    guard file.kind(next) == .op else { return false }
    let text = file.text(next)
    return text.count >= 2 && text.hasSuffix("=") && !comparisons.contains(text)
  }

  /// Operators ending in `=` that compare rather than assign.
  private static let comparisons: Set<String> = ["==", "!=", "<=", ">=", "===", "!==", "~="]
  /// Mutating methods of the standard collections: calling one sets the property that holds the collection.
  private static let mutatingMethods: Set<String> = [
    "append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "removeSubrange", "sort",
    "reverse", "shuffle", "swapAt", "merge", "updateValue", "removeValue", "formUnion", "subtract",
    "popLast", "replaceSubrange",
  ]

  /// The candidates a call on a receiver can reach (`camera.start()`, `self.loader.load()`,
  /// `Loader.shared.go()`), or nil when the receiver is unknown and too many types declare the name.
  private mutating func narrow(
    _ match: CallMatch, receiverOf index: Int, in file: SourceFile, callerType: String?,
    variables: [String: String], facts: ProjectFacts
  ) -> [Int]? {
    var receiver = index - 2
    // `manager?.stop()`, `manager!.stop()`
    if file.word(receiver) == .opQuestion || file.word(receiver) == .opBang { receiver -= 1 }
    var receiverType: String?
    var known = false
    if file.word(receiver) == .selfKeyword {
      receiverType = callerType
      known = true
    } else if file.kind(receiver) == .identifier {
      let text = file.text(receiver)
      // `self.camera.stop()`: the property of the caller's type.
      let owner = file.kind(receiver - 1) == .dot && file.word(receiver - 2) == .selfKeyword
      // `ImageLoader.shared.load()`: a static property of a type of the project.
      let staticOwner =
        file.kind(receiver - 1) == .dot && file.kind(receiver - 2) == .identifier
        ? memberTypes[file.text(receiver - 2) + "." + text] : nil
      if let staticOwner {
        receiverType = staticOwner
        known = true
      } else if facts.types[text] != nil {
        receiverType = text
        known = true
      } else if !owner, let type = variables[text] {
        receiverType = type
        known = true
      } else if let callerType, let type = memberTypes[callerType + "." + text] {
        receiverType = type
        known = true
      }
    }
    guard known else {
      return match.byTypeName.count > 3 ? nil : match.matching
    }
    // The receiver's type and what it inherits, or a type that conforms to it or subclasses it (a call
    // on a protocol or base class may run any of their implementations): those types' candidates only,
    // looked up by type, in the candidates' order.
    let type = receiverType ?? ""
    let ancestors = ancestors(of: type, facts: facts)
    let descendants = descendants(of: type, facts: facts)
    // Whichever side is smaller is walked: a name few types declare, or a receiver of few relatives.
    var result: [Int] = []
    if match.byTypeName.count < ancestors.count + descendants.count {
      for (name, candidates) in match.byTypeName where ancestors.contains(name) || descendants.contains(name)
      {
        result += candidates
      }
    } else {
      for name in ancestors.union(descendants) { result += match.byTypeName[name] ?? [] }
    }
    return result.sorted()
  }

  // MARK: Where closures run

  /// The `(` of the call a trailing closure follows: `addObserver(forName: n, object: nil, queue: .main) {`.
  static func argumentsBefore(_ scope: Scope, in file: SourceFile) -> Int? {
    file.kind(scope.open - 1) == .rightParen ? file.match(scope.open - 1) : nil
  }

  /// `publisher.receive(on: DispatchQueue.main).sink { … }` (or `RunLoop.main`).
  private static func receivesOnMain(_ file: SourceFile, sink: Int) -> Bool {
    let chain = file.postfixStart(endingAt: sink)..<sink
    guard let receive = chain.last(where: { file.word($0) == .receive }),
      file.kind(receive + 1) == .leftParen,
      let close = file.match(receive + 1)
    else { return false }
    return file.contains([.main], in: (receive + 1)..<close)
  }

  static let mainCallbacks: Set<Word> = [
    .onAppear, .onDisappear, .task, .Button, .onChange, .onReceive,
  ]
  static let queueCalls: Set<Word> = [.async, .asyncAfter, .sync, .concurrentPerform]
  static let ownQueueCallbacks: Set<Word> = [
    .requestAccess, .requestAuthorization, .loadObject, .loadFileRepresentation, .loadDataRepresentation,
    .loadTransferable, .loadItem, .dataTask, .downloadTask, .uploadTask, .requestRecordPermission,
    // PhotoKit and AVFoundation call these back on queues of their own, not the caller's.
    .requestAVAsset, .requestPlayerItem, .requestExportSession, .requestData, .writeData,
    .loadValuesAsynchronously, .exportAsynchronously, .generateCGImagesAsynchronously,
    .generateCGImageAsynchronously, .loadTracks, .loadMetadata, .loadMediaSelectionGroup, .performChanges,
    .finishWriting,
  ]

  /// Where the code at `index` runs relative to the function or accessor scope `function`: the
  /// innermost closure that decides wins (see ``closureDecision(_:in:)``). Closures nothing decides run
  /// where the function runs.
  static func local(at index: Int, in file: SourceFile, upTo function: Int) -> Local {
    for scopeIndex in file.syntax.enclosingScopes(of: index) {
      if scopeIndex == function { return .inherit }
      let scope = file.scope(scopeIndex)
      guard scope.kind == .closure else {
        if scope.kind == .function || scope.kind == .type || scope.kind == .file { return .inherit }
        continue
      }
      if let decided = closureDecision(scope, in: file) { return decided }
    }
    return .inherit
  }

  /// ``local(at:in:upTo:)`` (the static one), remembered per starting scope in ``scopeLocals``: the
  /// scopes a walk passed through get its answer, so each scope is walked once per function.
  private mutating func local(at index: Int, in file: SourceFile, _ fileNumber: Int, upTo function: Int)
    -> Local
  {
    var passed: [Int] = []
    var answer = Local.inherit
    for scopeIndex in file.syntax.enclosingScopes(of: index) {
      if let known = scopeLocals[ScopeLocalKey(file: fileNumber, scope: scopeIndex, function: function)] {
        answer = known
        break
      }
      if scopeIndex == function { break }
      let scope = file.scope(scopeIndex)
      guard scope.kind == .closure else {
        if scope.kind == .function || scope.kind == .type || scope.kind == .file { break }
        passed.append(scopeIndex)
        continue
      }
      if let decided = Self.closureDecision(scope, in: file) {
        answer = decided
        passed.append(scopeIndex)
        break
      }
      passed.append(scopeIndex)
    }
    for scopeIndex in passed {
      scopeLocals[ScopeLocalKey(file: fileNumber, scope: scopeIndex, function: function)] = answer
    }
    return answer
  }

  /// ``local(at:in:upTo:)``, also asking where the project's own functions call the closures they are
  /// given (``closureContexts``): a completion handler that a helper calls inside a PhotoKit callback
  /// runs on PhotoKit's queue.
  func local(at index: Int, in file: SourceFile, upTo function: Int) -> Local {
    for scopeIndex in file.syntax.enclosingScopes(of: index) {
      if scopeIndex == function { return .inherit }
      let scope = file.scope(scopeIndex)
      guard scope.kind == .closure else {
        if scope.kind == .function || scope.kind == .type || scope.kind == .file { return .inherit }
        continue
      }
      if isOnMainQueueHelper(callee: scope.callee, in: file) { return .main }
      if let decided = Self.closureDecision(scope, in: file) { return decided }
      if let decided = projectClosureContext(scope, in: file), decided != .inherit { return decided }
    }
    return .inherit
  }

  /// Where a closure runs, when the call it is passed to decides: `DispatchQueue.main.async` (and
  /// `dispatch_async(dispatch_get_main_queue())`), `MainActor.run`, SwiftUI actions and `@MainActor` closures on main; other queues,
  /// `OperationQueue().addOperation` and `Task.detached` elsewhere; an API's `queue:` argument (a delegate
  /// or observer queue) main or elsewhere; a `DispatchWorkItem` where it is executed; callbacks of APIs
  /// that call back on queues of their own (`requestAccess`, `loadObject`, `loadTracks`…) somewhere
  /// unknown. Nil when the call does not decide.
  static func closureDecision(_ scope: Scope, in file: SourceFile) -> Local? {
    if scope.isMainActor { return .main }
    let callee = file.word(scope.callee)
    if callee == .DispatchWorkItem || callee == .BlockOperation { return workItemContext(scope, in: file) }
    let paren: Int?
    switch file.kind(scope.open - 1) {
    case .rightParen: paren = argumentsBefore(scope, in: file)
    case .colon, .leftParen, .comma: paren = file.enclosingParen(of: scope.open)
    default: paren = nil
    }
    if callee == .sink, receivesOnMain(file, sink: scope.callee) { return .main }
    return argumentDecision(callee: scope.callee, paren: paren, in: file)
  }

  /// What the call named at `callee` decides for a closure or function passed to it.
  /// `operations`: the callee adds operations to its receiver (`addOperations(_:waitUntilFinished:)`).
  static func argumentDecision(callee: Int, paren: Int?, in file: SourceFile, operations: Bool = false)
    -> Local?
  {
    let word = file.word(callee)
    if queueCalls.contains(word) || word == .addOperation || operations {
      let receiver = file.postfixStart(endingAt: callee)..<callee
      // `DispatchQueue.main.async`, `OperationQueue.main.addOperation`
      return file.contains([.main], in: receiver)
        && file.contains([.DispatchQueue, .OperationQueue], in: receiver) ? .main : .elsewhere
    }
    if word == .dispatchAsync || word == .dispatchSync || word == .dispatchAfter {
      // Grand Central Dispatch before Swift 3: `dispatch_async(dispatch_get_main_queue()) { … }`,
      // `dispatch_after(time, queue, { … })`; the queue is an argument (`dispatch_get_main_queue` reads
      // as `main`).
      guard let paren, let close = file.match(paren) else { return .unknown }
      var start = paren + 1
      while start < close {
        let end = file.endOfArgument(from: start, close: close)
        // The block itself (`dispatch_async(queue, { … })`) may name the main queue inside.
        if file.kind(start) != .leftBrace, file.contains([.main], in: start..<end) { return .main }
        start = end + 1
      }
      return .elsewhere
    }
    if word == .run, file.word(file.postfixStart(endingAt: callee)) == .MainActor { return .main }
    if word == .detached { return .elsewhere }
    if let paren, let queue = queueArgument(file, paren: paren) { return queue }
    if mainCallbacks.contains(word) { return .main }
    if ownQueueCallbacks.contains(word) { return .unknown }
    return nil
  }

  /// The queue a call's `queue:` (`callbackQueue:`, `delegateQueue:`, or a queue given as `on:`) argument
  /// names: main for `.main`, `DispatchQueue.main` or a name saying main; unknown for `nil` (the posting
  /// thread); elsewhere for any other queue.
  static func queueArgument(_ file: SourceFile, paren: Int) -> Local? {
    guard let close = file.match(paren) else { return nil }
    var start = paren + 1
    while start < close {
      let end = file.endOfArgument(from: start, close: close)
      defer { start = end + 1 }
      guard file.kind(start) == .identifier, file.kind(start + 1) == .colon else { continue }
      let label = file.text(start)
      let value = (start + 2)..<end
      guard ["queue", "callbackQueue", "delegateQueue", "on"].contains(label), !value.isEmpty else {
        continue
      }
      let names = value.filter { file.kind($0) == .identifier }.map { ASCII.lowercased(file.text($0)) }
      if label == "on",
        !names.contains(where: {
          ASCII.contains($0, "queue") || ASCII.equals($0, "main") || ASCII.equals($0, "runloop")
        })
      {
        continue
      }
      if file.contains([.main], in: value) || names.contains(where: { ASCII.hasPrefix($0, "main") }) {
        return .main
      }
      if value.count == 1, file.word(value.lowerBound) == .nil { return .unknown }
      return .elsewhere
    }
    return nil
  }

  /// How many tokens before a work item's block and after it ``workItemContext(_:in:)`` looks for the
  /// calls that execute it: a file of thousands of work items reads a bounded window around each, not the
  /// whole file once per item. An item executed farther away is unknown (not main).
  static let workItemReach = 4096

  /// Where a `DispatchWorkItem`'s or a `BlockOperation`'s block runs: where the item is executed
  /// (`queue.async(execute: item)`, `asyncAfter(deadline:execute:)`, `group.notify(queue:execute:)`,
  /// `operationQueue.addOperation(operation)`, on main only for `OperationQueue.main`), or inline by
  /// `item.perform()` or `operation.start()`. Main if any execution is on main; unknown when none is found
  /// within ``workItemReach`` tokens of the block.
  private static func workItemContext(_ scope: Scope, in file: SourceFile) -> Local {
    // `let item = DispatchWorkItem { … }`, `self.item = DispatchWorkItem(block: { … })`,
    // `let operation = BlockOperation { … }`
    let item = scope.callee - 1
    if file.word(item) == .opAssign, file.kind(item - 1) == .identifier {
      let name = item - 1
      var result: Local?
      let after = min(scope.close, file.count - 1) + 1
      let before = max(0, scope.open - workItemReach)..<max(0, scope.open)
      for use in [before, after..<min(file.count, after + workItemReach)].joined()
      where use != name && file.kind(use) == .identifier && file.source.sameText(use, name) {
        var decided: Local?
        let open = Int(file.syntax.enclosingOpen[use])
        if file.kind(use + 1) == .dot, ["perform", "start"].contains(file.text(use + 2)) {
          decided = .inherit
        } else if let paren = file.enclosingParen(of: use), file.kind(paren - 1) == .identifier {
          decided = argumentDecision(callee: paren - 1, paren: paren, in: file)
        } else if open >= 0, file.kind(open) == .leftBracket, let paren = file.enclosingParen(of: open),
          file.text(paren - 1) == "addOperations"
        {
          // `queue.addOperations([operation], waitUntilFinished: false)`.
          decided = argumentDecision(callee: paren - 1, paren: paren, in: file, operations: true)
        }
        switch decided {
        case .main?: return .main
        case .inherit?: result = .inherit
        case .elsewhere?, .unknown?: if result == nil { result = decided }
        case nil: break
        }
      }
      return result ?? .unknown
    }
    // Passed straight to the call that executes it: `DispatchQueue.main.async(execute: DispatchWorkItem { … })`.
    if let paren = file.enclosingParen(of: scope.callee), file.kind(paren - 1) == .identifier {
      return argumentDecision(callee: paren - 1, paren: paren, in: file) ?? .unknown
    }
    return .unknown
  }
}
