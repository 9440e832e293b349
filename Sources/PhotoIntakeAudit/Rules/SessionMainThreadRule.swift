/// `session-main-thread`: `AVCaptureSession.startRunning()` / `stopRunning()` on the main thread.
///
/// Flags the calls that the project's call graph (``ProjectModel``) puts on the main thread — in a view
/// controller or SwiftUI view, or in a helper, computed property or owned object's `deinit` they reach —
/// in a project that uses `AVCaptureSession`, on a receiver named like a session (`session`,
/// `captureSession`) or declared as an `AVCaptureSession`. Calls inside another queue's block are
/// elsewhere; an optional-chained call right after `guard session == nil` cannot run and is not flagged.
struct SessionMainThreadRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "session-main-thread", severity: .warning,
    summary:
      "AVCaptureSession.startRunning()/stopRunning() runs on the main thread; it blocks until the camera starts or stops.",
    reports:
      "AVCaptureSession.startRunning()/stopRunning() on the main thread — in a view, a helper it calls, the initializer of a model a view's stored property makes (@StateObject var camera = CameraModel()), an owned object's deinit, a delegate callback set with queue: .main, or an unannotated function of a target that sets SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor — on a session under any name, a subclass, or a local bound to one; it blocks until the camera starts or stops.",
    leavesAlone:
      "startRunning()/stopRunning() on a session queue, in a delegate whose queue: is a queue of its own, in Task.detached, in an actor, in callbacks AVFoundation delivers on its own queues, and wrappers of the app's own that are not sessions.",
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
    let aliases = Self.sessionAliases(in: file, project: project, sessions: sessions)
    var findings: [Finding] = []
    for index in 0..<file.count
    where (file.word(index) == .startRunning || file.word(index) == .stopRunning) && file.isMember(index)
      && file.kind(index + 1) == .leftParen
    {
      // The receiver must be a capture session (`session`, `captureSession`, declared as one anywhere in
      // the project, an instance of a subclass, or a local bound to one), not a wrapper of the app's own
      // whose `startRunning()` may well hop to a queue.
      var receiver = index - 2
      if file.word(receiver) == .opQuestion || file.word(receiver) == .opBang { receiver -= 1 }
      guard file.kind(receiver) == .identifier,
        Self.isSession(
          receiver, in: file, project: project,
          sessions: sessions, aliases: aliases)
      else { continue }
      if file.word(index - 2) == .opQuestion, Self.isNilOnEntry(receiver, before: index, in: file) {
        continue
      }
      guard let model = project.model, let path = model.mainThreadPath(index, in: file) else { continue }
      findings.append(file.finding(descriptor, at: index).onMainThread(path))
    }
    return findings
  }

  private static func isSession(
    _ receiver: Int, in file: SourceFile, project: ProjectFacts, sessions: DeclaredNames, aliases: Set<String>
  ) -> Bool {
    let text = file.text(receiver)
    return ASCII.hasSuffix(ASCII.lowercased(text), "session") || sessions.refers(receiver)
      || project.sessionNames.contains(text) || aliases.contains(text)
  }

  /// Names bound in this file to a session: `guard let running = self.capture else { return }`, a
  /// subclass's instance (`let camera = CameraSession()`, `var camera: CameraSession?`).
  private static func sessionAliases(in file: SourceFile, project: ProjectFacts, sessions: DeclaredNames)
    -> Set<String>
  {
    var aliases: Set<String> = []
    let bases: Set<String> = ["AVCaptureSession", "AVCaptureMultiCamSession"]
    for index in 0..<file.count where file.kind(index) == .identifier && !file.isMember(index) {
      let declares = file.word(index - 1) == .let || file.word(index - 1) == .var
      if file.kind(index + 1) == .colon, file.kind(index + 2) == .identifier {
        let type = file.text(index + 2)
        if type.first?.isUppercase == true, !bases.contains(type), project.inherits(type, anyOf: bases) {
          aliases.insert(file.text(index))
        }
        continue
      }
      guard declares, file.word(index + 1) == .opAssign, file.kind(index + 2) == .identifier else { continue }
      // `self.capture`, `manager.session!`: a chain of names up to the end of the binding.
      var end = index + 2
      while end < file.count, !file.tokens[end].startsLine || end == index + 2,
        (file.kind(end) == .identifier && file.word(end) != .else) || file.kind(end) == .dot
          || (file.kind(end) == .op && (file.word(end) == .opBang || file.word(end) == .opQuestion))
      {
        end += 1
      }
      let last = (index + 2..<end).last { file.kind($0) == .identifier } ?? index + 2
      if file.kind(end) != .leftParen,
        isSession(last, in: file, project: project, sessions: sessions, aliases: aliases)
      {
        aliases.insert(file.text(index))
      } else if file.kind(index + 3) == .leftParen {
        let type = file.text(index + 2)
        if !bases.contains(type), project.inherits(type, anyOf: bases) { aliases.insert(file.text(index)) }
      }
    }
    return aliases
  }

  /// Whether the function around `call` has already made sure that `receiver` is nil
  /// (`guard session == nil else { return }`), so that `session?.stopRunning()` does nothing.
  static func isNilOnEntry(_ receiver: Int, before call: Int, in file: SourceFile) -> Bool {
    let function = file.body(of: file.enclosingFunction(of: call))
    for index in function.lowerBound..<min(call, function.upperBound) where file.word(index) == .guard {
      var name = index + 1
      if file.word(name) == .selfKeyword, file.kind(name + 1) == .dot { name += 2 }
      if file.kind(name) == .identifier, file.source.sameText(name, receiver),
        file.word(name + 1) == .opEqual,
        file.word(name + 2) == .nil
      {
        return true
      }
    }
    return false
  }
}
