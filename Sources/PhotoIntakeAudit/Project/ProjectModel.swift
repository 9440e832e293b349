/// Every function, initializer and computed property of the project, and a call graph between them
/// resolved by name across files.
///
/// Calls are matched by name and arity (a trailing closure counts as an argument; default arguments let
/// a call pass fewer). A receiver narrows the match: `self` and bare calls to the caller's own type, a
/// type name to its static members, a variable to its declared type (`let camera = CameraManager()`,
/// `var asset: PhotoAsset?`). A receiver of unknown type matches every candidate only when there are
/// few, since common names (`configure`, `update`) would otherwise join unrelated code.
///
/// ``ProjectModel+Context.swift`` infers where each function runs from this graph.
struct ProjectModel: Sendable {
  struct Function: Sendable {
    var file: Int
    var scope: Int
    var name: String
    /// The type whose body (or extension) declares it, by simple name.
    var typeName: String?
    /// Parameters, or -1 for a computed property.
    var arity: Int
    /// How a finding names it: `PhotoCell.configure(with:)`, `PhotoAsset.fullImage`.
    var display: String
    var isAsync: Bool
  }

  /// Where code runs relative to the function around it, as the closures in between decide.
  enum Local: Sendable {
    /// No closure in between changes it: the code runs where the function runs.
    case inherit
    case main, elsewhere, unknown
  }

  struct Call: Sendable {
    var caller: Int
    var callee: Int
    var token: Int
    var local: Local
  }

  let files: [SourceFile]
  private(set) var fileIndex: [String: Int] = [:]
  private(set) var functions: [Function] = []
  /// Per file, per scope: the function it belongs to (accessors belong to their property), or -1.
  private(set) var functionOfScope: [[Int32]] = []
  private(set) var calls: [Call] = []
  /// Calls made by each function.
  private(set) var outgoing: [[Int]] = []
  /// Calls reaching each function.
  private(set) var incoming: [[Int]] = []
  /// Types held in a stored property of a main-actor type (a view controller's `CameraManager`), with
  /// the owner's name: their `deinit` runs when the owner releases them, on the main thread.
  private(set) var ownedByMain: [String: String] = [:]
  private var ancestorCache: [String: Set<String>] = [:]
  /// Declared types of stored properties, by `Owner.property`.
  private(set) var memberTypes: [String: String] = [:]
  var origins: [Origin] = []
  /// See ``hasSynchronousOptions(call:in:)``.
  private(set) var synchronousOptions: Set<String> = []

  init(files: [SourceFile], facts: ProjectFacts) {
    self.files = files
    var byName: [UInt64: [Int]] = [:]
    for (fileNumber, file) in files.enumerated() {
      fileIndex[file.path] = fileNumber
      var owners = Array(repeating: Int32(-1), count: file.syntax.scopes.count)
      for (scopeIndex, scope) in file.syntax.scopes.enumerated() {
        switch scope.kind {
        case .function:
          let function = Self.function(file: fileNumber, scope: scopeIndex, in: file)
          owners[scopeIndex] = Int32(functions.count)
          var key = Self.hash(file, scope.name)
          if file.word(scope.head) == .initKeyword, let typeName = function.typeName {
            key = WordTable.hash(Array(typeName.utf8)[...])
          }
          byName[key, default: []].append(functions.count)
          functions.append(function)
        case .accessor:
          owners[scopeIndex] = scope.parent >= 0 ? owners[scope.parent] : -1
        default: break
        }
      }
      functionOfScope.append(owners)
    }
    outgoing = Array(repeating: [], count: functions.count)
    incoming = Array(repeating: [], count: functions.count)
    let declared = files.map { declaredTypes(in: $0, facts: facts) }
    for (fileNumber, file) in files.enumerated() {
      let variables = declared[fileNumber]
      for index in 0..<file.count where file.kind(index) == .identifier {
        guard let candidates = byName[Self.hash(file, index)] else { continue }
        addCalls(at: index, in: fileNumber, candidates: candidates, variables: variables, facts: facts)
      }
    }
    origins = inferContexts(facts: facts)
    synchronousOptions = Self.synchronousOptions(in: files, model: self)
  }

