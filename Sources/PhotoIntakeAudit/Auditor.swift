import Foundation

/// Audits a folder — an Xcode project or a Swift package — for the classic PhotoKit mistakes.
///
/// ```swift
/// let auditor = try Auditor(only: [], disabled: ["picker-legacy"])
/// let report = try auditor.audit(folder: "MyApp")
/// print(TextFormatter.format(report))
/// ```
///
/// The audit reads every Swift file (lexing it with its own lexer, so comments and string literals never
/// trigger a rule), every `Info.plist`, and `INFOPLIST_KEY_*` build settings; it skips `.build`, `Pods`,
/// `Carthage`, `DerivedData` and `.git`, and Swift files that an Xcode project beside them compiles in no
/// target (see ``AuditReport/skipped``). Findings on a line with, or right after, a
/// `// intake-audit:disable rule-id` comment are dropped.
public struct Auditor: Sendable {
  /// The rules this auditor runs.
  public let rules: [RuleDescriptor]
  private let enabled: [any AuditRule]

  /// Every rule the audit knows, in catalog order.
  public static var allRules: [RuleDescriptor] { RuleCatalog.descriptors }

  /// - Parameters:
  ///   - only: rule ids to run; empty runs every rule.
  ///   - disabled: rule ids not to run.
  /// - Throws: ``Error/unknownRule(_:)`` for an id no rule has.
  public init(only: [String] = [], disabled: [String] = []) throws(Auditor.Error) {
    let known = Set(RuleCatalog.all.map(\.descriptor.id))
    for id in only + disabled where !known.contains(id) { throw .unknownRule(id) }
    enabled = RuleCatalog.all.filter { rule in
      (only.isEmpty || only.contains(rule.descriptor.id)) && !disabled.contains(rule.descriptor.id)
    }
    rules = enabled.map(\.descriptor)
  }

