/// Which Swift files the folder's Xcode projects compile: a file that no target's Sources build phase lists
/// (a stale `View copy 2.swift`, a file removed from the target but left on disk) is never built, so the
/// audit skips it and says so, rather than report mistakes no user can meet.
///
/// It errs towards auditing. A file is skipped only when every project whose folder holds it has readable
/// Sources build phases and none of them lists a file of that name, and no `Package.swift` or podspec in
/// its folders could compile it instead. Projects with folders Xcode compiles whole
/// (`PBXFileSystemSynchronizedRootGroup`, Xcode 16) and build-settings-only project files decide nothing.
/// Files are matched by name, not by resolved group path: a stale file that shares its name with a compiled
/// one is audited. A file a target lists but every build configuration that sets `EXCLUDED_SOURCE_FILE_NAMES`
/// excludes (a folder of book snippets, `"Snippets/*"`, in both Debug and Release) is not compiled either.
struct TargetMembership: Sendable {
  private struct Project: Sendable {
    /// The folder the `.xcodeproj` sits in, relative to the audit root (`""` for the root itself).
    var folder: String
    /// The `.xcodeproj` (or the project file itself), as the skip reason names it.
    var name: String
    /// Names of the files its Sources build phases compile.
    var compiled: Set<String>
    /// `EXCLUDED_SOURCE_FILE_NAMES` patterns that every build configuration of the project lists, for a
    /// project whose targets could not be told apart.
    var excluded: [String] = []
    /// For each file name a target that excludes files compiles: the patterns of each target compiling
    /// it (empty for a target that excludes nothing). Empty when no target excludes a file.
    var excludedByTarget: [String: [[String]]] = [:]
  }

  /// A project's or package's targets as ``isMainActorByDefault(_:)`` asks them, kept only when one of them
  /// is main-actor by default.
  private struct IsolationProject: Sendable {
    /// The folder the `.xcodeproj` or `Package.swift` sits in, relative to the audit root.
    var folder: String
    var targets: [IsolationTarget]
  }

  /// A target as ``isMainActorByDefault(_:)`` asks it: what it compiles and its default isolation.
  private struct IsolationTarget: Sendable {
    /// Names of the files its Sources build phases list.
    var names: Set<String>
    /// Folders (relative to the project's folder) it compiles whole: Xcode 16's synchronized groups, or a
    /// package target's sources.
    var folders: [String]
    var isMainActor: Bool
  }

  private var projects: [Project] = []
  /// Per folder, the indices in `projects` of the projects that sit in it: a file asks the folders above it,
  /// so a folder of hundreds of projects costs each file its depth, not the projects.
  private var projectsInFolder: [String: [Int]] = [:]
  /// Folders of `Package.swift` manifests and podspecs: their sources are built without any project file.
  private var manifestFolders: Set<String> = []
  /// Projects and packages with a target whose code is main-actor by default.
  private var isolationProjects: [IsolationProject] = []
  /// The targets and folders of `isolationProjects`, or -1 once there were too many to ask.
  private var isolationCost = 0
  /// Folders of every project file read (readable build phases or not), for ``programs(of:)``.
  private var projectFolders: Set<String> = []
  /// Some project's targets build no app (only frameworks, libraries or targets of unknown kind), which apps
  /// beside it may link: then the folder is one program.
  private var linksLibraries = false

  /// Reads the Sources build phases of the project file at `path` (relative to the audit root), and
  /// returns the names they compile (nil when it has none or compiles synchronized folders).
  @discardableResult
  mutating func addProjectFile(at path: String, bytes: [UInt8]) -> Set<String>? {
    var folder = Self.folder(of: path)
    var name = path
    if folder.hasSuffix(".xcodeproj") {
      name = folder
      folder = Self.folder(of: folder)
    }
    projectFolders.insert(folder)
    guard let objects = Self.objects(in: bytes) else { return nil }
    // A project that builds no app (a framework, a library, a kit) is linked into apps beside it: its
    // callbacks run in them, so the folder is one program.
    let targets = objects.values.filter { $0.fields["isa"] == "PBXNativeTarget" }
    if !targets.isEmpty,
      !targets.contains(where: { $0.fields["productType"]?.contains("application") ?? false })
    {
      linksLibraries = true
    }
    addIsolation(IsolationProject(folder: folder, targets: Self.isolationTargets(objects)))
    guard let compiled = Self.compiledNames(objects) else { return nil }
    var project = Project(folder: folder, name: name, compiled: compiled)
    if let byTarget = Self.excludedByTarget(objects) {
      project.excludedByTarget = byTarget
    } else {
      project.excluded = Self.excludedPatterns(objects)
    }
    projectsInFolder[folder, default: []].append(projects.count)
    projects.append(project)
    return compiled
  }

