/// `photo-dimensions-unset`: `AVCapturePhotoOutput.capturePhoto(with:delegate:)` in a project that never sets
/// `maxPhotoDimensions`.
///
/// `AVCapturePhotoSettings.maxPhotoDimensions` "defaults to the smallest dimensions returned by
/// AVCaptureDeviceFormat.supportedMaxPhotoDimensions" (AVCapturePhotoOutput.h, iOS 16 SDK on), so such an app
/// takes every photo below the camera's resolution. An assignment of `maxPhotoDimensions`, or of the iOS 10–15
/// output's `isHighResolutionCaptureEnabled = true`, anywhere in the project counts as handled; a read (`if
/// output.isHighResolutionCaptureEnabled`) does not.
struct PhotoDimensionsUnsetRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "photo-dimensions-unset", severity: .warning,
    summary:
      "capturePhoto(with:delegate:) without maxPhotoDimensions anywhere: photos are taken at the smallest supported size.",
    leavesAlone:
      "Projects that set maxPhotoDimensions on the output or the settings, or turn on the output's high-resolution capture on older code (isHighResolutionCaptureEnabled = true), anywhere; a read of either sets nothing.",
    fix: """
      Before startRunning(), set photoOutput.maxPhotoDimensions to the largest of \
      device.activeFormat.supportedMaxPhotoDimensions, and each shot's settings.maxPhotoDimensions to the \
      output's (on iOS 15 and earlier: isHighResolutionCaptureEnabled on both).
      """,
    reference: .documentation(
      "AVCapturePhotoSettings.maxPhotoDimensions", "avfoundation/avcapturephotosettings/maxphotodimensions"))

  let triggers: Set<Word> = [.capturePhoto]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard project.words.containsAny([.AVCapturePhotoOutput, .AVCapturePhotoSettings]),
      !project.setsPhotoDimensions
    else { return [] }
    var findings: [Finding] = []
    for index in 0..<file.count
    where file.word(index) == .capturePhoto && file.isMember(index) && file.kind(index + 1) == .leftParen
      && file.text(index + 2) == "with" && file.kind(index + 3) == .colon
    {
      guard let close = file.match(index + 1),
        ((index + 4)..<close).contains(where: {
          file.text($0) == "delegate" && file.kind($0 + 1) == .colon && file.kind($0 - 1) == .comma
        })
      else { continue }
      findings.append(file.finding(descriptor, at: index))
    }
    return findings
  }
}

extension ProjectFacts {
  /// Records whether the file sets larger photo dimensions: assigns `maxPhotoDimensions` (on the output or
  /// a shot's settings), or turns on the output's `isHighResolutionCaptureEnabled` (iOS 10–15). Reading
  /// either (`if output.isHighResolutionCaptureEnabled { … }`) sets nothing, and a shot's
  /// `isHighResolutionPhotoEnabled = true` alone asks for what the output does not allow.
  mutating func addPhotoDimensionSettings(_ file: SourceFile) {
    guard !setsPhotoDimensions,
      file.source.words.containsAny([.maxPhotoDimensions, .isHighResolutionCaptureEnabled])
    else { return }
    for index in 0..<file.count
    where (file.word(index) == .maxPhotoDimensions || file.word(index) == .isHighResolutionCaptureEnabled)
      && file.isMember(index) && file.word(index + 1) == .opAssign && file.isActive(index)
    {
      if file.word(index) == .isHighResolutionCaptureEnabled, file.word(index + 2) == .false { continue }
      setsPhotoDimensions = true
      return
    }
  }
}
