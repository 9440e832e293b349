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
    /// Declared parameters, labels and defaults (empty for a computed property).
    var parameters: [Parameter] = []
    /// An `init`: found under its type's name.
    var isInitializer = false
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

  /// A call in the initial value of a stored property of type `owner` (`@StateObject var camera =
  /// CameraModel()`): it runs when an instance of `owner` is made, on the main thread for a view or view
  /// controller.
  struct InitialValueCall: Sendable {
    var owner: String
    var file: Int
    var token: Int
    var callee: Int
    var local: Local
  }

  let files: [SourceFile]
  private(set) var fileIndex: [String: Int] = [:]
  private(set) var functions: [Function] = []
  /// The functions declared in each type (by ``Function/typeName``, extensions included), in order:
  /// built once, so questions about a type's members do not walk every function of the project.
  private(set) var membersByType: [String: [Int]] = [:]
  /// Per file, per scope: the function it belongs to (accessors belong to their property), or -1.
  private(set) var functionOfScope: [[Int32]] = []
  var calls: [Call] = []
  /// Calls made by stored properties' initial values, which no function makes.
  var initialValueCalls: [InitialValueCall] = []
  /// Calls made by each function.
  var outgoing: [[Int]] = []
  /// Calls reaching each function.
  var incoming: [[Int]] = []
  /// Types held in a stored property of a main-actor type (a view controller's `CameraManager`), with
  /// the owner's name: their `deinit` runs when the owner releases them, on the main thread.
  private(set) var ownedByMain: [String: String] = [:]
  var ancestorCache: [String: Set<String>] = [:]
  /// The candidates each shape of call accepts (see ``CallShape``), so that thousands of calls of a name
  /// that thousands of types declare filter the candidates once, not once per call.
  var callMatches: [CallShape: CallMatch] = [:]
  /// Per name hash: its candidates indexed by their labels (see ``possible(_:shape:arguments:)``).
  var plainOverloads: [UInt64: PlainOverloads] = [:]
  /// Each type's direct subtypes and conformers: ``ancestors(of:facts:)``'s edges reversed, built once.
  var inheritors: [String: [String]]?
  /// ``descendants(of:facts:)``, remembered per type: the calls of a project ask about the same few
  /// receiver types again and again (a base view controller's subclasses were walked once per call).
  var descendantCache: [String: Set<String>] = [:]
  /// ``local(at:in:upTo:)`` (the static one) per file, starting scope and function, so that calls
  /// inside closures nested thousands deep do not each walk every closure around them.
  var scopeLocals: [ScopeLocalKey: Local] = [:]
  struct ScopeLocalKey: Hashable {
    var file: Int
    var scope: Int
    var function: Int
  }
  /// Per file: the tokens of the names declared `let name = …`, by the name's hash, in order, so that
  /// ``synchrony(ofOptions:in:depth:)`` finds a local's maker without scanning the function per request.
  private(set) var letDeclarations: [[UInt64: [Int]]] = []
  /// ``ProjectFacts/isMainActorType(_:)`` per type name, asked for every function and stored property.
  var mainActorCache: [String: Bool] = [:]
  /// Declared types of stored properties, by `Owner.property`.
  private(set) var memberTypes: [String: String] = [:]
  var origins: [Origin] = []
  /// See ``synchrony(ofRequest:in:)``.
  private(set) var synchronousOptions: Set<String> = []
  /// Options made synchronous only when a parameter says so (see ``synchrony(ofRequest:in:)``).
  private(set) var conditionalOptions: [String: ConditionalOptions] = [:]
  /// Keys of synchronous options that also allow network access: the request may download from iCloud.
  private(set) var networkOptions: Set<String> = []
  /// Per file, the calls made at each token (a name may resolve to several overloads or implementations).
  var callsAt: [[Int: [Int]]] = []
  /// Where a closure passed to a parameter of a function of the project runs, by `function:position`,
  /// when its body says (see ``closureParameterContexts()``).
  var closureContexts: [Int: [Int: Local]] = [:]
  /// Delegate callbacks whose queue the project names (`setMetadataObjectsDelegate(self, queue: .main)`),
  /// by `Type.method`: main, or elsewhere for any other queue.
  var delegateQueues: [String: (context: Context, reason: String)] = [:]
  /// Functions that only hand back the main queue (see ``mainQueueHelpers(_:files:)``), by name hash.
  private(set) var mainQueueHelpers: Set<UInt64> = []
  /// Per function, whether it is a stored property with observers (see ``mainQueueHelpers(_:files:)``).
  private(set) var observedProperties: [Bool] = []

  init(files: [SourceFile], facts: ProjectFacts) {
    self.files = files
    var byName: [UInt64: [Int]] = [:]
    for (fileNumber, file) in files.enumerated() {
      fileIndex[file.path] = fileNumber
      var owners = Array(repeating: Int32(-1), count: file.syntax.scopes.count)
      let isSwiftTwo = SwiftTwoEvidence.isSwiftTwo(file)
      for (scopeIndex, scope) in file.syntax.scopes.enumerated() {
        switch scope.kind {
        case .function where file.isActive(max(scope.open, 0)):
          let function = Self.function(file: fileNumber, scope: scopeIndex, in: file, swiftTwo: isSwiftTwo)
          owners[scopeIndex] = Int32(functions.count)
          var key = Self.hash(file, scope.name)
          if file.word(scope.head) == .initKeyword, let typeName = function.typeName {
            key = WordTable.hash(typeName)
          }
          byName[key, default: []].append(functions.count)
          if let typeName = function.typeName { membersByType[typeName, default: []].append(functions.count) }
          functions.append(function)
        case .accessor:
          owners[scopeIndex] = scope.parent >= 0 ? owners[scope.parent] : -1
        default: break
        }
      }
      functionOfScope.append(owners)
      var lets: [UInt64: [Int]] = [:]
      for index in 0..<file.count where file.word(index - 1) == .let && file.word(index + 1) == .opAssign {
        lets[Self.hash(file, index), default: []].append(index)
      }
      letDeclarations.append(lets)
    }
    (mainQueueHelpers, observedProperties) = Self.mainQueueHelpers(functions, files: files)
    outgoing = Array(repeating: [], count: functions.count)
    incoming = Array(repeating: [], count: functions.count)
    callsAt = Array(repeating: [:], count: files.count)
    let declared = files.map { declaredTypes(in: $0, facts: facts) }
    for (fileNumber, file) in files.enumerated() {
      let variables = declared[fileNumber]
      for index in 0..<file.count where file.kind(index) == .identifier && file.isActive(index) {
        guard let candidates = byName[Self.hash(file, index)] else { continue }
        addCalls(at: index, in: file, fileNumber, candidates: candidates, variables: variables, facts: facts)
      }
    }
    delegateQueues = findDelegateQueues(variables: declared)
    // Closures handed to the project's own functions run where those functions call them: work out
    // where from a first pass of contexts, then place each call inside such a closure again.
    origins = inferContexts(facts: facts)
    closureContexts = closureParameterContexts()
    // Once more, for completions a helper calls inside a closure it hands to another helper.
    if !closureContexts.isEmpty { closureContexts = closureParameterContexts() }
    if !closureContexts.isEmpty || !mainQueueHelpers.isEmpty {
      for number in calls.indices {
        let (caller, token) = (calls[number].caller, calls[number].token)
        calls[number].local = local(
          at: token, in: files[functions[caller].file], upTo: functions[caller].scope)
      }
      origins = inferContexts(facts: facts)
    }
    (synchronousOptions, conditionalOptions, networkOptions) = Self.synchronousOptions(in: files, model: self)
  }

  // MARK: Declarations

  static func hash(_ file: SourceFile, _ token: Int) -> UInt64 {
    guard token >= 0, token < file.count else { return 0 }
    let range = Int(file.tokens[token].start)..<Int(file.tokens[token].end)
    return WordTable.hash(file.source.bytes[range])
  }

  /// `swiftTwo`: the file is Swift 2 code (``SwiftTwoEvidence``), whose `func`s leave the first parameter
  /// unlabeled unless they write a label.
  private static func function(
    file fileNumber: Int, scope scopeIndex: Int, in file: SourceFile, swiftTwo: Bool
  ) -> Function {
    let scope = file.scope(scopeIndex)
    var typeName: String?
    // The innermost type around the function (not the file scope): one look.
    if scope.parent >= 0, let outer = file.syntax.enclosing(scope: scope.parent, [.type]), outer > 0 {
      typeName = file.name(of: outer)
    }
    let head = file.word(scope.head)
    let name = head == .deinit ? "deinit" : head == .initKeyword ? "init" : file.name(of: scopeIndex) ?? "?"
    var arity = -1
    var parameters: [Parameter] = []
    var isAsync = false
    if head == .func || head == .initKeyword || head == .subscript {
      var paren = scope.head + 1
      while paren < scope.open, file.kind(paren) != .leftParen { paren += 1 }
      if paren < scope.open, let close = file.match(paren) {
        parameters = Parameter.list(file, paren: paren, swiftTwoFunction: swiftTwo && head == .func)
        arity = parameters.count
        isAsync = file.contains([.async], in: close..<scope.open)
      }
    } else if head == .deinit {
      arity = 0
    }
    let labels = parameters.map { $0.label + ":" }.joined()
    let signature = arity >= 0 && head != .deinit ? "\(name)(\(labels))" : name
    let display = typeName.map { "\($0).\(signature)" } ?? signature
    return Function(
      file: fileNumber, scope: scopeIndex, name: name, typeName: typeName, arity: arity, display: display,
      isAsync: isAsync, parameters: parameters, isInitializer: head == .initKeyword)
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
      // An ASCII first letter is read from the byte; only other letters need a `Character`.
      let first = file.source.bytes[Int(file.tokens[type].start)]
      guard first >= 0x80 || (first >= 0x41 && first <= 0x5A) else { continue }
      let typeName = file.text(type)
      guard first < 0x80 || typeName.first?.isUppercase == true else { continue }
      let name = file.text(index)
      let container = file.syntax.scope(of: index)
      guard file.scope(container).kind == .type, let owner = file.name(of: container) else {
        if variables[name] == nil { variables[name] = typeName }
        continue
      }
      if memberTypes[owner + "." + name] == nil { memberTypes[owner + "." + name] = typeName }
      // A stored property of a view controller or view: the owner releases it on the main thread.
      if facts.types[typeName] != nil, ownedByMain[typeName] == nil, isInterfaceType(owner, facts: facts) {
        ownedByMain[typeName] = owner
      }
    }
    return variables
  }

  /// A main-actor type, or one named and built like a view controller whose base class lives outside
  /// the project (`final class ScannerViewController: BaseViewController`).
  mutating func isMainActorType(_ name: String, facts: ProjectFacts) -> Bool {
    if let known = mainActorCache[name] { return known }
    let answer = facts.isMainActorType(name)
    mainActorCache[name] = answer
    return answer
  }

  private mutating func isInterfaceType(_ name: String, facts: ProjectFacts) -> Bool {
    if isMainActorType(name, facts: facts) || name.hasSuffix("ViewController") { return true }
    return facts.types[name]?.inherits.contains { $0.hasSuffix("ViewController") } == true
  }

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

  /// The types that inherit from `type` or conform to it, transitively, `type` included: those whose
  /// ``ancestors(of:facts:)`` hold it. Walks only that part of the reversed inheritance graph.
  mutating func descendants(of type: String, facts: ProjectFacts) -> Set<String> {
    if inheritors == nil {
      var reversed: [String: [String]] = [:]
      for (name, base) in Self.sdkSuperclasses { reversed[base, default: []].append(name) }
      for (name, info) in facts.types {
        for base in info.inherits { reversed[base, default: []].append(name) }
      }
      inheritors = reversed
    }
    if let known = descendantCache[type] { return known }
    var result: Set<String> = []
    var queue = [type]
    while let next = queue.popLast(), result.insert(next).inserted {
      queue.append(contentsOf: inheritors?[next] ?? [])
    }
    descendantCache[type] = result
    return result
  }

  /// ``ancestors(of:facts:)``, remembered: call sites ask about the same few types again and again.
  mutating func ancestors(of type: String, facts: ProjectFacts) -> Set<String> {
    if let known = ancestorCache[type] { return known }
    let result = Self.ancestors(of: type, facts: facts)
    ancestorCache[type] = result
    return result
  }
}
