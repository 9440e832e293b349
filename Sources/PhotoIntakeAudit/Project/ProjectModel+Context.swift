/// Execution context over the call graph: which functions run on the main thread, and why.
///
/// Seeds are what the source declares: `@MainActor` functions and types, UIKit/AppKit and SwiftUI types
/// (main-actor in the SDK), lifecycle overrides (`viewDidLoad`, `viewWillAppear`), `@objc` and
/// `@IBAction` methods (target-action and selectors are delivered on main), the `deinit` of a type a
/// view controller or view holds, and what a main-actor type's stored properties call for their initial
/// values (`@StateObject var camera = CameraModel()` runs `CameraModel.init` on main). Actors and non-isolated `async` functions run elsewhere. Main then
/// spreads along calls made directly (not from inside another queue's block) to functions that are not
/// `async`, breadth first, so the path kept for each function is a shortest one.
extension ProjectModel {
  enum Context: Sendable {
    case main, elsewhere, unknown
  }

  struct Origin: Sendable {
    var context: Context = .unknown
    /// The call that made it main, or -1 for a seed.
    var call = -1
    /// Why a seed runs where it does (`UIViewController`), for the first step of a path.
    var reason = ""
  }

  static let lifecycleMethods: Set<String> = [
    "viewDidLoad", "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear",
    "viewWillLayoutSubviews", "viewDidLayoutSubviews", "loadView", "awakeFromNib", "layoutSubviews",
    "prepareForReuse", "didMoveToWindow", "didMoveToSuperview", "traitCollectionDidChange", "viewWillAppear",
    "applicationDidBecomeActive", "applicationWillResignActive", "applicationDidEnterBackground",
    "applicationWillEnterForeground", "sceneDidBecomeActive", "sceneWillResignActive",
    "sceneDidEnterBackground",
    "sceneWillEnterForeground", "windowDidLoad", "viewWillTransition", "draw",
  ]

  mutating func inferContexts(facts: ProjectFacts) -> [Origin] {
    var origins = Array(repeating: Origin(), count: functions.count)
    var blocked = Array(repeating: false, count: functions.count)
    var dead = Array(repeating: false, count: functions.count)
    var queue: [Int] = []
    for (id, function) in functions.enumerated() {
      let file = files[function.file]
      let scope = file.scope(function.scope)
      var origin = Origin()
      if facts.reachability?.neverRuns(scope: function.scope, inFile: function.file) == true {
        // Nothing calls it: it runs nowhere, and calls it makes spread nothing.
        blocked[id] = true
        dead[id] = true
        continue
      }
      if !scope.isMainActor, let typeName = function.typeName,
        let queue = delegateQueues[typeName + "." + function.name]
      {
        origin =
          queue.context == .main ? Origin(context: .main, reason: queue.reason) : Origin(context: .elsewhere)
      } else if scope.isNonisolated {
        origin.context = function.isAsync ? .elsewhere : .unknown
      } else if scope.isMainActor {
        origin = Origin(context: .main, reason: "@MainActor")
      } else if let reason = Self.attributeReason(of: function.scope, in: file) {
        origin = Origin(context: .main, reason: reason)
      } else if let typeContext = typeContext(of: function, facts: facts) {
        origin = typeContext
      } else if let isolated = defaultIsolationContext(of: function, facts: facts) {
        origin = isolated
      } else if function.name == "deinit", let typeName = function.typeName, let owner = ownedByMain[typeName]
      {
        origin = Origin(context: .main, reason: "released by \(owner)")
      }
      if origin.context == .elsewhere || (function.isAsync && origin.context != .main) { blocked[id] = true }
      origins[id] = origin
    }
    leaveMainForOffMainCallers(&origins, blocked: &blocked)
    for id in origins.indices where origins[id].context == .main { queue.append(id) }
    // A view's or view controller's stored properties get their initial values on the main thread, so
    // what those values call runs there (`@StateObject var camera = CameraModel()` runs `CameraModel.init`).
    for call in initialValueCalls
    where (call.local == .inherit || call.local == .main) && origins[call.callee].context != .main
      && !blocked[call.callee] && isMainActorType(call.owner, facts: facts)
    {
      origins[call.callee] = Origin(
        context: .main, reason: "made by a stored property's initial value in main-actor \(call.owner)")
      queue.append(call.callee)
    }
    // Calls made inside `DispatchQueue.main.async` blocks run on main wherever their caller runs.
    for (number, call) in calls.enumerated()
    where call.local == .main && origins[call.callee].context != .main && !blocked[call.callee]
      && !dead[call.caller]
    {
      origins[call.callee] = Origin(context: .main, call: number)
      queue.append(call.callee)
    }
    var head = 0
    while head < queue.count {
      let caller = queue[head]
      head += 1
      for number in outgoing[caller] {
        let call = calls[number]
        guard call.local == .inherit || call.local == .main, !blocked[call.callee],
          origins[call.callee].context != .main
        else { continue }
        origins[call.callee] = Origin(context: .main, call: number)
        queue.append(call.callee)
      }
    }
    return origins
  }