  /// Notes a `Package.swift` or podspec at `path`: files below its folder are always audited. A package
  /// manifest's `bytes` also say which of its targets are main-actor by default
  /// (`swiftSettings: [.defaultIsolation(MainActor.self)]`, Swift 6.2).
  mutating func addManifest(at path: String, bytes: [UInt8] = []) {
    let folder = Self.folder(of: path)
    manifestFolders.insert(folder)
    let folders = Self.mainActorPackageTargets(bytes)
    if !folders.isEmpty {
      addIsolation(
        IsolationProject(
          folder: folder, targets: [IsolationTarget(names: [], folders: folders, isMainActor: true)]))
    }
  }

  /// Keeps a project with a main-actor target. Every Swift file asks each kept target and folder, so past
  /// 512 of them in all (no real folder comes near) the default isolation decides nothing.
  private mutating func addIsolation(_ project: IsolationProject) {
    guard !project.targets.isEmpty, isolationCost >= 0 else { return }
    isolationCost += project.targets.reduce(0) { $0 + 1 + $1.folders.count }
    if isolationCost > 512 {
      isolationCost = -1
      isolationProjects = []
    } else {
      isolationProjects.append(project)
    }
  }

  /// Whether a `Package.swift` or podspec sits in a folder holding `path`: one look per folder above it, so
  /// a folder of thousands of packages costs each file its depth, not the packages.
  private func isUnderManifest(_ path: String) -> Bool {
    guard !manifestFolders.isEmpty else { return false }
    return Self.forEachFolder(above: path) { manifestFolders.contains($0) }
  }

  /// Calls `body` with each folder holding `path`, innermost first, up to the audit root (`""`), until it
  /// returns true; returns whether it did.
  @discardableResult
  private static func forEachFolder(above path: String, _ body: (String) -> Bool) -> Bool {
    var folder = Self.folder(of: path)
    while true {
      if body(folder) { return true }
      if folder.isEmpty { return false }
      folder = Self.folder(of: folder)
    }
  }

  /// Whether the Swift file at `path` is compiled only by targets whose code is main-actor unless it says
  /// otherwise: Xcode's `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor` (what Xcode 26 sets for new app
  /// targets) in every build configuration of each target that compiles it, or a package target's
  /// `.defaultIsolation(MainActor.self)`. False when any target that compiles it is not, or none says.
  func isMainActorByDefault(_ path: String) -> Bool {
    let name = Self.lastComponent(path)
    var any = false
    for project in isolationProjects where Self.isInside(path, project.folder) {
      let inProject = project.folder.isEmpty ? path : String(path.dropFirst(project.folder.count + 1))
      for target in project.targets
      where target.names.contains(name) || target.folders.contains(where: { Self.isInside(inProject, $0) }) {
        guard target.isMainActor else { return false }
        any = true
      }
    }
    return any
  }

  /// The project that holds the Swift file at `path` but compiles it in no target, or nil when a target
  /// compiles it or nothing says.
  func excludingProject(of path: String) -> String? {
    var indices: [Int] = []
    Self.forEachFolder(above: path) { folder in
      indices += projectsInFolder[folder] ?? []
      return false
    }
    let governing = indices.sorted().map { projects[$0] }
    guard let first = governing.first,
      !isUnderManifest(path)
    else { return nil }
    let name = Self.lastComponent(path)
    return governing.contains { project in
      guard project.compiled.contains(name) else { return false }
      let inProject = project.folder.isEmpty ? path : String(path.dropFirst(project.folder.count + 1))
      func excludes(_ patterns: [String]) -> Bool {
        patterns.contains { Self.glob($0, matches: inProject) || Self.glob($0, matches: name) }
      }
      // Compiled unless every target that lists it excludes it.
      if let targets = project.excludedByTarget[name] { return !targets.allSatisfy(excludes) }
      return !excludes(project.excluded)
    } ? nil : first.name
  }

