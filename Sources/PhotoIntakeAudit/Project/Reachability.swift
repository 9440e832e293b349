/// Which functions of an app can run at all: code that nothing calls harms nobody, so findings in it are
/// look-alikes (a helper no screen calls, a service nobody creates, a second copy of a function the app
/// replaced). Such findings are dropped, not lowered: nobody can meet the mistake until a call is written,
/// and the call's own place is then reported.
///
/// Only a whole app can say what nothing calls: the folder must hold its entry point (an `@main`,
/// `@UIApplicationMain` or `@NSApplicationMain` type, or `main.swift`). A library, a snippet or part of a
/// project is called from code the audit cannot see, so there every function runs, and so does every
/// `public` or `open` function of an app's folder (a framework target's API).
///
/// A function runs when the system may call it — an `override`, anything with an attribute such as
/// `@objc`, `@IBAction` or a property wrapper, initializers and `deinit`, members of `@main` or
/// `@objcMembers` types, and members of a type with protocol conformances that are shaped like a
/// requirement (a first parameter without a label, as delegate and data source methods have — `_`, or in Swift 2
/// code no label written; `body`,
/// `makeUIView` and the other well-known requirement names; computed properties) — or when code that runs
/// names it. Names, not resolved calls, decide the second part: any mention of a function's name (a
/// call, `#selector(name)`, a function passed as a value, a key path) from top-level code, a stored
/// property's initializer or a running function keeps every function of that name running. This errs
/// towards "runs": only a function whose name no running code mentions is left out.
///
/// A type is made only where something names it: Swift code that runs (a call, a type annotation, an
/// inheritance clause), a storyboard's or xib's `customClass`, an `Info.plist`, a Core Data model, Objective-C
/// code or a string literal (`NSClassFromString`), see ``InterfaceNames``. The members of an app's own
/// class, struct, enum or actor that nothing names never run — its `viewDidLoad`, actions and delegate
/// methods included — when the folder holds the Xcode project with every storyboard and Info.plist it lists
/// (otherwise a `customClass` might name it). A call without a receiver, or on `self`, of a function its own
/// type declares reaches that type's function and its subclasses' overrides, not other types' functions of
/// the same name.
///
/// SwiftUI views, representables and previews are made only by code that names them, so their members
/// (even `body` and `makeUIView`) and their stored properties' initial values run only once running code
/// names the type; code inside `#Preview { … }` and `PreviewProvider` types is never running code (Xcode's
/// canvas, not the app, runs it). A view that only previews show — named in a preview, or in a view that only
/// previews show, and in no running code — never runs, and neither does a view that no code outside its own
/// declaration and extensions names: Swift makes a value only where its type's name is written (a call, an
/// annotation before `.init()`, a generic's argument, a typealias) or inside the type (`Self()`), and no
/// storyboard or Objective-C code makes a SwiftUI view. Public views are API.
///
/// A folder of several Xcode projects side by side holds several apps (see
/// ``TargetMembership/programs(of:)``): each is followed on its own, so a name one app mentions keeps
/// nothing of another running.
struct Reachability: Sendable {
  /// Per file, per scope: whether that function or computed property (or an accessor or nested
  /// function inside one) never runs.
  private(set) var unreachable: [[Bool]]

