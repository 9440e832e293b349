/// `over-request-read`: read-write (or legacy) photo library authorization in a project that only picks.
///
/// Project-wide: the request is flagged when the project picks with PHPicker, PhotosPicker or
/// `UIImagePickerController` (out of process since iOS 11: none needs authorization), never fetches,
/// observes or changes library assets, never reads the picker's `PHAsset`, and never adds any (that case is
/// `over-request-save`).
struct OverRequestReadRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "over-request-read", severity: .warning,
    summary:
      "Full photo library access is requested, but the project only picks photos and never fetches assets.",
    reports:
      "A read-write or legacy requestAuthorization (also one whose level a parameter of the app's own function passes) in a project that picks with PHPicker, PhotosPicker or UIImagePickerController (all out of process since iOS 11) and never fetches, observes, changes or adds assets.",
    leavesAlone:
      "Read-write requests in a project that also fetches or browses PHAssets, reads the picker's .phAsset or uses ALAssetsLibrary, all of which need them.",
    fix: """
      Remove the authorization request (and its NSPhotoLibraryUsageDescription prompt): PHPickerViewController, \
      PhotosPicker and UIImagePickerController (since iOS 11) run out of process and hand the app only what the \
      person selects, with no authorization at all. Request .readWrite only if the app fetches or browses \
      PHAssets itself.
      """,
    reference: .documentation(
      "Delivering an Enhanced Privacy Experience in Your Photos App",
      "photokit/delivering-an-enhanced-privacy-experience-in-your-photos-app"))

  let triggers: Set<Word> = [.requestAuthorization]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard Self.picksOnly(project.words) else { return [] }
    return PhotoLibraryAccess.requests(in: file).filter { $0.request != .addOnly }.map {
      file.finding(descriptor, at: $0.index)
    }
  }

  /// Whether the project's photo library use is picking alone: a system picker, and nothing that needs
  /// authorization — no fetch, observer or change, no added asset (``OverRequestSaveRule``'s case), no read
  /// of the `PHAsset` `UIImagePickerController` hands only to an authorized app, no `ALAssetsLibrary`.
  static func picksOnly(_ words: WordSet) -> Bool {
    (PhotoLibraryAccess.picks(words) || words.contains(.UIImagePickerController))
      && !PhotoLibraryAccess.fetches(words) && !PhotoLibraryAccess.creates(words)
      && !words.containsAny([.phAsset, .UIImagePickerControllerPHAsset, .ALAssetsLibrary])
  }
}