  /// Per Swift file at `paths`, the programs it belongs to (empty: every program); nil when the folder is
  /// one program. A folder of several Xcode projects side by side (a course's one app per day) holds
  /// several apps, and a name one app mentions calls nothing in another. A file belongs to the project
  /// whose folder holds it, and to every project that compiles a file of its name without holding one
  /// (`../Shared/Theme.swift`, a file of a sibling project); files outside every project's folder that no
  /// project compiles (a playground's page, a loose snippet) are one more program of their own, or shared by
  /// every program when a project's build phases could not be read (synchronized folders). A project
  /// inside another project's folder belongs to the outer one too when that one compiles a file of its name
  /// (or its build phases are unreadable). Files of a `Package.swift` or podspec folder are shared by every
  /// program. The folder is one program when a project sits at its root, or when fewer than two programs
  /// hold Swift files.
  func programs(of paths: [String]) -> [[Int]]? {
    guard projectFolders.count >= 2, !projectFolders.contains(""), !linksLibraries else { return nil }
    var numbers: [String: Int] = [:]
    for folder in projectFolders.sorted() { numbers[folder] = numbers.count }
    // Per project folder: the names its Sources build phases compile (nil: unknown, so any).
    var compiledIn: [String: Set<String>] = [:]
    for project in projects { compiledIn[project.folder, default: []].formUnion(project.compiled) }
    // The projects whose folders hold `path`, innermost first.
    func holders(of path: String) -> [(number: Int, folder: String)] {
      var folder = Self.folder(of: path)
      var found: [(number: Int, folder: String)] = []
      while !folder.isEmpty {
        if let number = numbers[folder] { found.append((number, folder)) }
        folder = Self.folder(of: folder)
      }
      return found
    }
    // Per project folder: the names of the Swift files it holds.
    var held: [String: Set<String>] = [:]
    var owners: [[(number: Int, folder: String)]] = []
    owners.reserveCapacity(paths.count)
    for path in paths {
      let found = holders(of: path)
      owners.append(found)
      if let folder = found.first?.folder { held[folder, default: []].insert(Self.lastComponent(path)) }
    }
    // Per file name: the projects that compile it without holding a file of that name.
    var borrowers: [String: [Int]] = [:]
    for project in projects {
      guard let number = numbers[project.folder] else { continue }
      let own = held[project.folder] ?? []
      for name in project.compiled where name.hasSuffix(".swift") && !own.contains(name) {
        borrowers[name, default: []].append(number)
      }
    }
    let loose = numbers.count
    // A project whose build phases could not be read (synchronized folders, an unreadable file) may compile
    // files outside its folder that no name says: then files outside every project are shared.
    let everyProjectRead = Set(projects.map(\.folder)).count == projectFolders.count
    var result: [[Int]] = []
    result.reserveCapacity(paths.count)
    var distinct: Set<Int> = []
    for (path, holders) in zip(paths, owners) {
      if isUnderManifest(path) {
        result.append([])
        continue
      }
      let name = Self.lastComponent(path)
      var programs = borrowers[name] ?? []
      if let owner = holders.first {
        programs.append(owner.number)
        // A project around the owner's folder compiles it too when it lists its name (or says nothing).
        for outer in holders.dropFirst() where compiledIn[outer.folder]?.contains(name) ?? true {
          programs.append(outer.number)
        }
      } else if programs.isEmpty {
        guard everyProjectRead else {
          result.append([])
          continue
        }
        // Outside every project, and no project compiles a file of its name: part of no app.
        programs.append(loose)
      }
      distinct.formUnion(programs)
      result.append(programs)
    }
    return distinct.count >= 2 ? result : nil
  }