  /// - Parameter programs: per file, the apps it belongs to (empty: all of them), when the folder holds
  ///   several (see ``TargetMembership/programs(of:)``). Each app is followed on its own, with its files and
  ///   the shared ones; a function in several apps runs when it runs in any of them.
  init(
    files: [SourceFile], facts: ProjectFacts, interface: InterfaceNames = InterfaceNames(),
    programs: [[Int]]? = nil
  ) {
    if let programs, programs.count == files.count,
      let merged = Self.perProgram(files: files, facts: facts, interface: interface, programs: programs)
    {
      unreachable = merged
      return
    }
    var conformances = Conformances(facts: facts, files: files)
    guard
      conformances.hasAppEntry
        || files.contains(where: { $0.path == "main.swift" || $0.path.hasSuffix("/main.swift") })
    else {
      unreachable = []
      return
    }
    var functions: [(file: Int, scope: Int)] = []
    var byName: [UInt64: [Int]] = [:]
    // Per function, the name of the type (or extension) that declares it; and per type name, the names of
    // the functions it declares, for calls without a receiver.
    var typeOf: [String?] = []
    var declaredNames: [String: Set<UInt64>] = [:]
    let (viewTypes, previewTypes) = Self.typesMadeOnlyByCode(files, facts: facts)
    // Per name of such a type: its functions that would run, waiting for running code to name it.
    var waiting: [UInt64: [Int]] = [:]
    var gatedTypeScopes: [(file: Int, scope: Int, name: UInt64)] = []
    var idOfScope: [[Int32]] = []
    for (fileNumber, file) in files.enumerated() {
      var ids = Array(repeating: Int32(-1), count: file.syntax.scopes.count)
      for (scopeIndex, scope) in file.syntax.scopes.enumerated() where scope.kind == .function {
        ids[scopeIndex] = Int32(functions.count)
        byName[Self.nameHash(file, scopeIndex), default: []].append(functions.count)
        functions.append((fileNumber, scopeIndex))
        let type = file.syntax.enclosing(scope.head, [.type]).flatMap { file.name(of: $0) }
        typeOf.append(type)
        if let type { declaredNames[type, default: []].insert(Self.nameHash(file, scopeIndex)) }
      }
      idOfScope.append(ids)
    }
    // Per function, the names its type declares: looked up once per function, not once per mention.
    let namesOfOwnType = typeOf.map { type in type.flatMap { declaredNames[$0] } }
    // Names each function mentions, and names mentioned where no function encloses the code.
    var mentions = Array(repeating: [Mention](), count: functions.count)
    // With each, the name hash of the type around it, if any: a stored property's initial value
    // (`lazy var list = PhotoListView()`) is computed only once the type is made.
    var roots: [(hash: UInt64, type: UInt64?)] = []
    // Names mentioned inside `#Preview { … }` blocks: the canvas's code, never the app's.
    var previewRoots: [UInt64] = []
    for (fileNumber, file) in files.enumerated() {
      let ids = idOfScope[fileNumber]
      // Per token, whether it is the name in a function's own declaration (not a mention).
      var declared = [Bool](repeating: false, count: file.count)
      for (scopeIndex, scope) in file.syntax.scopes.enumerated()
      where (scope.kind == .function && !Self.isRequirement(file, scopeIndex)) || scope.kind == .type {
        if scope.name >= 0, scope.name < file.count { declared[scope.name] = true }
      }
      Self.markPreviewMacros(file, &declared) { index in
        guard file.kind(index) == .identifier, file.isActive(index),
          file.word(index) == .none || file.word(index).isMentionable
        else { return }
        previewRoots.append(ProjectModel.hash(file, index))
      }
      // The innermost function around each scope, worked out once per scope (a parent is opened, so
      // numbered, before its children) so that deep nesting costs nothing per token.
      var owners = ids
      for (scopeIndex, scope) in file.syntax.scopes.enumerated() where owners[scopeIndex] < 0 {
        let parent = scope.parent
        if parent >= 0, parent < scopeIndex { owners[scopeIndex] = owners[parent] }
      }
      for index in 0..<file.count where file.kind(index) == .identifier && file.isActive(index) {
        guard !declared[index], file.word(index) == .none || file.word(index).isMentionable
        else { continue }
        let hash = ProjectModel.hash(file, index)
        let owner = Int(owners[file.syntax.scope(of: index)])
        guard owner >= 0 else {
          let type = file.syntax.enclosing(index, [.type]).flatMap { scope -> UInt64? in
            let name = file.scope(scope).name
            return name >= 0 && name < file.count ? ProjectModel.hash(file, name) : nil
          }
          roots.append((hash, type))
          continue
        }
        // `load()` or `self.load()` in a method of a type that declares `load` calls that type's `load` (or
        // an override), never another type's.
        var scoped = false
        if namesOfOwnType[owner]?.contains(hash) == true {
          let previous = index - 1
          scoped =
            previous < 0 || file.kind(previous) != .dot
            || (previous > 0 && file.word(previous - 1) == .selfKeyword)
        }
        mentions[owner].append(Mention(hash: hash, scopedTo: scoped ? Int32(owner) : -1))
      }
    }
    var entries: [Int] = []
    // Per file, whether it is Swift 2 code (``SwiftTwoEvidence``), worked out when first needed.
    var swiftTwo = [Bool?](repeating: nil, count: files.count)
    for (id, place) in functions.enumerated()
    where Self.isEntry(
      files[place.file], place.scope, conformances: &conformances,
      swiftTwo: {
        if let known = swiftTwo[place.file] { return known }
        let answer = SwiftTwoEvidence.isSwiftTwo(files[place.file])
        swiftTwo[place.file] = answer
        return answer
      })
    {
      entries.append(id)
    }
    let madeWhereNamed = Self.typesMadeWhereNamed(
      files, facts: facts, interface: interface, views: viewTypes, conformances: conformances)
    // Views, and types made only where named, that only their own code names: those mentions never make
    // them (`static let shared = Manager()` inside `Manager` makes nothing until code outside says `Manager`).
    let unnamedViews = Self.viewsNothingNames(
      viewTypes.union(madeWhereNamed), files: files, interface: interface)
    let madeByCode = Self.typesOnlyPreviewsShow(
      viewTypes, previews: previewTypes, previewRoots: previewRoots,
      entries: entries, functions: functions, files: files, byName: byName,
      mentions: mentions.map { $0.map(\.hash) }
    ).union(madeWhereNamed).union(unnamedViews)
    var runs = Array(repeating: false, count: functions.count)
    var queue: [Int] = []
    // Per function, the view or unnamed type whose members run only once running code names it.
    let gateOf = functions.map { Self.gatingType(files[$0.file], $0.scope, madeByCode) }
    var named: Set<UInt64> = []
    var isWaiting = [Bool](repeating: false, count: functions.count)
    // A function runs when something calls it and, for a member of such a type, once the type is named;
    // until then it waits for the name.
    func run(_ id: Int) {
      guard !runs[id] else { return }
      if let type = gateOf[id], !named.contains(type) {
        if !isWaiting[id] {
          isWaiting[id] = true
          waiting[type, default: []].append(id)
        }
        return
      }
      runs[id] = true
      queue.append(id)
    }
    for id in entries { run(id) }
    for (fileNumber, file) in files.enumerated() where !madeByCode.isEmpty {
      for (scopeIndex, scope) in file.syntax.scopes.enumerated()
      where scope.kind == .type && scope.name >= 0 && scope.name < file.count
        && madeByCode.contains(ProjectModel.hash(file, scope.name))
      {
        gatedTypeScopes.append((fileNumber, scopeIndex, ProjectModel.hash(file, scope.name)))
      }
    }
    // Names every function of which is running, and names already followed from a type's own methods.
    var markedAll: Set<UInt64> = []
    var markedWithin: Set<ScopedName> = []
    var relatedTypes: [TypePair: Bool] = [:]
    // Names in the stored properties' initial values of types made only where named, per type: marked
    // once the type is named.
    var waitingRoots: [UInt64: [UInt64]] = [:]
    func mark(_ hash: UInt64, from caller: Int = -1) {
      if madeByCode.contains(hash), !unnamedViews.contains(hash), named.insert(hash).inserted {
        for id in waiting.removeValue(forKey: hash) ?? [] { run(id) }
        for root in waitingRoots.removeValue(forKey: hash) ?? [] { mark(root) }
      }
      let callees = byName[hash] ?? []
      if caller >= 0, callees.count <= 32, let type = typeOf[caller] {
        if !markedAll.contains(hash), markedWithin.insert(ScopedName(hash: hash, type: type)).inserted {
          // The type's own functions of that name, its subclasses' overrides, its ancestors' and
          // protocols' (an overload the type declares does not hide `pickPhoto()` of an extension of
          // `UIViewController`), extensions of system types, and free functions: only a project type
          // unrelated to the caller's is left out.
          for id in callees {
            if let owner = typeOf[id], owner != type, facts.types[owner] != nil,
              !Self.related(owner, type, facts: facts, answers: &relatedTypes)
            {
              continue
            }
            run(id)
          }
        }
      } else if markedAll.insert(hash).inserted {
        for id in callees { run(id) }
      }
    }
    for root in roots {
      if let type = root.type, madeByCode.contains(type) {
        waitingRoots[type, default: []].append(root.hash)
      }
    }
    for root in roots where root.type.map({ !madeByCode.contains($0) }) ?? true { mark(root.hash) }
    var head = 0
    while head < queue.count {
      let id = queue[head]
      head += 1
      for mention in mentions[id] { mark(mention.hash, from: Int(mention.scopedTo)) }
    }
    unreachable = files.map { Array(repeating: false, count: $0.syntax.scopes.count) }
    for (id, place) in functions.enumerated() where !runs[id] {
      unreachable[place.file][place.scope] = true
    }
    // A view nothing names: its stored properties' initial values are never computed either.
    for place in gatedTypeScopes where !named.contains(place.name) {
      unreachable[place.file][place.scope] = true
    }
    // Accessors and scopes nested in a function that never runs never run either, unless they are
    // functions of their own that something else names.
    for (fileNumber, file) in files.enumerated() {
      for (scopeIndex, scope) in file.syntax.scopes.enumerated()
      where scope.parent > 0 && idOfScope[fileNumber][scopeIndex] < 0 && scope.kind != .type
        && unreachable[fileNumber][scope.parent]
      {
        unreachable[fileNumber][scopeIndex] = true
      }
    }
  }

