import Foundation

/// Which app's usage keys cover each Swift file, in folders that hold several apps.
///
/// Course materials, demo collections and an app beside its sample hold one Xcode project per app, each with
/// its own `Info.plist` and `INFOPLIST_KEY_*` settings: a camera key in one demo's `Info.plist` does not stop
/// another demo from crashing when it opens the camera. A Swift file belongs to the nearest Xcode project
/// whose folder holds it (the folder the `.xcodeproj` sits in, Xcode's `SRCROOT`), and that project's keys
/// are the ones read from
/// - its `project.pbxproj` and the `.xcconfig` files in its folder (`INFOPLIST_KEY_*`),
/// - the `Info.plist` files in its folder that no nearer project's folder holds, and
/// - the `Info.plist` files its `INFOPLIST_FILE` settings name, wherever they are (`../Shared/Info.plist`).
///
/// It errs towards silence: a file falls back to every key of the folder (``UsageKeyIndex``, as before) when
/// no project's folder holds it, when its project names an `INFOPLIST_FILE` that cannot be found (a build
/// variable, a name that is not `Info.plist`), when its project compiles no file of that name (another
/// project compiles it from outside), or when its project builds only frameworks and libraries (their keys are
/// the host app's). `.xcconfig` files outside every project's folder count for every project.
///
/// Linear: every file of the folder is read once; a Swift file's project is found by looking its parent
/// folders up in a dictionary (as deep as its path).
struct UsageKeyScopes: Sendable {
  private struct Project: Sendable {
    /// The `.xcodeproj` as findings name it (the first, when a folder holds several).
    var name: String
    var keys = UsageKeyIndex()
    /// Resolved `INFOPLIST_FILE` paths (relative to the audit root).
    var namedPropertyLists: [String] = []
    /// An `INFOPLIST_FILE` names something that cannot be found or resolved.
    var hasUnresolvedPropertyList = false
    /// Names of the files its Sources build phases compile; nil when unknown (no phase read, or
    /// synchronized folders).
    var compiled: Set<String>? = []
  }

  /// Projects by the folder their `.xcodeproj` sits in (`""` for the audit root).
  private var projects: [String: Project] = [:]
  /// Keys of `.xcconfig` files that no project's folder holds, added to every project.
  private var sharedSettings = UsageKeyIndex()
  private var sharedSettingsNameFiles = false

  /// Whether any Xcode project was read: without one, every file uses the folder's keys.
  var isEmpty: Bool { projects.isEmpty }

  /// Reads a `project.pbxproj` at `path` (relative to the audit root) with the names its Sources build
  /// phases compile (nil when unknown).
  mutating func addProjectFile(at path: String, bytes: [UInt8], data: Data, compiled: Set<String>?) {
    let container = Self.folder(of: path)
    guard container.hasSuffix(".xcodeproj") else { return }
    let folder = Self.folder(of: container)
    var project = projects[folder] ?? Project(name: container)
    project.keys.addBuildSettings(data)
    for named in UsageKeyIndex.infoPlistFiles(in: bytes) {
      if let resolved = Self.resolve(named, in: folder) {
        project.namedPropertyLists.append(resolved)
      } else {
        project.hasUnresolvedPropertyList = true
      }
    }
    if let compiled, let known = project.compiled {
      project.compiled = known.union(compiled)
    } else {
      project.compiled = nil
    }
    projects[folder] = project
  }

  /// Adds the keys of every `Info.plist` and `.xcconfig` to the projects they belong to. Call once, after
  /// every project file was added.
  mutating func addConfiguration(
    propertyLists: [(path: String, keys: UsageKeyIndex)], settings: [(path: String, data: Data)]
  ) {
    var byPath: [String: UsageKeyIndex] = [:]
    for list in propertyLists {
      byPath[list.path] = list.keys
      if let folder = nearestProject(of: list.path) { projects[folder]?.keys.formUnion(list.keys) }
    }
    for (path, data) in settings where !path.hasSuffix("project.pbxproj") {
      var keys = UsageKeyIndex()
      keys.addBuildSettings(data)
      let names = UsageKeyIndex.infoPlistFiles(in: [UInt8](data))
      if let folder = nearestProject(of: path) {
        projects[folder]?.keys.formUnion(keys)
        for named in names {
          if let resolved = Self.resolve(named, in: folder) {
            projects[folder]?.namedPropertyLists.append(resolved)
          } else {
            projects[folder]?.hasUnresolvedPropertyList = true
          }
        }
      } else {
        sharedSettings.formUnion(keys)
        if !names.isEmpty { sharedSettingsNameFiles = true }
      }
    }
    for folder in projects.keys {
      guard var project = projects[folder] else { continue }
      for named in project.namedPropertyLists {
        if let keys = byPath[named] {
          project.keys.formUnion(keys)
        } else {
          project.hasUnresolvedPropertyList = true
        }
      }
      project.keys.formUnion(sharedSettings)
      if sharedSettingsNameFiles { project.hasUnresolvedPropertyList = true }
      projects[folder] = project
    }
  }

  /// The keys of the app project that builds the Swift file at `path`, and that project's name; nil when
  /// the file should use every key of the folder (see the type's summary).
  func keys(forFile path: String) -> (keys: UsageKeyIndex, project: String)? {
    guard let folder = nearestProject(of: path), let project = projects[folder],
      !project.hasUnresolvedPropertyList, !project.keys.buildsOnlyLibraries
    else { return nil }
    if let compiled = project.compiled, !compiled.contains(Self.lastComponent(path)) { return nil }
    return (project.keys, project.name)
  }

  /// The folder of the nearest project whose folder holds `path`.
  private func nearestProject(of path: String) -> String? {
    var folder = Self.folder(of: path)
    while true {
      if projects[folder] != nil { return folder }
      if folder.isEmpty { return nil }
      folder = Self.folder(of: folder)
    }
  }

  // MARK: Paths

  private static func folder(of path: String) -> String { ProjectPath.folder(of: path) }

  private static func lastComponent(_ path: String) -> String { ProjectPath.lastComponent(path) }

  /// An `INFOPLIST_FILE` value as a path relative to the audit root: relative to the project's folder, after
  /// `$(SRCROOT)/` or `$(PROJECT_DIR)/`; nil when it holds another build variable, is absolute, or climbs
  /// above the audit root.
  static func resolve(_ value: String, in folder: String) -> String? {
    var rest = Substring(value)
    for prefix in [
      "$(SRCROOT)/", "${SRCROOT}/", "$SRCROOT/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/", "$PROJECT_DIR/",
    ]
    where rest.hasPrefix(prefix) {
      rest = rest.dropFirst(prefix.count)
      break
    }
    guard !rest.contains("$"), !rest.hasPrefix("/"), !rest.isEmpty else { return nil }
    var parts = folder.isEmpty ? [] : folder.split(separator: "/").map(String.init)
    for part in rest.split(separator: "/") {
      switch part {
      case ".": continue
      case "..":
        guard !parts.isEmpty else { return nil }
        parts.removeLast()
      default: parts.append(String(part))
      }
    }
    return parts.joined(separator: "/")
  }
}
