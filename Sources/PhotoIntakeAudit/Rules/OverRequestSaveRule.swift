/// `over-request-save`: read-write (or legacy) authorization where the project only adds assets.
///
/// Project-wide: flagged when the project creates assets (`creationRequestForAsset…`,
/// `PHAssetCreationRequest`, `UIImageWriteToSavedPhotosAlbum`) and never fetches, observes or changes
/// existing ones.
struct OverRequestSaveRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "over-request-save", severity: .warning,
    summary:
      "Read-write photo library access is requested, but the project only adds photos; request .addOnly.",
    leavesAlone:
      "Add-only requests, a legacy request only iOS 13 reaches (the else of if #available(iOS 14, *), which asks .addOnly), and read-write requests in a project that also fetches assets.",
    fix: """
      Call PHPhotoLibrary.requestAuthorization(for: .addOnly) and declare NSPhotoLibraryAddUsageDescription. \
      Add-only access lets the app save photos and videos without seeing the library, and people are asked \
      a smaller question they are more likely to allow.
      """,
    reference: .documentation("PHAccessLevel", "photos/phaccesslevel"))

  let triggers: Set<Word> = [.requestAuthorization]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard PhotoLibraryAccess.creates(project.words), !PhotoLibraryAccess.fetches(project.words) else {
      return []
    }
    var answers: [Int: Bool] = [:]
    return PhotoLibraryAccess.requests(in: file).filter { request in
      request.request != .addOnly
        && !(request.request == .legacy
          && PhotoLibraryAccess.runsOnlyBeforeAddOnly(request.index, in: file, answers: &answers))
    }.map { file.finding(descriptor, at: $0.index) }
  }
}