  /// Whether the code at token `index` of file number `fileNumber` can run: the innermost function around
  /// it (through closures and blocks) runs, or no function encloses it.
  func runs(_ index: Int, inFile fileNumber: Int, _ file: SourceFile) -> Bool {
    guard fileNumber < unreachable.count, index >= 0, index < file.count else { return true }
    return !unreachable[fileNumber][file.syntax.scope(of: index)]
  }

  /// Whether the function declared by scope `scope` of file number `fileNumber` never runs.
  func neverRuns(scope: Int, inFile fileNumber: Int) -> Bool {
    fileNumber < unreachable.count && scope < unreachable[fileNumber].count && unreachable[fileNumber][scope]
  }

  // MARK: Views and previews

  /// What makes a type one that only code creates: SwiftUI's view protocols and previews.
  private static let codeMadeBases: Set<String> = [
    "View", "UIViewRepresentable", "UIViewControllerRepresentable", "NSViewRepresentable",
    "NSViewControllerRepresentable", "PreviewProvider",
  ]

  /// Name hashes of the non-public types that adopt a SwiftUI view protocol or `PreviewProvider` and, among
  /// them, of the `PreviewProvider` types: never running code, whoever names them.
  private static func typesMadeOnlyByCode(
    _ files: [SourceFile], facts: ProjectFacts
  ) -> (made: Set<UInt64>, previews: Set<UInt64>) {
    var made: Set<UInt64> = []
    var api: Set<UInt64> = []
    var previews: Set<UInt64> = []
    // Per type name: whether it is a preview provider, and whether code makes it; a type and its
    // extensions ask once.
    var kinds: [UInt64: (isPreview: Bool, isCodeMade: Bool)] = [:]
    let previewBases: Set<String> = ["PreviewProvider"]
    for file in files {
      for (index, scope) in file.syntax.scopes.enumerated() where scope.kind == .type {
        guard scope.name >= 0, scope.name < file.count, let name = file.name(of: index) else { continue }
        let hash = ProjectModel.hash(file, scope.name)
        let kind =
          kinds[hash]
          ?? (facts.inherits(name, anyOf: previewBases), facts.inherits(name, anyOf: codeMadeBases))
        kinds[hash] = kind
        if kind.isPreview { previews.insert(hash) }
        guard file.word(scope.head) != .protocol, kind.isCodeMade else { continue }
        if file.isPublicOrOpen(declarationAt: scope.head) { api.insert(hash) }
        made.insert(hash)
      }
    }
    let result = made.subtracting(api)
    return (result, previews.intersection(result))
  }

