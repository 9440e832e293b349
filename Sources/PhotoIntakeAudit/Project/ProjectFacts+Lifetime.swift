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

extension ProjectFacts {
  /// The SwiftUI twin of the main storyboard's starting screens (``InterfaceNames/lifetimeClasses``): the
  /// `@main` app type and the types its `WindowGroup { … }` makes (`ContentView()`, the tabs of a
  /// `TabView { … }`, a model handed in with `.environmentObject(Store())`), which live as long as the scene
  /// (for an iPhone app, as long as the app), and so do the `@StateObject`s they keep. One pass over the
  /// files' tokens.
  static func swiftUIRoots(_ files: [SourceFile]) -> Set<String> {
    var roots: Set<String> = []
    for file in files {
      for token in 0..<file.count where file.kind(token) == .attribute && file.text(token) == "@main" {
        var head = token + 1
        while file.kind(head) == .attribute || file.word(head).isModifier { head += 1 }
        guard file.word(head) == .struct || file.word(head) == .class, file.kind(head + 1) == .identifier,
          let brace = ((head + 2)..<min(file.count, head + 64)).first(where: { file.kind($0) == .leftBrace }),
          let scope = file.scopeOpened(at: brace)
        else { continue }
        roots.insert(file.text(head + 1))
        for group in file.body(of: scope) where file.text(group) == "WindowGroup" {
          var open = group + 1
          if file.kind(open) == .leftParen, let close = file.match(open) { open = close + 1 }
          guard file.kind(open) == .leftBrace, let close = file.match(open) else { continue }
          for made in (open + 1)..<close
          where file.kind(made) == .identifier && !file.isMember(made)
            && (file.kind(made + 1) == .leftParen || file.kind(made + 1) == .leftBrace)
          {
            let name = file.text(made)
            if let first = name.utf8.first, first >= 0x41, first <= 0x5A { roots.insert(name) }
          }
        }
      }
    }
    return roots
  }
}
