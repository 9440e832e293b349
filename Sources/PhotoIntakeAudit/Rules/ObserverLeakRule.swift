/// `observer-leak`: `PHPhotoLibrary.shared().register(_:)` in a type that never unregisters.
///
/// The type is matched by name across the project, so an `unregisterChangeObserver` in an extension or
/// another file counts.
struct ObserverLeakRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "observer-leak", severity: .warning,
    summary: "PHPhotoLibrary.register(_:) has no matching unregisterChangeObserver(_:) in this type.",
    leavesAlone:
      "Types that unregister the observer anywhere, in the type or in an extension in another file.",
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
    for index in 0..<file.count
    where file.word(index) == .register && file.isMember(index) && file.kind(index + 1) == .leftParen {
      let receiver = file.postfixStart(endingAt: index)..<index
      let isLibrary =
        file.contains([.PHPhotoLibrary], in: receiver)
        || (file.kind(index - 2) == .identifier && libraries.refers(index - 2))
      guard isLibrary else { continue }
      let owner = file.enclosingType(of: index).flatMap { file.name(of: $0) } ?? ""
      if !project.unregisteringTypes.contains(owner) {
        findings.append(file.finding(descriptor, at: index))
      }
    }
    return findings
  }
}