  /// The views that only previews show, with the preview types themselves: what `#Preview` blocks and
  /// `PreviewProvider` members name, and what the views they name name in turn (their `body`, their
  /// representable's `makeUIView`), followed through the functions those mention. Only these views (and
  /// those no code outside themselves names, ``viewsNothingNames(_:files:interface:)``) wait for running
  /// code to name them; a view that other code names (a factory, a helper nothing seems to call) runs.
  private static func typesOnlyPreviewsShow(
    _ views: Set<UInt64>, previews: Set<UInt64>, previewRoots: [UInt64], entries: [Int],
    functions: [(file: Int, scope: Int)], files: [SourceFile], byName: [UInt64: [Int]], mentions: [[UInt64]]
  ) -> Set<UInt64> {
    guard !views.isEmpty else { return [] }
    // Per view or preview type: its members that run once the type is made.
    var membersOf: [UInt64: [Int]] = [:]
    for id in entries {
      if let type = gatingType(files[functions[id].file], functions[id].scope, views) {
        membersOf[type, default: []].append(id)
      }
    }
    var shown: Set<UInt64> = []
    var visited = [Bool](repeating: false, count: functions.count)
    var queue: [Int] = []
    func enqueue(_ ids: [Int]) {
      for id in ids where !visited[id] {
        visited[id] = true
        queue.append(id)
      }
    }
    func visit(_ hash: UInt64) {
      enqueue(byName[hash] ?? [])
      if views.contains(hash), !previews.contains(hash), shown.insert(hash).inserted {
        enqueue(membersOf[hash] ?? [])
      }
    }
    for hash in previewRoots { visit(hash) }
    for preview in previews { enqueue(membersOf[preview] ?? []) }
    var head = 0
    while head < queue.count {
      let id = queue[head]
      head += 1
      for hash in mentions[id] { visit(hash) }
    }
    return previews.union(shown)
  }

