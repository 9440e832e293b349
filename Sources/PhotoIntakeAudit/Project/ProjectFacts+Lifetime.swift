/// Types whose instances live as long as the app (see ``ObserverLeakRule``).
extension ProjectFacts {
  /// Records `roots` (the classes the main storyboard starts with) and the types their declarations keep in
  /// stored properties, written at the type's top level: `let dataSource = PhotosDataSource()`,
  /// `var manager: PhotoManager = PhotoManager()`, `lazy var store = Store()`. A screen that is never dismissed
  /// keeps those for good too.
  mutating func addAppLifetimeTypes(_ files: [SourceFile], roots: Set<String>) {
    guard !roots.isEmpty else { return }
    appLifetimeTypes = roots
    for file in files {
      // One pass: each declaration asks only its own scope whether it is a root type's top level (once per
      // scope).
      var isRoot: [Int: Bool] = [:]
      for token in 0..<file.count
      where (file.word(token) == .let || file.word(token) == .var) && file.kind(token + 1) == .identifier {
        let type = file.syntax.scope(of: token)
        guard file.scope(type).kind == .type else { continue }
        if isRoot[type] == nil { isRoot[type] = file.name(of: type).map(roots.contains) ?? false }
        guard isRoot[type] == true else { continue }
        if let made = file.initializerType(ofDeclarationAt: token) {
          appLifetimeTypes.insert(file.text(made))
        }
      }
    }
  }
}
