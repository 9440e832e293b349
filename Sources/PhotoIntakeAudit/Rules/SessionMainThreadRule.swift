/// `session-main-thread`: `AVCaptureSession.startRunning()` / `stopRunning()` on the main thread.
///
/// Flags the calls where ``ExecutionContext`` says the code runs on the main actor or main queue, in a
/// project that uses `AVCaptureSession`, on a receiver named like a session (`session`,
/// `captureSession`) or declared as an `AVCaptureSession`.
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
    let sessions = DeclaredNames(
      in: file, types: [.AVCaptureSession, .AVCaptureMultiCamSession],
      initializers: [.AVCaptureSession, .AVCaptureMultiCamSession])
    var findings: [Finding] = []
    for index in 0..<file.count
    where (file.word(index) == .startRunning || file.word(index) == .stopRunning) && file.isMember(index)
      && file.kind(index + 1) == .leftParen
    {
      // The receiver must be a capture session (`session`, `captureSession`, or declared as one), not a
      // wrapper of the app's own whose `startRunning()` may well hop to a queue.
      var receiver = index - 2
      if file.word(receiver) == .opQuestion || file.word(receiver) == .opBang { receiver -= 1 }
      guard file.kind(receiver) == .identifier,
        file.text(receiver).lowercased().hasSuffix("session") || sessions.refers(receiver)
      else { continue }
      if case .main = ExecutionContext.of(index, in: file, project: project) {
        findings.append(file.finding(descriptor, at: index))
      }
    }
    return findings
  }
}