  // MARK: Types nothing names

  /// Protocols whose adopters the system makes without Swift code naming them.
  private static let systemMadeBases: Set<String> = [
    "UIApplicationDelegate", "UIWindowSceneDelegate", "UISceneDelegate", "NSApplicationDelegate",
    "WKApplicationDelegate", "WKExtensionDelegate", "XCTestCase", "NSManagedObject", "App", "Widget",
    "WidgetBundle", "UIApplication", "NSExtensionRequestHandling", "AppIntent", "AppShortcutsProvider",
    "PreviewProvider",
  ]

  /// Attributes that leave a type made only by code that names it.
  private static let makeNeutralAttributes: Set<String> = [
    "@MainActor", "@available", "@preconcurrency", "@Observable", "@objcMembers", "@dynamicMemberLookup",
    "@frozen", "@unchecked", "@Sendable",
  ]

  /// Name hashes of the app's own classes, structs, enums and actors that are made only where code names
  /// them: a view controller no storyboard, xib, property list, Objective-C file, string literal or Swift
  /// code names is never made, so nothing of it runs (its `viewDidLoad`, actions and delegate methods
  /// included). Left out, so running whatever names them: public types (API), SwiftUI views (handled by
  /// previews above), types with attributes that hand them to the system (`@main`, `@objc(Name)`,
  /// `@propertyWrapper`, `@Suite`), app and scene delegates, tests and Core Data classes, and every type when
  /// a storyboard or xib the projects list was not found (its `customClass` names are unknown).
  private static func typesMadeWhereNamed(
    _ files: [SourceFile], facts: ProjectFacts, interface: InterfaceNames, views: Set<UInt64>,
    conformances: Conformances
  ) -> Set<UInt64> {
    guard interface.isComplete else { return [] }
    var candidates: [String: UInt64] = [:]
    for file in files where !Self.importsTests(file) {
      for (index, scope) in file.syntax.scopes.enumerated() where scope.kind == .type {
        let head = file.word(scope.head)
        guard head == .class || head == .struct || head == .enum || head == .actor,
          scope.name >= 0, scope.name < file.count, let name = file.name(of: index),
          !conformances.isEntryType(file, index), !file.isPublicOrOpen(declarationAt: scope.head)
        else { continue }
        let hash = ProjectModel.hash(file, scope.name)
        guard !views.contains(hash), !interface.mentions(name),
          !Self.hasSystemAttribute(file, scope.head), !facts.inherits(name, anyOf: systemMadeBases)
        else { continue }
        candidates[name] = hash
      }
    }
    guard !candidates.isEmpty else { return [] }
    // `NSClassFromString("App.Name")`, a storyboard identifier equal to the class name: a name written in a
    // string literal may make the type, so it counts as named.
    forEachWordInStrings(of: files) { candidates.removeValue(forKey: $0) }
    return Set(candidates.values)
  }