  private static func attributeReason(of scopeIndex: Int, in file: SourceFile) -> String? {
    let scope = file.scope(scopeIndex)
    var index = scope.head - 1
    var isOverride = false
    while index >= 0 {
      let kind = file.kind(index)
      if kind == .attribute {
        if file.word(index) == .IBAction { return "@IBAction" }
        if file.word(index) == .objc { return "@objc" }
      } else if kind == .identifier, file.word(index).isModifier {
        if file.word(index) == .override { isOverride = true }
      } else {
        break
      }
      index -= 1
    }
    if isOverride, let name = file.name(of: scopeIndex), lifecycleMethods.contains(name) {
      return "override of \(name)"
    }
    return nil
  }

  private mutating func typeContext(of function: Function, facts: ProjectFacts) -> Origin? {
    let file = files[function.file]
    // The innermost type around the function (not the file scope): one look, however deep it nests.
    let parent = file.scope(function.scope).parent
    guard parent >= 0, let outer = file.syntax.enclosing(scope: parent, [.type]), outer > 0 else {
      return nil
    }
    let scope = file.scope(outer)
    if file.word(scope.head) == .actor { return Origin(context: .elsewhere) }
    let name = file.name(of: outer) ?? ""
    if scope.isMainActor { return Origin(context: .main, reason: "member of @MainActor \(name)") }
    for token in scope.inheritance.clamped(to: 0..<file.count)
    where ProjectFacts.mainActorBases.contains(file.text(token)) {
      return Origin(context: .main, reason: "member of \(name) (\(file.text(token)))")
    }
    if isMainActorType(name, facts: facts) {
      return Origin(context: .main, reason: "member of main-actor \(name)")
    }
    return nil
  }

  /// A function of a target whose code is main-actor by default (`SWIFT_DEFAULT_ACTOR_ISOLATION =
  /// MainActor`, Xcode 26's setting for new apps) runs on main unless it or a type around it opts out
  /// (`nonisolated`, an actor, `@concurrent` or another global actor); a `deinit` runs wherever the last
  /// reference goes. Named as a member, so a helper every caller runs off main runs there too (a
  /// synchronous call does not hop).
  private func defaultIsolationContext(of function: Function, facts: ProjectFacts) -> Origin? {
    guard facts.mainActorByDefault.contains(function.file) else { return nil }
    let file = files[function.file]
    let scope = file.scope(function.scope)
    guard file.word(scope.head) != .deinit, !scope.isOtherActor else { return nil }
    var owner: String?
    var outer = file.syntax.enclosing(scope: max(scope.parent, 0), [.type])
    var steps = 0
    while let type = outer, type > 0 {
      let declaration = file.scope(type)
      steps += 1
      guard steps <= 64, !declaration.isNonisolated, file.word(declaration.head) != .actor,
        !declaration.isOtherActor
      else { return nil }
      owner = owner ?? file.name(of: type)
      outer = declaration.parent > 0 ? file.syntax.enclosing(scope: declaration.parent, [.type]) : nil
    }
    return Origin(
      context: .main,
      reason:
        "member of \(owner ?? "its module"), main-actor by default (SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor)"
    )
  }