  // MARK: Declarations

  static func hash(_ file: SourceFile, _ token: Int) -> UInt64 {
    guard token >= 0, token < file.count else { return 0 }
    let range = Int(file.tokens[token].start)..<Int(file.tokens[token].end)
    return WordTable.hash(file.source.bytes[range])
  }

  private static func function(file fileNumber: Int, scope scopeIndex: Int, in file: SourceFile) -> Function {
    let scope = file.scope(scopeIndex)
    var typeName: String?
    var outer = scope.parent
    while outer > 0 {
      if file.scope(outer).kind == .type {
        typeName = file.name(of: outer)
        break
      }
      outer = file.scope(outer).parent
    }
    let head = file.word(scope.head)
    let name = head == .deinit ? "deinit" : head == .initKeyword ? "init" : file.name(of: scopeIndex) ?? "?"
    var arity = -1
    var labels = ""
    var isAsync = false
    if head == .func || head == .initKeyword || head == .subscript {
      var paren = scope.head + 1
      while paren < scope.open, file.kind(paren) != .leftParen { paren += 1 }
      if paren < scope.open, let close = file.match(paren) {
        arity = 0
        var expectLabel = true
        var cursor = paren + 1
        while cursor < close {
          if file.tokens[cursor].isOpening, let partner = file.match(cursor) {
            cursor = partner + 1
            continue
          }
          if expectLabel, file.kind(cursor) == .identifier {
            arity += 1
            labels += file.text(cursor) + ":"
            expectLabel = false
          } else if file.kind(cursor) == .comma {
            expectLabel = true
          }
          cursor += 1
        }
        isAsync = file.contains([.async], in: close..<scope.open)
      }
    } else if head == .deinit {
      arity = 0
    }
    let signature = arity >= 0 && head != .deinit ? "\(name)(\(labels))" : name
    let display = typeName.map { "\($0).\(signature)" } ?? signature
    return Function(
      file: fileNumber, scope: scopeIndex, name: name, typeName: typeName, arity: arity, display: display,
      isAsync: isAsync)
  }

  /// Variables and parameters of the file by declared type (`name: Type`, `name = Type(…)`); stored
  /// properties go to ``memberTypes`` instead, since extensions in other files use them. Types outside
  /// the project count too: a receiver of a known SDK type matches none of the project's functions.
  /// Scope is ignored; names that mean different types keep the first.
  private mutating func declaredTypes(in file: SourceFile, facts: ProjectFacts) -> [String: String] {
    var variables: [String: String] = [:]
    for index in 0..<file.count where file.kind(index) == .identifier && !file.isMember(index) {
      let type: Int
      if file.kind(index + 1) == .colon, file.kind(index + 2) == .identifier {
        type = index + 2
      } else if file.word(index + 1) == .opAssign, file.kind(index + 2) == .identifier,
        file.kind(index + 3) == .leftParen
      {
        type = index + 2
      } else {
        continue
      }
      let typeName = file.text(type)
      guard typeName.first?.isUppercase == true else { continue }
      let name = file.text(index)
      let container = file.syntax.scope(of: index)
      guard file.scope(container).kind == .type, let owner = file.name(of: container) else {
        if variables[name] == nil { variables[name] = typeName }
        continue
      }
      if memberTypes[owner + "." + name] == nil { memberTypes[owner + "." + name] = typeName }
      // A stored property of a view controller or view: the owner releases it on the main thread.
      if facts.types[typeName] != nil, Self.isInterfaceType(owner, facts: facts), ownedByMain[typeName] == nil
      {
        ownedByMain[typeName] = owner
      }
    }
    return variables
  }

  /// A main-actor type, or one named and built like a view controller whose base class lives outside
  /// the project (`final class ScannerViewController: BaseViewController`).
  static func isInterfaceType(_ name: String, facts: ProjectFacts) -> Bool {
    if facts.isMainActorType(name) || name.hasSuffix("ViewController") { return true }
    return facts.types[name]?.inherits.contains { $0.hasSuffix("ViewController") } == true
  }