  /// Calls `body` with every word (a letter or `_`, then letters, `_` and digits) of the files' string
  /// literals of at most 4,096 bytes: a type named in a string (`NSClassFromString("App.Name")`, a storyboard
  /// identifier equal to the class name) may be made.
  static func forEachWordInStrings(of files: [SourceFile], _ body: (String) -> Void) {
    for file in files {
      for index in 0..<file.count where file.kind(index) == .string {
        let text = file.text(index)
        guard text.utf8.count <= 4096 else { continue }
        var word = ""
        for character in text.unicodeScalars {
          // ASCII letters and digits by range; only other scalars ask Unicode's properties.
          let value = character.value
          let isLetter =
            value < 0x80
            ? (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
            : character.properties.isAlphabetic
          let isDigit =
            value < 0x80 ? value >= 0x30 && value <= 0x39 : character.properties.numericType != nil
          if isLetter || character == "_" || (!word.isEmpty && isDigit) {
            word.unicodeScalars.append(character)
          } else {
            if !word.isEmpty { body(word) }
            word = ""
          }
        }
        if !word.isEmpty { body(word) }
      }
    }
  }

  /// Whether the declaration whose keyword is at `head` has an attribute that hands it to the system or
  /// is used as `@Name` (attributes are no mentions).
  private static func hasSystemAttribute(_ file: SourceFile, _ head: Int) -> Bool {
    var cursor = head - 1
    while cursor >= 0 {
      if file.kind(cursor) == .attribute {
        if !makeNeutralAttributes.contains(file.text(cursor)) { return true }
      } else if file.kind(cursor) == .rightParen, let open = file.match(cursor), open > 0,
        file.kind(open - 1) == .attribute
      {
        if !makeNeutralAttributes.contains(file.text(open - 1)) { return true }
        cursor = open - 1
      } else if !(file.kind(cursor) == .identifier && file.word(cursor).isModifier) {
        return false
      }
      cursor -= 1
    }
    return false
  }

  /// Whether the file imports `XCTest` or `Testing`: their runners make test types by reflection.
  private static func importsTests(_ file: SourceFile) -> Bool {
    for index in 0..<file.count where file.word(index) == .import && index + 1 < file.count {
      let module = file.text(index + 1)
      if module == "XCTest" || module == "Testing" { return true }
    }
    return false
  }

  /// The name hash of the view or preview type that declares function `scope`, if it is one that only
  /// code creates.
  private static func gatingType(_ file: SourceFile, _ scope: Int, _ made: Set<UInt64>) -> UInt64? {
    guard !made.isEmpty, let type = file.syntax.enclosing(file.scope(scope).head, [.type]) else { return nil }
    let name = file.scope(type).name
    guard name >= 0, name < file.count else { return nil }
    let hash = ProjectModel.hash(file, name)
    return made.contains(hash) ? hash : nil
  }

  /// Marks every token of each `#Preview(…) { … }` as no mention of running code (the canvas runs it, the
  /// app never does), and hands each to `preview`, which records what previews name.
  private static func markPreviewMacros(
    _ file: SourceFile, _ skipped: inout [Bool], preview: (Int) -> Void
  ) {
    for index in 0..<file.count where file.kind(index) == .pound && file.text(index) == "#Preview" {
      var end = index
      if file.kind(end + 1) == .leftParen, let close = file.match(end + 1) { end = close }
      if file.kind(end + 1) == .leftBrace, let close = file.match(end + 1) { end = close }
      for token in index...end {
        skipped[token] = true
        preview(token)
      }
    }
  }

  // MARK: Entries

  /// Functions are filed under their name; initializers under `init`, which every mention of a type
  /// reaches through ``isEntry`` anyway.
  private static func nameHash(_ file: SourceFile, _ scope: Int) -> UInt64 {
    ProjectModel.hash(file, file.scope(scope).name)
  }

  /// A requirement declared in a protocol of the project (`var title: String { get }`): its name is a
  /// mention, since calls through the protocol reach every implementation.
  private static func isRequirement(_ file: SourceFile, _ scope: Int) -> Bool {
    let parent = file.scope(scope).parent
    return parent > 0 && file.scope(parent).kind == .type && file.word(file.scope(parent).head) == .protocol
  }

  /// Attributes that say nothing about who calls a declaration.
  private static let inertAttributes: Set<String> = [
    "@MainActor", "@discardableResult", "@available", "@inlinable", "@usableFromInline", "@ViewBuilder",
    "@preconcurrency", "@Sendable", "@nonobjc", "@inline", "@warn_unqualified_access", "@_disfavoredOverload",
  ]

  /// Requirements of dependency-injection packages' protocols, which the package calls: Swinject's
  /// `Assembly` (`assemble(container:)` and `loaded(resolver:)`, called by the `Assembler` that registers
  /// the app's services) and Resolver's `ResolverRegistering` (`registerAllServices()`). A class that
  /// conforms to `Assembly` lists it first, where a superclass would stand.
  private static let containerRequirements: [String: String] = [
    "assemble": "Assembly", "loaded": "Assembly", "registerAllServices": "ResolverRegistering",
  ]

  /// Names of requirements of the SDK's protocols that take no unlabeled first parameter.
  private static let requirementNames: Set<String> = [
    "body", "previews", "makeUIView", "updateUIView", "makeUIViewController", "updateUIViewController",
    "makeNSView", "updateNSView", "makeNSViewController", "updateNSViewController", "makeCoordinator",
    "dismantleUIView", "dismantleUIViewController", "sizeThatFits", "makeBody", "encode", "hash",
    "makeIterator", "next", "reduce", "callAsFunction", "main", "handle", "confirm", "resolve",
    "transferRepresentation", "defaultValue", "object", "writableTypeIdentifiersForItemProvider",
    "readableTypeIdentifiersForItemProvider", "loadData", "itemProviderVisibility", "start", "stop",
  ]

  /// `public extension Photo { … }`: its members are public.
  private static func isPublicExtension(_ file: SourceFile, _ type: Int) -> Bool {
    let head = file.scope(type).head
    guard file.word(head) == .extension else { return false }
    var cursor = head - 1
    while cursor >= 0, file.kind(cursor) == .identifier, file.word(cursor).isModifier {
      if file.word(cursor) == .public || file.word(cursor) == .open { return true }
      cursor -= 1
    }
    return false
  }

  /// - Parameter swiftTwo: whether the file is Swift 2 code, whose delegate methods leave the first
  ///   parameter unlabeled without writing `_` (`func collectionView(collectionView: UICollectionView, …)`).
  private static func isEntry(
    _ file: SourceFile, _ scopeIndex: Int, conformances: inout Conformances, swiftTwo: () -> Bool
  ) -> Bool {
    let scope = file.scope(scopeIndex)
    let head = file.word(scope.head)
    if head == .initKeyword || head == .deinit || head == .subscript { return true }
    if isRequirement(file, scopeIndex) { return true }
    // Operators (`static func ==`) are used by their symbol, which no mention records.
    if file.kind(scope.name) != .identifier { return true }
    var cursor = scope.head - 1
    var isPrivate = false
    while cursor >= 0 {
      if file.kind(cursor) == .attribute {
        if !inertAttributes.contains(file.text(cursor)) { return true }
      } else if file.kind(cursor) == .rightParen, let open = file.match(cursor),
        file.kind(open - 1) == .attribute
      {
        if !inertAttributes.contains(file.text(open - 1)) { return true }
        cursor = open - 1
      } else if file.kind(cursor) == .identifier, file.word(cursor).isModifier {
        switch file.word(cursor) {
        // API of a framework or package target: its callers are outside the folder.
        case .override, .dynamic, .public, .open: return true
        case .private, .fileprivate: isPrivate = true
        default: break
        }
      } else {
        break
      }
      cursor -= 1
    }
    guard let type = file.syntax.enclosing(scope.head, [.type]) else { return false }
    if conformances.isEntryType(file, type) || isPublicExtension(file, type) { return true }
    if let container = containerRequirements[file.text(scope.name)], let typeName = file.name(of: type),
      conformances.facts.types[typeName]?.inherits.contains(container) == true
    {
      return true
    }
    guard !isPrivate, let typeName = file.name(of: type), conformances.hasProtocols(typeName) else {
      return false
    }
    let name = file.text(scope.name)
    if requirementNames.contains(name) { return true }
    // A computed property may be a requirement of any protocol (`var id`, `var description`).
    if head == .var || head == .let { return true }
    if name.hasPrefix("test"), conformances.inheritsTests(typeName) { return true }
    // Delegate and data source methods pass their sender first, without a label.
    var paren = scope.head + 1
    while paren < scope.open, file.kind(paren) != .leftParen { paren += 1 }
    guard paren < scope.open else { return false }
    if file.word(paren + 1) == .none && file.text(paren + 1) == "_" { return true }
    // Swift 2: a first parameter that writes no label of its own has none.
    guard file.kind(paren + 1) == .identifier, file.kind(paren + 2) == .colon else { return false }
    return swiftTwo()
  }
}

/// A name mentioned in a function: `scopedTo` is the function's id when the mention is a call without a
/// receiver (or on `self`) of a function its own type declares, else -1.
private struct Mention {
  var hash: UInt64
  var scopedTo: Int32
}

/// A function name followed from the methods of one type.
private struct TypePair: Hashable {
  var first: String
  var second: String
}

extension Reachability {
  /// How many types ``related(_:_:facts:answers:)`` walks up from each side before it answers "related"
  /// (when in doubt a call is followed): a deep chain of classes costs a bounded walk per pair.
  static let relatedWalkLimit = 64

