/// `png-only-image-transferable`: `loadTransferable(type: Image.self)`.
///
/// SwiftUI's `Image` imports through its `Transferable` conformance only from PNG data, so the HEIC and
/// JPEG photos people actually pick load as `nil` or fail. Apple's PhotosPicker sample declares its own
/// `Transferable` image type for this reason.
struct PNGOnlyImageTransferableRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "png-only-image-transferable", severity: .error,
    summary:
      "loadTransferable(type: Image.self) imports PNG only, so most picked photos (HEIC, JPEG) load as nil.",
    leavesAlone: "loadTransferable of Data or of the app's own Transferable type.",
    fix: """
      Load Data.self (or a Transferable of your own built on DataRepresentation(importedContentType: .image) \
      or FileRepresentation), then decode it with ImageIO, downsampled to the size you display.
      """,
    reference: .documentation(
      "Bringing Photos picker to your SwiftUI app (sample for WWDC22 session 10023)",
      "photokit/bringing-photos-picker-to-your-swiftui-app"))

  let triggers: Set<Word> = [.loadTransferable]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    var findings: [Finding] = []
    for index in 0..<file.count
    where file.word(index) == .loadTransferable && file.kind(index + 1) == .leftParen
      && file.word(index + 2) == .type && file.kind(index + 3) == .colon
    {
      var type = index + 4
      if file.text(type) == "SwiftUI", file.kind(type + 1) == .dot { type += 2 }
      guard file.word(type) == .Image else { continue }
      var dot = type + 1
      if file.word(dot) == .opQuestion { dot += 1 }
      if file.kind(dot) == .dot, file.word(dot + 1) == .selfKeyword {
        findings.append(file.finding(descriptor, at: type))
      }
    }
    return findings
  }
}