  /// `fnmatch(3)`-style matching of `*` and `?` (no brackets), as Xcode matches `EXCLUDED_SOURCE_FILE_NAMES`;
  /// iterative, with one backtrack point, so a pattern costs at most its length times the text's.
  static func glob(_ pattern: String, matches text: String) -> Bool {
    let pattern = Array(pattern.utf8)
    let text = Array(text.utf8)
    guard pattern.count <= 256 else { return false }
    var p = 0
    var t = 0
    var star = -1
    var mark = 0
    while t < text.count {
      if p < pattern.count, pattern[p] == 0x3F || pattern[p] == text[t] {
        p += 1
        t += 1
      } else if p < pattern.count, pattern[p] == 0x2A {
        star = p
        mark = t
        p += 1
      } else if star >= 0 {
        p = star + 1
        mark += 1
        t = mark
      } else {
        return false
      }
    }
    while p < pattern.count, pattern[p] == 0x2A { p += 1 }
    return p == pattern.count
  }

  // MARK: Paths

  private static func folder(of path: String) -> String { ProjectPath.folder(of: path) }

  private static func lastComponent(_ path: String) -> String { ProjectPath.lastComponent(path) }

  private static func isInside(_ path: String, _ folder: String) -> Bool {
    folder.isEmpty || path.hasPrefix(folder + "/")
  }

  // MARK: Project files

  /// One object of a project file's `objects` dictionary: its string fields and its `files` list.
  private struct Object {
    var fields: [String: String] = [:]
    var files: [String] = []
    /// A target's `buildPhases` and a configuration list's `buildConfigurations` (object ids).
    var phases: [String] = []
    var configurations: [String] = []
    /// Its `buildSettings`' `EXCLUDED_SOURCE_FILE_NAMES` patterns, and whether it sets them at all.
    var excluded: [String] = []
    var setsExcluded = false
    /// Its `buildSettings`' `SWIFT_DEFAULT_ACTOR_ISOLATION`, and a target's `fileSystemSynchronizedGroups`.
    var defaultIsolation: String?
    var synchronizedGroups: [String] = []
  }

  /// The patterns that every build configuration of the project lists in `EXCLUDED_SOURCE_FILE_NAMES`, when
  /// there are at least two (a Debug-only exclusion still ships in Release, and one target's exclusion
  /// does not keep another target from compiling the file: a configuration that does not set it, of any
  /// target, keeps every file). At most 64, each matched against every file of the project, so a project
  /// file of thousands of patterns costs no more than a real one (files a pattern past the 64th would
  /// exclude are audited).
  private static func excludedPatterns(_ objects: [String: Object]) -> [String] {
    let setting = objects.values.filter(\.setsExcluded)
    let configurations = objects.values.filter { $0.fields["isa"] == "XCBuildConfiguration" }.count
    guard setting.count >= 2, setting.count <= 64, setting.count == configurations, let first = setting.first
    else { return [] }
    let shared = first.excluded.prefix(64).filter { pattern in
      setting.allSatisfy { $0.excluded.prefix(64).contains(pattern) }
    }
    return Array(shared)
  }

  /// Per target (`PBXNativeTarget`): the patterns every build configuration of its own list excludes
  /// (none when one of them sets nothing: a Debug-only exclusion still ships in Release), filed under the
  /// names its Sources phases compile, so a file is skipped only when every target listing it excludes it.
  /// Nil when no target excludes anything, or when the targets cannot be read (the project-wide rule
  /// answers then). One pass over the targets, their phases and their configurations: linear in the file.
  private static func excludedByTarget(_ objects: [String: Object]) -> [String: [[String]]]? {
    var targets: [(compiled: [String], patterns: [String])] = []
    var anyPatterns = false
    for object in objects.values where object.fields["isa"] == "PBXNativeTarget" {
      guard let listID = object.fields["buildConfigurationList"], let list = objects[listID] else {
        return nil
      }
      let configurations = list.configurations.prefix(64).compactMap { objects[$0] }
      var patterns: [String] = []
      if let first = configurations.first, configurations.allSatisfy(\.setsExcluded) {
        patterns = first.excluded.prefix(64).filter { pattern in
          configurations.allSatisfy { $0.excluded.prefix(64).contains(pattern) }
        }
      }
      anyPatterns = anyPatterns || !patterns.isEmpty
      targets.append((compiledNames(of: object, objects), patterns))
    }
    guard anyPatterns else { return nil }
    var byName: [String: [[String]]] = [:]
    for target in targets {
      for name in Set(target.compiled) { byName[name, default: []].append(target.patterns) }
    }
    return byName
  }

