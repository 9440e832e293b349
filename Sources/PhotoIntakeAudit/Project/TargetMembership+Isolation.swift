extension TargetMembership {
  // MARK: Default actor isolation

  /// Whether the Swift file at `path` is compiled only by targets whose every build configuration sets
  /// `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor` (Swift 6.2; Xcode 26's new app targets do), in the target's
  /// own settings or the project's: there, a declaration with no isolation of its own is `@MainActor`. A
  /// configuration based on an `.xcconfig` that does not set it itself is not counted as main actor (its
  /// setting is unknown), nor is a file some other target compiles.
  func isMainActorByDefault(_ path: String) -> Bool {
    guard !mainActorNames.isEmpty || !mainActorFolders.isEmpty else { return false }
    let name = Self.lastComponent(path)
    var folder = Self.folder(of: path)
    var owner: String?
    while true {
      if mainActorNames[folder] != nil || otherNames[folder] != nil {
        owner = folder
        break
      }
      if folder.isEmpty { break }
      folder = Self.folder(of: folder)
    }
    let inMainFolder = mainActorFolders.contains { Self.isInside(path, $0) }
    let inOtherFolder = otherFolders.contains { Self.isInside(path, $0) }
    let listed = owner.map { mainActorNames[$0]?.contains(name) == true } ?? false
    let listedElsewhere = owner.map { otherNames[$0]?.contains(name) == true } ?? false
    return (listed || inMainFolder) && !listedElsewhere && !inOtherFolder
  }

  /// Notes which targets of a project are main-actor by default, and what they compile (by name, and by
  /// synchronized folder). At most 64 targets and configurations each are read.
  mutating func addIsolation(_ objects: [String: Object], folder: String) {
    guard objects.values.contains(where: { $0.fields["SWIFT_DEFAULT_ACTOR_ISOLATION"] != nil }) else {
      return
    }
    // The project's own configurations, by name (`Debug`, `Release`): what a target's inherit.
    var projectLevel: [String: String] = [:]
    for object in objects.values where object.fields["isa"] == "PBXProject" {
      guard let listID = object.fields["buildConfigurationList"], let list = objects[listID] else { continue }
      for id in list.configurations.prefix(64) {
        guard let configuration = objects[id], let name = configuration.fields["name"] else { continue }
        projectLevel[name] = configuration.fields["SWIFT_DEFAULT_ACTOR_ISOLATION"] ?? ""
      }
    }
    let prefix = folder.isEmpty ? "" : folder + "/"
    for object in objects.values where object.fields["isa"] == "PBXNativeTarget" {
      var isMain = false
      if let listID = object.fields["buildConfigurationList"], let list = objects[listID] {
        let configurations = list.configurations.prefix(64).compactMap { objects[$0] }
        isMain =
          !configurations.isEmpty
          && configurations.allSatisfy { configuration in
            if let own = configuration.fields["SWIFT_DEFAULT_ACTOR_ISOLATION"] { return own == "MainActor" }
            guard configuration.fields["baseConfigurationReference"] == nil,
              let name = configuration.fields["name"]
            else { return false }
            return projectLevel[name] == "MainActor"
          }
      }
      var names: Set<String> = []
      for phaseID in object.phases {
        guard let phase = objects[phaseID], phase.fields["isa"] == "PBXSourcesBuildPhase" else { continue }
        for id in phase.files {
          guard let reference = objects[id]?.fields["fileRef"], let file = objects[reference],
            let path = file.fields["path"] ?? file.fields["name"]
          else { continue }
          names.insert(Self.lastComponent(path))
        }
      }
      var folders: [String] = []
      for id in object.synchronizedGroups.prefix(64) {
        if let path = objects[id]?.fields["path"] { folders.append(prefix + path) }
      }
      if isMain {
        mainActorNames[folder, default: []].formUnion(names)
        mainActorFolders += folders
      } else {
        otherNames[folder, default: []].formUnion(names)
        otherFolders += folders
      }
    }
  }
}