  /// Audits the folder at `folder`.
  ///
  /// - Parameter displayName: how findings name the folder, joined with each file's path inside it
  ///   (default: `folder` as given; `.` names files by their path inside it alone).
  /// - Throws: ``Error/notAFolder(_:)`` if `folder` is not a readable folder. Unreadable files inside it
  ///   are skipped, not fatal; files too deeply nested to lex, and files no target of the project compiles,
  ///   are listed in ``AuditReport/skipped``.
  public func audit(folder: String, displayName: String? = nil) throws(Auditor.Error) -> AuditReport {
    let root = URL(fileURLWithPath: folder).standardizedFileURL.path
    let shown = displayName ?? folder
    let inventory = try ProjectScanner.inventory(of: root)
    var facts = ProjectFacts()
    var interface = InterfaceNames()
    var propertyLists: [(path: String, keys: UsageKeyIndex)] = []
    for plist in inventory.propertyLists {
      if let data = FileManager.default.contents(atPath: root + "/" + plist) {
        var keys = UsageKeyIndex()
        keys.addPropertyList(data)
        facts.usageKeys.formUnion(keys)
        propertyLists.append((plist, keys))
        interface.add([UInt8](data), path: plist)
      }
    }
    for path in inventory.interfaceFiles {
      if let bytes = FolderReader.bytes(atPath: root + "/" + path) {
        interface.add(bytes, path: path)
      }
    }
    var conditions = CompilationConditions()
    var membership = TargetMembership()
    var settingsFiles: [(path: String, data: Data)] = []
    for settings in inventory.buildSettings {
      if let data = FileManager.default.contents(atPath: root + "/" + settings) {
        facts.usageKeys.addBuildSettings(data)
        conditions.addBuildSettings(data)
        if settings.hasSuffix("project.pbxproj") {
          let bytes = [UInt8](data)
          let compiled = membership.addProjectFile(at: settings, bytes: bytes)
          facts.usageKeyScopes.addProjectFile(at: settings, bytes: bytes, data: data, compiled: compiled)
          interface.addProjectFile(bytes)
        } else {
          settingsFiles.append((settings, data))
        }
      }
    }
    facts.usageKeyScopes.addConfiguration(propertyLists: propertyLists, settings: settingsFiles)
    for manifest in inventory.swiftFiles
    where manifest == "Package.swift" || manifest.hasSuffix("/Package.swift") {
      let bytes = FileManager.default.contents(atPath: root + "/" + manifest).map { [UInt8]($0) }
      membership.addManifest(at: manifest, bytes: bytes ?? [])
      if let bytes { conditions.addPackageManifest(bytes) }
    }
    for podspec in inventory.podspecs { membership.addManifest(at: podspec) }
    let prefix = shown.hasSuffix("/") ? shown : shown + "/"
    var files: [SourceFile] = []
    var skipped: [SkippedFile] = []
    files.reserveCapacity(inventory.swiftFiles.count)
    for path in inventory.swiftFiles {
      if let project = membership.excludingProject(of: path) {
        // Never built, so never run: a stale copy left beside the file the target compiles.
        skipped.append(
          SkippedFile(
            file: shown == "." || shown == "./" ? path : prefix + path,
            reason:
              "No target of \(project) compiles it (no Sources build phase lists it, or every target that lists it excludes it in EXCLUDED_SOURCE_FILE_NAMES), so it was not audited."
          ))
        continue
      }
      guard let bytes = FolderReader.bytes(atPath: root + "/" + path) else { continue }
      let file = SourceFile(path: path, bytes: bytes, conditions: conditions)
      if file.source.tooDeep {
        skipped.append(
          SkippedFile(
            file: shown == "." || shown == "./" ? path : prefix + path,
            reason:
              "Its string interpolations nest more than \(Lexer.maximumNesting) levels deep, so it was not audited."
          ))
        continue
      }
      files.append(file)
    }
    facts.mainActorByDefault = Set(files.indices.filter { membership.isMainActorByDefault(files[$0].path) })
    // Before any file is added: list contexts in one file may be closures given to a view of another.
    facts.listWrappers = ListWrappers.names(in: files)
    for file in files { facts.add(file) }
    facts.addLargeRenditionReads(files)
    if facts.words.containsAny(ListContext.words) {
      facts.addCallsOfCreatedViews(files)
      facts.addCallsOfListHelpers(files)
    }
    if facts.words.containsAny([.cellForItemAt, .cellForRowAt]) { facts.addCellLoaders(files) }
    if facts.words.contains(.register) {
      facts.addAppLifetimeTypes(
        files, roots: interface.lifetimeClasses.union(ProjectFacts.swiftUIRoots(files)))
    }
    if facts.words.containsAny([.UIImage, .copyCGImage, .CGImageSourceCreateImageAtIndex]) {
      facts.decodeFlows = DecodeFlows(files: files, listDataNames: facts.listDataNames)
    }
    if facts.words.contains(.SourceType), facts.words.containsAny([.photoLibrary, .savedPhotosAlbum]) {
      facts.addUnreachedSourceDefaults(files)
    }
    let reachability = Reachability(
      files: files, facts: facts, interface: interface, programs: membership.programs(of: files.map(\.path)))
    facts.reachability = reachability
    if Self.needsModel.contains(where: facts.words.contains) {
      facts.model = ProjectModel(files: files, facts: facts)
    }
    var findings: [Finding] = []
    for (fileNumber, file) in files.enumerated() {
      for rule in enabled where rule.triggers.contains(where: { file.source.words.contains($0) }) {
        // Code that never runs harms nobody: a helper nothing calls, a service nobody creates.
        for var finding in rule.check(file, project: facts)
        where !Self.isSuppressed(finding, in: file) && !file.isInactive(line: finding.line)
          && reachability.runs(
            file.token(atLine: finding.line, column: finding.column), inFile: fileNumber, file)
        {
          finding.pathInRoot = file.path
          finding.file = shown == "." || shown == "./" ? file.path : prefix + file.path
          for step in finding.contextPath.indices {
            let inRoot = finding.contextPath[step].file
            finding.contextPath[step].pathInRoot = inRoot
            finding.contextPath[step].file = shown == "." || shown == "./" ? inRoot : prefix + inRoot
          }
          findings.append(finding)
        }
      }
    }
    findings.sort { ($0.file, $0.line, $0.column, $0.rule) < ($1.file, $1.line, $1.column, $1.rule) }
    var report = AuditReport(findings: findings, swiftFiles: files.count, rules: rules, root: root)
    report.skipped = skipped
    return report
  }

  /// Words of the rules that ask where code runs; the call graph is built only when one occurs.
  private static let needsModel: [Word] = [
    .startRunning, .stopRunning, .isSynchronous, .copyCGImage, .tracks, .duration, .commonMetadata,
    .isPlayable, .wait, .loadFileRepresentation, .UserDefaults, .AppStorage, .performChangesAndWait,
  ]

  /// A `// intake-audit:disable id` comment applies to its own line and the line after it.
  private static func isSuppressed(_ finding: Finding, in file: SourceFile) -> Bool {
    file.source.suppressions.contains { suppression in
      (suppression.line == finding.line || suppression.line == finding.line - 1)
        && (suppression.ruleIDs.contains(finding.rule) || suppression.ruleIDs.contains("all"))
    }
  }
}