  /// The names of the files a native target's Sources build phases list (through each `PBXBuildFile`'s
  /// `fileRef` to the `PBXFileReference`'s `path` or `name`).
  private static func compiledNames(of target: Object, _ objects: [String: Object]) -> [String] {
    var compiled: [String] = []
    for phaseID in target.phases {
      guard let phase = objects[phaseID], phase.fields["isa"] == "PBXSourcesBuildPhase" else { continue }
      for id in phase.files {
        guard let reference = objects[id]?.fields["fileRef"], let file = objects[reference],
          let path = file.fields["path"] ?? file.fields["name"]
        else { continue }
        compiled.append(lastComponent(path))
      }
    }
    return compiled
  }

  /// Each native target's default isolation, with what it compiles, when any target is main-actor by
  /// default: a configuration that does not set `SWIFT_DEFAULT_ACTOR_ISOLATION` takes the project's
  /// configuration of the same name, and a target is main-actor only when every configuration of its own
  /// list (at most 64) says `MainActor`. One pass over targets, phases and configurations; empty for a
  /// project of more than 256 targets.
  private static func isolationTargets(_ objects: [String: Object]) -> [IsolationTarget] {
    guard objects.values.contains(where: { $0.defaultIsolation == "MainActor" }) else { return [] }
    var projectLevel: [String: String] = [:]
    for object in objects.values where object.fields["isa"] == "PBXProject" {
      guard let listID = object.fields["buildConfigurationList"], let list = objects[listID] else { continue }
      for id in list.configurations.prefix(64) {
        if let configuration = objects[id], let name = configuration.fields["name"],
          let value = configuration.defaultIsolation
        {
          projectLevel[name] = value
        }
      }
    }
    var targets: [IsolationTarget] = []
    for object in objects.values where object.fields["isa"] == "PBXNativeTarget" {
      // Each file asks every target: a project of more than 256 decides nothing, so none costs more.
      guard targets.count < 256 else { return [] }
      var isMainActor = false
      if let listID = object.fields["buildConfigurationList"], let list = objects[listID] {
        let configurations = list.configurations.prefix(64).compactMap { objects[$0] }
        isMainActor =
          !configurations.isEmpty
          && configurations.allSatisfy {
            // Its own setting, else the project's configuration of its name — unless it is based on an
            // `.xcconfig` (`baseConfigurationReference`), whose setting is unknown here.
            ($0.defaultIsolation
              ?? ($0.fields["baseConfigurationReference"] == nil
                ? $0.fields["name"].flatMap { projectLevel[$0] } : nil))
              == "MainActor"
          }
      }
      let names = Set(compiledNames(of: object, objects))
      let folders = object.synchronizedGroups.prefix(64).compactMap { objects[$0]?.fields["path"] }
      targets.append(IsolationTarget(names: names, folders: folders, isMainActor: isMainActor))
    }
    return targets
  }