  /// A view's or view controller's helper that every caller runs off the main thread runs there too: each
  /// call is made from another queue's block, from inside the callback of an API that calls back on a
  /// queue of its own (`requestAVAsset(forVideo:options:resultHandler:)`, `loadObject`, `dataTask`), or
  /// directly from a function that itself runs elsewhere — also one that became so here (a helper's
  /// helper). Each function's calls are counted down once, so this stays linear in the calls.
  private func leaveMainForOffMainCallers(_ origins: inout [Origin], blocked: inout [Bool]) {
    func isHelper(_ id: Int) -> Bool {
      origins[id].context == .main && origins[id].call < 0 && origins[id].reason.hasPrefix("member of")
        && !incoming[id].isEmpty
    }
    // Per helper: its calls not yet known to run off main.
    var remaining: [Int: Int] = [:]
    var pending: [Int] = []
    for id in functions.indices {
      if origins[id].context == .elsewhere { pending.append(id) }
      guard isHelper(id) else { continue }
      let count = incoming[id].count { number in
        calls[number].local != .elsewhere && !isInsideOwnQueueCallback(calls[number])
      }
      if count == 0 {
        origins[id] = Origin(context: .elsewhere)
        blocked[id] = true
        pending.append(id)
      } else {
        remaining[id] = count
      }
    }
    while let caller = pending.popLast() {
      for number in outgoing[caller] where calls[number].local == .inherit {
        let callee = calls[number].callee
        guard let count = remaining[callee] else { continue }
        remaining[callee] = count - 1
        guard count == 1 else { continue }
        remaining[callee] = nil
        origins[callee] = Origin(context: .elsewhere)
        blocked[callee] = true
        pending.append(callee)
      }
    }
  }

  /// Whether the call is made inside the callback of an API that calls back on a queue of its own
  /// (``ownQueueCallbacks``: PhotoKit, AVFoundation, item providers and URLSession never deliver those on
  /// the main thread), with no closure in between that moves it (`DispatchQueue.main.async` inside the
  /// callback puts it back on main).
  private func isInsideOwnQueueCallback(_ call: Call) -> Bool {
    guard call.local == .unknown else { return false }
    let function = functions[call.caller]
    let file = files[function.file]
    for scopeIndex in file.syntax.enclosingScopes(of: call.token) {
      if scopeIndex == function.scope { return false }
      let scope = file.scope(scopeIndex)
      guard scope.kind == .closure else { continue }
      if let decided = Self.closureDecision(scope, in: file) {
        return decided == .unknown && scope.callee >= 0
          && Self.ownQueueCallbacks.contains(file.word(scope.callee))
      }
      if let decided = projectClosureContext(scope, in: file), decided != .inherit { return false }
    }
    return false
  }

  // MARK: Questions rules ask

  /// The function the code at `index` of `file` belongs to, or -1.
  func function(at index: Int, in file: SourceFile) -> (id: Int, scope: Int) {
    guard let fileNumber = fileIndex[file.path],
      let scope = file.syntax.enclosing(index, [.function, .accessor])
    else { return (-1, -1) }
    return (Int(functionOfScope[fileNumber][scope]), scope)
  }

  /// The path that puts the code at `index` on the main thread, or nil when it does not run there: a
  /// main block around it, the seed its function is, or every main-thread call site of its function (the
  /// first with the path from its seed). `through` keeps only those calls (the callers that make a
  /// request synchronous).
  func mainThreadPath(_ index: Int, in file: SourceFile, through: Set<Int>? = nil) -> [ContextStep]? {
    let (id, scope) = function(at: index, in: file)
    guard id >= 0 else { return nil }
    switch local(at: index, in: file, upTo: scope) {
    case .main: return through == nil ? [step(id, note: Self.mainBlock)] : nil
    case .inherit: break
    default: return nil
    }
    if let through {
      let main = mainCalls(of: id, among: through)
      return main.isEmpty ? nil : path(through: main)
    }
    let origin = origins[id]
    guard origin.context == .main else { return nil }
    guard origin.call >= 0 else { return path(to: id) }
    return path(through: [origin.call] + mainCalls(of: id).filter { $0 != origin.call })
  }

  /// Where the code at `index` runs, and the path that shows it: the seed (a view controller's lifecycle
  /// method, a SwiftUI view) at its declaration, then each call on the way, at the line of the call.
  func trace(_ index: Int, in file: SourceFile) -> (Context, [ContextStep]) {
    let (id, scope) = function(at: index, in: file)
    guard id >= 0 else { return (.unknown, []) }
    switch local(at: index, in: file, upTo: scope) {
    case .main: return (.main, [step(id, note: Self.mainBlock)])
    case .elsewhere: return (.elsewhere, [])
    case .unknown: return (.unknown, [])
    case .inherit: break
    }
    guard origins[id].context == .main else { return (origins[id].context, []) }
    return (.main, path(to: id))
  }

