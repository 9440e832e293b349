/// `picker-legacy`: `UIImagePickerController` used to pick from the photo library.
///
/// Matches `.photoLibrary` / `.savedPhotosAlbum` assigned to or passed as a `sourceType`, or written as
/// `UIImagePickerController.SourceType.photoLibrary`, in a project that uses `UIImagePickerController`.
/// The `.camera` source is fine: PHPicker does not take photos.
struct PickerLegacyRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "picker-legacy", severity: .warning,
    summary:
      "UIImagePickerController picks from the photo library; use PHPickerViewController or PhotosPicker.",
    fix: """
      Replace the photo-library source with PHPickerViewController (UIKit) or PhotosPicker (SwiftUI). They \
      run out of process, need no photo library permission, offer search and multiple selection, and \
      deliver large, RAW and iCloud assets reliably. Keep UIImagePickerController for the .camera source only.
      """,
    reference: .wwdc(2020, 10652, "Meet the new Photos picker"))

  let triggers: Set<Word> = [.photoLibrary, .savedPhotosAlbum]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard project.words.contains(.UIImagePickerController) else { return [] }
    var findings: [Finding] = []
    for index in 0..<file.count
    where (file.word(index) == .photoLibrary || file.word(index) == .savedPhotosAlbum) && file.isMember(index)
    {
      let before = index - 2
      let qualified = file.word(before) == .SourceType
      // `picker.sourceType = .photoLibrary`, `ImagePicker(sourceType: .photoLibrary)`,
      // `let source: UIImagePickerController.SourceType = .photoLibrary`
      let assigned =
        (file.word(before) == .opAssign || file.kind(before) == .colon)
        && (file.word(before - 1) == .sourceType || file.word(before - 1) == .SourceType)
      if qualified || assigned { findings.append(file.finding(descriptor, at: index)) }
    }
    return findings
  }
}