  /// The source folders (relative to the manifest's) of a package's targets that set
  /// `.defaultIsolation(MainActor.self)` in their own call (`.target(name:…, swiftSettings: [
  /// .defaultIsolation(MainActor.self)])`): the target's `path:` when it gives one, else `Sources/<name>`.
  /// The manifest is lexed, so a commented-out setting counts for nothing, a dependency's `name:` is not the
  /// target's, and a setting kept in a variable outside the call decides nothing. At most 64 targets.
  static func mainActorPackageTargets(_ bytes: [UInt8]) -> [String] {
    guard ASCII.contains(bytes, "defaultIsolation") else { return [] }
    let file = SourceFile(path: "Package.swift", bytes: bytes)
    let targetCalls: Set<String> = ["target", "executableTarget", "testTarget"]
    var folders: [String] = []
    for index in 0..<file.count
    where folders.count < 64 && file.kind(index) == .identifier && file.text(index) == "defaultIsolation"
      && file.kind(index + 1) == .leftParen && file.text(index + 2) == "MainActor"
      && file.kind(index + 3) == .dot
      && file.text(index + 4) == "self"
    {
      // Out through the settings array to the call of the target that lists it.
      var open = Int(file.syntax.enclosingOpen[index])
      var steps = 0
      while open > 0, steps < 4,
        !(file.kind(open) == .leftParen && targetCalls.contains(file.text(open - 1)))
      {
        open = Int(file.syntax.enclosingOpen[open])
        steps += 1
      }
      guard open > 0, file.kind(open) == .leftParen, targetCalls.contains(file.text(open - 1)),
        let close = file.match(open)
      else { continue }
      var name: String?
      var path: String?
      var start = open + 1
      while start < close {
        let end = file.endOfArgument(from: start, close: close)
        if file.kind(start) == .identifier, file.kind(start + 1) == .colon, file.kind(start + 2) == .string {
          if file.text(start) == "name" { name = unquoted(file.text(start + 2)) }
          if file.text(start) == "path" { path = unquoted(file.text(start + 2)) }
        }
        start = end + 1
      }
      if let path {
        folders.append(path)
      } else if let name {
        folders.append("Sources/" + name)
      }
    }
    return folders
  }

  /// Strips the quotes a pattern or a manifest's string literal keeps (`"\"Snippets/*\""`, `"Camera"`).
  private static func unquoted(_ text: String) -> String {
    guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
    return String(text.dropFirst().dropLast())
  }

  /// Names of the files listed in the project file's `PBXSourcesBuildPhase`s (through each
  /// `PBXBuildFile`'s `fileRef` to the `PBXFileReference`'s `path` or `name`), or nil when the file has
  /// no Sources build phase, compiles synchronized folders, or cannot be read.
  static func compiledNames(in bytes: [UInt8]) -> Set<String>? {
    objects(in: bytes).flatMap(compiledNames)
  }

  private static func compiledNames(_ objects: [String: Object]) -> Set<String>? {
    var compiled: Set<String> = []
    var phases = 0
    for object in objects.values {
      switch object.fields["isa"] {
      case "PBXFileSystemSynchronizedRootGroup": return nil
      case "PBXSourcesBuildPhase":
        phases += 1
        for id in object.files {
          guard let reference = objects[id]?.fields["fileRef"], let file = objects[reference],
            let path = file.fields["path"] ?? file.fields["name"]
          else { continue }
          compiled.insert(lastComponent(path))
        }
      default: break
      }
    }
    return phases > 0 ? compiled : nil
  }

