/// `over-request-read`: read-write (or legacy) photo library authorization in a project that only picks.
///
/// Project-wide: the request is flagged when the project uses PHPicker or PhotosPicker, never fetches,
/// observes or changes library assets, and never adds any (that case is `over-request-save`).
struct OverRequestReadRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "over-request-read", severity: .warning,
    summary:
      "Full photo library access is requested, but the project only picks photos and never fetches assets.",
    leavesAlone: "Read-write requests in a project that also fetches or browses PHAssets, which needs them.",
    fix: """
      Remove the authorization request (and its NSPhotoLibraryUsageDescription prompt): PHPickerViewController \
      and PhotosPicker run out of process and hand the app only what the person selects, with no \
      authorization at all. Request .readWrite only if the app fetches or browses PHAssets itself.
      """,
    reference: .documentation(
      "Delivering an Enhanced Privacy Experience in Your Photos App",
      "photokit/delivering-an-enhanced-privacy-experience-in-your-photos-app"))

  let triggers: Set<Word> = [.requestAuthorization]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard PhotoLibraryAccess.picks(project.words), !PhotoLibraryAccess.fetches(project.words),
      !PhotoLibraryAccess.creates(project.words)
    else { return [] }
    return PhotoLibraryAccess.requests(in: file).filter { $0.request != .addOnly }.map {
      file.finding(descriptor, at: $0.index)
    }
  }
}