  /// Whether one of the project's types `a` and `b` inherits from or conforms to the other, within
  /// ``relatedWalkLimit`` steps (beyond it, `true`), answered once per pair.
  fileprivate static func related(
    _ a: String, _ b: String, facts: ProjectFacts, answers: inout [TypePair: Bool]
  ) -> Bool {
    let pair = TypePair(first: a, second: b)
    if let known = answers[pair] { return known }
    func reaches(_ start: String, _ target: String) -> Bool {
      var seen: Set<String> = []
      var queue = [start]
      while let next = queue.popLast() {
        if next == target { return true }
        guard seen.insert(next).inserted else { continue }
        if seen.count > relatedWalkLimit { return true }
        queue.append(contentsOf: facts.types[next]?.inherits ?? [])
      }
      return false
    }
    let answer = reaches(a, b) || reaches(b, a)
    answers[pair] = answer
    return answer
  }
}

private struct ScopedName: Hashable {
  var hash: UInt64
  var type: String
}

/// The protocols each type of the project adopts, in any of its declarations or extensions or through a
/// base class of the project; and the types the system creates (`@main`, `@objcMembers`).
private struct Conformances {
  let facts: ProjectFacts
  /// Per type name: its superclass's name, when a class declaration names one first.
  private var superclass: [String: String] = [:]
  private var protocolsKnown: [String: Bool] = [:]
  private var entryTypes: Set<String> = []
  /// Whether a type is the app's entry point (`@main`, `@UIApplicationMain`, `@NSApplicationMain`).
  private(set) var hasAppEntry = false