  /// SDK classes whose superclass an extension of the project may extend (`extension AVAsset` serves an
  /// `AVURLAsset`).
  private static let sdkSuperclasses: [String: String] = [
    "AVURLAsset": "AVAsset", "AVMutableComposition": "AVComposition", "AVComposition": "AVAsset",
    "PHCachingImageManager": "PHImageManager", "AVQueuePlayer": "AVPlayer",
  ]

  /// `type` and the types it inherits from, in the project or the SDK table above.
  static func ancestors(of type: String, facts: ProjectFacts) -> Set<String> {
    var result: Set<String> = []
    var queue = [type]
    while let next = queue.popLast(), result.insert(next).inserted {
      if let base = sdkSuperclasses[next] { queue.append(base) }
      queue.append(contentsOf: facts.types[next]?.inherits ?? [])
    }
    return result
  }

  /// ``ancestors(of:facts:)``, remembered: call sites ask about the same few types again and again.
  private mutating func ancestors(of type: String, facts: ProjectFacts) -> Set<String> {
    if let known = ancestorCache[type] { return known }
    let result = Self.ancestors(of: type, facts: facts)
    ancestorCache[type] = result
    return result
  }

  // MARK: Calls

  private mutating func addCalls(
    at index: Int, in fileNumber: Int, candidates: [Int], variables: [String: String], facts: ProjectFacts
  ) {
    let file = files[fileNumber]
    let before = file.word(index - 1)
    // Declarations and argument labels are not calls.
    if before == .func || before == .var || before == .let || before == .case
      || file.kind(index + 1) == .colon
    {
      return
    }
    if file.kind(index - 1) == .identifier, file.word(index - 1).isModifier { return }
    guard let callerScope = file.syntax.enclosing(index, [.function, .accessor]) else { return }
    let caller = Int(functionOfScope[fileNumber][callerScope])
    guard caller >= 0 else { return }
    let arity: Int
    if file.kind(index + 1) == .leftParen, let close = file.match(index + 1) {
      var count = close > index + 2 ? 1 : 0
      var cursor = index + 2
      while cursor < close {
        if file.tokens[cursor].isOpening, let partner = file.match(cursor) {
          cursor = partner + 1
          continue
        }
        if file.kind(cursor) == .comma { count += 1 }
        cursor += 1
      }
      if Self.opensClosure(close + 1, in: file) { count += 1 }
      arity = count
    } else if Self.opensClosure(index + 1, in: file), file.text(index).first?.isUppercase == false {
      arity = 1
    } else {
      arity = -1
    }
    let name = file.text(index)
    let isTypeName = name.first?.isUppercase == true && facts.types[name] != nil
    var matching = candidates.filter { candidate in
      let function = functions[candidate]
      guard function.name == name || (isTypeName && function.name == "init") else { return false }
      if isTypeName { return function.name == "init" && function.typeName == name }
      return arity < 0 ? function.arity < 0 : function.arity >= arity
    }
    if arity >= 0, matching.contains(where: { functions[$0].arity == arity }) {
      matching = matching.filter { functions[$0].arity == arity }
    }
    guard !matching.isEmpty else { return }
    let callerType = functions[caller].typeName
    if !isTypeName {
      if file.kind(index - 1) == .dot {
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
        if known {
          // The receiver's type and what it inherits, or a type that conforms to it or subclasses it
          // (a call on a protocol or base class may run any of their implementations).
          let receiver = receiverType ?? ""
          let accepted = ancestors(of: receiver, facts: facts)
          matching = matching.filter { candidate in
            let type = functions[candidate].typeName ?? ""
            return accepted.contains(type) || ancestors(of: type, facts: facts).contains(receiver)
          }
        } else if Set(matching.map { functions[$0].typeName ?? "" }).count > 3 {
          return
        }
      } else {
        let own = matching.filter { functions[$0].typeName == callerType }
        matching = own.isEmpty ? matching.filter { functions[$0].typeName == nil } : own
      }
    }
    let local = Self.local(at: index, in: file, upTo: callerScope)
    for callee in matching where callee != caller {
      incoming[callee].append(calls.count)
      outgoing[caller].append(calls.count)
      calls.append(Call(caller: caller, callee: callee, token: index, local: local))
    }
  }