  /// The path from a seed to function `id`, which runs on main: the seed at its declaration, then each
  /// call on the way at its own line.
  func path(to id: Int) -> [ContextStep] {
    var path: [ContextStep] = []
    var current = id
    var seen: Set<Int> = []
    while seen.insert(current).inserted {
      let origin = origins[current]
      guard origin.call >= 0 else {
        path.append(step(current, note: origin.reason))
        break
      }
      let call = calls[origin.call]
      path.append(callStep(origin.call))
      if call.local == .main {
        // Called from a `DispatchQueue.main` block or SwiftUI action: that block is the reason.
        path.append(step(call.caller, note: Self.mainBlock))
        break
      }
      current = call.caller
    }
    return path.reversed()
  }

  /// Whether call `number` runs on the main thread: made from a main block, or directly from a function
  /// that runs on main.
  func isOnMain(call number: Int) -> Bool {
    let call = calls[number]
    return call.local == .main || (call.local == .inherit && origins[call.caller].context == .main)
  }

  /// The path to the first of `calls` (calls of one function, each made on the main thread), then each
  /// other one at its own line: every main-thread call site of a blocking helper.
  func path(through calls: [Int]) -> [ContextStep] {
    guard let first = calls.first else { return [] }
    let call = self.calls[first]
    var path =
      self.calls[first].local == .main ? [step(call.caller, note: Self.mainBlock)] : path(to: call.caller)
    path.append(callStep(first))
    for other in calls.dropFirst().prefix(Self.callSitesShown) {
      var step = callStep(other)
      step.reason = "also calls \(functions[self.calls[other].callee].display) on the main thread"
      step.function = functions[self.calls[other].caller].display
      path.append(step)
    }
    return path
  }

  /// The calls of function `id` made on the main thread, in source order; `among` narrows them.
  func mainCalls(of id: Int, among: Set<Int>? = nil) -> [Int] {
    incoming[id].filter { (among?.contains($0) ?? true) && isOnMain(call: $0) }.sorted { a, b in
      let (first, second) = (calls[a], calls[b])
      let (fileA, fileB) = (functions[first.caller].file, functions[second.caller].file)
      return fileA != fileB ? files[fileA].path < files[fileB].path : first.token < second.token
    }
  }

  static let callSitesShown = 16

  static let mainBlock = "the code is inside a DispatchQueue.main block, MainActor.run or a SwiftUI action"

  private func step(_ id: Int, note: String) -> ContextStep {
    let function = functions[id]
    let file = files[function.file]
    let scope = file.scope(function.scope)
    let token = scope.name >= 0 && scope.name < file.count ? scope.name : max(scope.head, 0)
    let (line, column) = file.source.location(ofByte: file.tokens[token].start)
    return ContextStep(
      function: function.display, reason: note, file: file.path, line: line, column: column)
  }

  /// The call `number`, at its own line in the caller: `calls PhotoAsset.fullImage`.
  func callStep(_ number: Int) -> ContextStep {
    let call = calls[number]
    let file = files[functions[call.caller].file]
    let (line, column) = file.source.location(ofByte: file.tokens[call.token].start)
    return ContextStep(
      function: functions[call.callee].display, reason: "", file: file.path, line: line, column: column)
  }
}

extension Finding {
  /// The finding with the path that puts it on the main thread, named in its message when it runs
  /// through more than one function.
  func onMainThread(_ path: [ContextStep]) -> Finding {
    var finding = self
    finding.contextPath = path
    if path.count == 1, path[0].reason.hasPrefix("released by") {
      finding.message += " Runs on the main thread: \(path[0].function), \(path[0].reason)."
    } else if path.count > 1 {
      // The chain of calls from the seed; steps with a reason after it are other call sites.
      let chain = [path[0]] + path.dropFirst().prefix { $0.reason.isEmpty }
      let others = path.count - chain.count
      let more = others == 0 ? "" : ", and from \(others) other call site\(others == 1 ? "" : "s")"
      finding.message +=
        " Reached on the main thread from \(chain.map(\.function).joined(separator: " → "))\(more)."
    }
    return finding
  }
}
