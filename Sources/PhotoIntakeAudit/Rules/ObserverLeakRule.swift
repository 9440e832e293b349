/// `observer-leak`: `PHPhotoLibrary.shared().register(_:)` in a type that never unregisters.
///
/// The type is matched by name across the project, so an `unregisterChangeObserver` in an extension or
/// another file counts. A type that lives as long as the app (``ProjectFacts/appLifetimeTypes``, or a singleton
/// that keeps a static shared instance of itself) leaks nothing by keeping its observer.
struct ObserverLeakRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "observer-leak", severity: .warning,
    summary: "PHPhotoLibrary.register(_:) has no matching unregisterChangeObserver(_:) in this type.",
    leavesAlone:
      "Types that unregister the observer anywhere, in the type or in an extension in another file, and types that live as long as the app: a singleton keeping a static shared instance of itself, the view controllers the main storyboard starts with (its initial one, the root of the navigation controller or the tabs it starts with), the SwiftUI app type and the views its WindowGroup makes, and the types they keep in stored properties (a @StateObject).",
    fix: """
      Call PHPhotoLibrary.shared().unregisterChangeObserver(self) in deinit or when the screen goes away \
      (Apple's sample code does it in deinit). Until then the library keeps calling photoLibraryDidChange(_:), \
      and the observer keeps refetching for a screen nobody sees.
      """,
    reference: .documentation(
      "PHPhotoLibrary.unregisterChangeObserver(_:)", "photos/phphotolibrary/unregisterchangeobserver(_:)"))

  let triggers: Set<Word> = [.register]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard file.source.words.contains(.PHPhotoLibrary) else { return [] }
    let libraries = DeclaredNames(in: file, types: [.PHPhotoLibrary], initializers: [.PHPhotoLibrary])
    var findings: [Finding] = []
    // The type scopes that keep a shared instance of themselves, read once when first needed.
    var singletons: Set<Int>?
    for index in 0..<file.count
    where file.word(index) == .register && file.isMember(index) && file.kind(index + 1) == .leftParen {
      let receiver = file.postfixStart(endingAt: index)..<index
      let isLibrary =
        file.contains([.PHPhotoLibrary], in: receiver)
        || (file.kind(index - 2) == .identifier && libraries.refers(index - 2))
      guard isLibrary else { continue }
      let type = file.enclosingType(of: index)
      let owner = type.flatMap { file.name(of: $0) } ?? ""
      guard !project.unregisteringTypes.contains(owner), !project.appLifetimeTypes.contains(owner) else {
        continue
      }
      if let type {
        if singletons == nil { singletons = Self.singletonTypes(in: file) }
        if singletons?.contains(type) == true { continue }
      }
      findings.append(file.finding(descriptor, at: index))
    }
    return findings
  }

  /// The type scopes of `file` that keep a shared instance of themselves in a static property
  /// (`static let shared = PhotoLibraryService()`, written at the type's top level): a process-wide singleton's
  /// observer is meant to live as long as the app. One pass over the file.
  private static func singletonTypes(in file: SourceFile) -> Set<Int> {
    var types: Set<Int> = []
    for token in 0..<file.count
    where file.word(token) == .static {
      guard let made = file.initializerType(ofDeclarationAt: token + 1) else { continue }
      let type = file.syntax.scope(of: token)
      if file.scope(type).kind == .type, file.name(of: type) == file.text(made) { types.insert(type) }
    }
    return types
  }
}