  /// The `objects` of an old-style property list project file, read in one pass with a stack of open
  /// containers (no recursion, so no nesting can exhaust the stack); nil when the brackets do not balance.
  private static func objects(in bytes: [UInt8]) -> [String: Object]? {
    var objects: [String: Object] = [:]
    // The key each open container is the value of (`""` for the root and array items); `true` for arrays.
    var containers: [(key: String, isArray: Bool)] = []
    var key: String?
    var expectsValue = false
    var reader = PropertyListReader(bytes: bytes)
    while let token = reader.next() {
      switch token {
      case .open(let isArray):
        if expectsValue, key == "EXCLUDED_SOURCE_FILE_NAMES", containers.count == 4,
          containers[1].key == "objects", containers[3].key == "buildSettings"
        {
          objects[containers[2].key, default: Object()].setsExcluded = true
        }
        containers.append((expectsValue ? key ?? "" : "", isArray))
        key = nil
        expectsValue = false
      case .close:
        guard containers.popLast() != nil else { return nil }
      case .equals:
        expectsValue = true
      case .separator:
        key = nil
        expectsValue = false
      case .string(let text):
        // root (0) → objects (1) → one object (2) → its `files` list (3)
        if containers.last?.isArray == true {
          if containers.count == 4, containers[1].key == "objects", containers[3].key == "files" {
            objects[containers[2].key, default: Object()].files.append(text)
          } else if containers.count == 4, containers[1].key == "objects", containers[3].key == "buildPhases"
          {
            objects[containers[2].key, default: Object()].phases.append(text)
          } else if containers.count == 4, containers[1].key == "objects",
            containers[3].key == "buildConfigurations"
          {
            objects[containers[2].key, default: Object()].configurations.append(text)
          } else if containers.count == 4, containers[1].key == "objects",
            containers[3].key == "fileSystemSynchronizedGroups"
          {
            objects[containers[2].key, default: Object()].synchronizedGroups.append(text)
          } else if containers.count == 5, containers[1].key == "objects",
            containers[3].key == "buildSettings", containers[4].key == "EXCLUDED_SOURCE_FILE_NAMES"
          {
            objects[containers[2].key, default: Object()].excluded.append(unquoted(text))
          }
        } else if expectsValue {
          if containers.count == 3, containers[1].key == "objects", let key {
            objects[containers[2].key, default: Object()].fields[key] = text
          } else if containers.count == 4, containers[1].key == "objects",
            containers[3].key == "buildSettings", key == "EXCLUDED_SOURCE_FILE_NAMES"
          {
            objects[containers[2].key, default: Object()].setsExcluded = true
            objects[containers[2].key, default: Object()].excluded += text.split(separator: " ").map {
              unquoted(String($0))
            }
          } else if containers.count == 4, containers[1].key == "objects",
            containers[3].key == "buildSettings", key == "SWIFT_DEFAULT_ACTOR_ISOLATION"
          {
            objects[containers[2].key, default: Object()].defaultIsolation = text
          }
          expectsValue = false
        } else {
          key = text
        }
      }
    }
    return containers.isEmpty ? objects : nil
  }
}

/// The tokens of an old-style (OpenStep) property list, as `project.pbxproj` files are written: brackets,
/// `=`, `;` and `,`, and strings bare or quoted; comments skipped.
private struct PropertyListReader {
  enum Token {
    case open(isArray: Bool)
    case close
    case equals
    case separator
    case string(String)
  }

  let bytes: [UInt8]
  var offset = 0

  mutating func next() -> Token? {
    while offset < bytes.count {
      let byte = bytes[offset]
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0D:
        offset += 1
      case 0x2F where offset + 1 < bytes.count && bytes[offset + 1] == 0x2A:  // /* … */
        offset += 2
        while offset + 1 < bytes.count, !(bytes[offset] == 0x2A && bytes[offset + 1] == 0x2F) { offset += 1 }
        offset += 2
      case 0x2F where offset + 1 < bytes.count && bytes[offset + 1] == 0x2F:  // // …
        while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 }
      case 0x7B, 0x28:  // { (
        offset += 1
        return .open(isArray: byte == 0x28)
      case 0x7D, 0x29:  // } )
        offset += 1
        return .close
      case 0x3D:  // =
        offset += 1
        return .equals
      case 0x3B, 0x2C:  // ; ,
        offset += 1
        return .separator
      case 0x22:  // "…", with backslash escapes
        offset += 1
        var text: [UInt8] = []
        while offset < bytes.count, bytes[offset] != 0x22 {
          if bytes[offset] == 0x5C, offset + 1 < bytes.count { offset += 1 }
          text.append(bytes[offset])
          offset += 1
        }
        offset += 1
        return .string(String(decoding: text, as: UTF8.self))
      default:
        let start = offset
        while offset < bytes.count, !Self.ends(bytes[offset]) { offset += 1 }
        if offset == start { offset += 1 }
        return .string(String(decoding: bytes[start..<offset], as: UTF8.self))
      }
    }
    return nil
  }

  /// Bytes that end a bare string.
  private static func ends(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x09, 0x0A, 0x0D, 0x7B, 0x7D, 0x28, 0x29, 0x3D, 0x3B, 0x2C, 0x22: true
    default: false
    }
  }
}
