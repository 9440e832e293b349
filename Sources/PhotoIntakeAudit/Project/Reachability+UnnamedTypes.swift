extension Reachability {
  /// The views (and other types made only where code names them) whose name no code outside their own
  /// declaration and extensions mentions (no running code, no preview, no function nothing calls, no other
  /// type's property): Swift makes a value of a type only
  /// where its name is written (`Scanner()`, `let v: Scanner = .init()`, `AnyView(Scanner())`, a
  /// typealias, a generic's argument) or inside the type itself (`Self()`), and no storyboard or
  /// Objective-C code makes a SwiftUI view, so such a view is never made and none of its members runs.
  static func viewsNothingNames(
    _ views: Set<UInt64>, files: [SourceFile], interface: InterfaceNames
  ) -> Set<UInt64> {
    guard !views.isEmpty else { return [] }
    var unnamed = views
    for file in files {
      let scopes = file.syntax.scopes
      // Per scope: the nearest scope around it (itself included) that declares or extends one of the
      // views, or -1; opened parents come before their children, so one pass fills it.
      var nearestView = [Int32](repeating: -1, count: scopes.count)
      var declaration = [Bool](repeating: false, count: file.count)
      for (index, scope) in scopes.enumerated() {
        if scope.kind == .type, scope.name >= 0, scope.name < file.count {
          declaration[scope.name] = true
          if views.contains(ProjectModel.hash(file, scope.name)) {
            nearestView[index] = Int32(index)
            continue
          }
        }
        if scope.parent >= 0, scope.parent < index { nearestView[index] = nearestView[scope.parent] }
      }
      for index in 0..<file.count where file.kind(index) == .identifier && !declaration[index] {
        let hash = ProjectModel.hash(file, index)
        guard unnamed.contains(hash), file.isActive(index) else { continue }
        // Inside the view's own declaration or an extension of it (through at most 16 nested views).
        var own = false
        var cursor = Int(nearestView[file.syntax.scope(of: index)])
        var steps = 0
        while cursor >= 0, steps < 16 {
          if ProjectModel.hash(file, scopes[cursor].name) == hash {
            own = true
            break
          }
          let parent = scopes[cursor].parent
          cursor = parent >= 0 && parent < cursor ? Int(nearestView[parent]) : -1
          steps += 1
        }
        if !own { unnamed.remove(hash) }
      }
    }
    guard !unnamed.isEmpty else { return [] }
    // A name in a string literal may reach the runtime's type lookup (`_typeByName("App.Scanner")`).
    var names: [String: UInt64] = [:]
    for file in files {
      for scope in file.syntax.scopes where scope.kind == .type && scope.name >= 0 && scope.name < file.count
      {
        let hash = ProjectModel.hash(file, scope.name)
        if unnamed.contains(hash) { names[file.text(scope.name)] = hash }
      }
    }
    if !names.isEmpty {
      forEachWordInStrings(of: files) { word in
        if let hash = names.removeValue(forKey: word) { unnamed.remove(hash) }
      }
    }
    // A name an interface file or property list writes keeps the type (say a class of the same name).
    for file in files {
      for scope in file.syntax.scopes where scope.kind == .type && scope.name >= 0 && scope.name < file.count
      {
        let hash = ProjectModel.hash(file, scope.name)
        if unnamed.contains(hash), interface.mentions(file.text(scope.name)) { unnamed.remove(hash) }
      }
    }
    return unnamed
  }
}