  /// The `(` of the call a trailing closure follows: `addObserver(forName: n, object: nil, queue: .main) {`.
  private static func argumentsBefore(_ scope: Scope, in file: SourceFile) -> Int? {
    file.kind(scope.open - 1) == .rightParen ? file.match(scope.open - 1) : nil
  }

  /// Whether the call whose `(` is `paren` has a `queue:` argument naming the main queue.
  private static func deliversOnMain(_ file: SourceFile, arguments paren: Int) -> Bool {
    guard let close = file.match(paren) else { return false }
    for index in paren..<close where file.word(index) == .queue && file.kind(index + 1) == .colon {
      let end = file.endOfArgument(from: index + 2, close: close)
      return file.contains([.main], in: (index + 2)..<end)
    }
    return false
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

  /// Whether token `brace` is a trailing closure's `{`, not the body of `if let x = f() {`.
  private static func opensClosure(_ brace: Int, in file: SourceFile) -> Bool {
    guard file.kind(brace) == .leftBrace, !file.tokens[brace].startsLine,
      let scope = file.scopeOpened(at: brace)
    else { return false }
    return file.scope(scope).kind == .closure
  }

  private static let mainCallbacks: Set<Word> = [
    .onAppear, .onDisappear, .task, .Button, .onChange, .onReceive,
  ]
  private static let queueCalls: Set<Word> = [.async, .asyncAfter, .sync, .concurrentPerform]
  private static let ownQueueCallbacks: Set<Word> = [
    .requestAccess, .requestAuthorization, .loadObject, .loadFileRepresentation, .loadDataRepresentation,
    .loadTransferable, .loadItem, .dataTask, .requestRecordPermission,
    // PhotoKit and AVFoundation call these back on queues of their own, not the caller's.
    .requestAVAsset, .requestPlayerItem, .requestExportSession, .requestData, .writeData,
    .loadValuesAsynchronously, .exportAsynchronously, .generateCGImagesAsynchronously,
  ]

  /// Where the code at `index` runs relative to the function or accessor scope `function`: the
  /// innermost closure that decides wins. `DispatchQueue.main.async`, `MainActor.run`, SwiftUI actions
  /// and `@MainActor` closures run on main; other queues and `Task.detached` elsewhere; callbacks of
  /// APIs that call back on queues of their own (`requestAccess`, `loadObject`…) somewhere unknown.
  static func local(at index: Int, in file: SourceFile, upTo function: Int) -> Local {
    for scopeIndex in file.syntax.enclosingScopes(of: index) {
      if scopeIndex == function { return .inherit }
      let scope = file.scope(scopeIndex)
      guard scope.kind == .closure else {
        if scope.kind == .function || scope.kind == .type || scope.kind == .file { return .inherit }
        continue
      }
      if scope.isMainActor { return .main }
      let callee = file.word(scope.callee)
      if queueCalls.contains(callee) {
        let receiver = file.postfixStart(endingAt: scope.callee)..<scope.callee
        return file.contains([.main], in: receiver) && file.contains([.DispatchQueue], in: receiver)
          ? .main : .elsewhere
      }
      if callee == .run, file.word(file.postfixStart(endingAt: scope.callee)) == .MainActor { return .main }
      if callee == .detached { return .elsewhere }
      // `NotificationCenter.default.addObserver(forName:object:queue: .main) { … }` and Combine's
      // `.receive(on: DispatchQueue.main).sink { … }` deliver on the main queue.
      if callee == .addObserver,
        let paren = argumentsBefore(scope, in: file) ?? file.enclosingParen(of: scope.open),
        deliversOnMain(file, arguments: paren)
      {
        return .main
      }
      if callee == .sink, receivesOnMain(file, sink: scope.callee) { return .main }
      if mainCallbacks.contains(callee) { return .main }
      if ownQueueCallbacks.contains(callee) { return .unknown }
    }
    return .inherit
  }
}
