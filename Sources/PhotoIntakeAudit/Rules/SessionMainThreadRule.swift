/// `session-main-thread`: `AVCaptureSession.startRunning()` / `stopRunning()` on the main thread.
///
/// Flags the calls where ``ExecutionContext`` says the code runs on the main actor or main queue, in a
/// project that uses `AVCaptureSession`.
struct SessionMainThreadRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "session-main-thread", severity: .warning,
    summary:
      "AVCaptureSession.startRunning()/stopRunning() runs on the main thread; it blocks until the camera starts or stops.",
    fix: """
      Call startRunning() and stopRunning() on a dedicated serial session queue (sessionQueue.async { … }) \
      or from an actor of your own, as Apple's AVCam sample does; update the UI when the session reports \
      that it started.
      """,
    reference: .documentation(
      "AVCaptureSession.startRunning()", "avfoundation/avcapturesession/startrunning()"))

  let triggers: Set<Word> = [.startRunning, .stopRunning]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard project.words.contains(.AVCaptureSession) || project.words.contains(.AVCaptureMultiCamSession)
    else { return [] }
    var findings: [Finding] = []
    for index in 0..<file.count
    where (file.word(index) == .startRunning || file.word(index) == .stopRunning) && file.isMember(index)
      && file.kind(index + 1) == .leftParen
    {
      if case .main = ExecutionContext.of(index, in: file, project: project) {
        findings.append(file.finding(descriptor, at: index))
      }
    }
    return findings
  }
}