  init(facts: ProjectFacts, files: [SourceFile]) {
    self.facts = facts
    for file in files {
      for (index, scope) in file.syntax.scopes.enumerated() where scope.kind == .type {
        guard let name = file.name(of: index) else { continue }
        var cursor = scope.head - 1
        while cursor >= 0, file.kind(cursor) == .attribute || file.word(cursor).isModifier {
          let text = file.text(cursor)
          if text == "@main" || text == "@objcMembers" || text == "@UIApplicationMain"
            || text == "@NSApplicationMain"
          {
            entryTypes.insert(name)
            hasAppEntry = hasAppEntry || text != "@objcMembers"
          }
          cursor -= 1
        }
        guard file.word(scope.head) == .class,
          let first = scope.inheritance.clamped(to: 0..<file.count).first(where: {
            file.kind($0) == .identifier
          })
        else { continue }
        let base = file.text(first)
        if Self.isClassName(base, facts: facts) { superclass[name] = base }
      }
    }
  }

  /// A name a class declaration may inherit first: a class of the project, or an SDK name that does not
  /// read as a protocol.
  private static func isClassName(_ name: String, facts: ProjectFacts) -> Bool {
    let protocolSuffixes = [
      "Delegate", "DataSource", "Protocol", "able", "ible", "Observer", "Representable", "Type", "ing",
      "Provider", "Convertible", "Reading", "Writing", "Error",
    ]
    if ["View", "App", "Scene", "ObservableObject", "Sendable", "Hashable", "Equatable"].contains(name) {
      return false
    }
    return !protocolSuffixes.contains { name.hasSuffix($0) }
  }

  func isEntryType(_ file: SourceFile, _ type: Int) -> Bool {
    guard let name = file.name(of: type) else { return false }
    return entryTypes.contains(name)
  }

  /// Whether the type, or a base class of the project it inherits from, adopts any protocol.
  mutating func hasProtocols(_ name: String) -> Bool {
    if let known = protocolsKnown[name] { return known }
    var answer = false
    var current: String? = name
    var seen: Set<String> = []
    while let type = current, seen.insert(type).inserted {
      let inherits = facts.types[type]?.inherits ?? []
      if inherits.contains(where: { $0 != superclass[type] }) {
        answer = true
        break
      }
      current = superclass[type]
    }
    protocolsKnown[name] = answer
    return answer
  }

  /// Whether the type descends from `XCTestCase`.
  func inheritsTests(_ name: String) -> Bool {
    ProjectModel.ancestors(of: name, facts: facts).contains("XCTestCase")
  }
}

extension Word {
  /// Keywords are never names of the project's functions; every other interned word may be one.
  fileprivate var isMentionable: Bool {
    switch self {
    case .func, .initKeyword, .deinit, .subscript, .class, .struct, .enum, .actor, .extension, .protocol,
      .var, .let, .if, .guard, .else, .for, .while, .repeat, .do, .catch, .defer, .switch, .case, .default,
      .return, .in, .try, .await, .selfKeyword, .selfType, .where, .throws, .rethrows, .import, .typealias,
      .someKeyword, .anyKeyword, .inout, .throw, .break, .continue, .fallthrough, .is, .as, .nil, .true,
      .false:
      false
    default: !isModifier
    }
  }
}
