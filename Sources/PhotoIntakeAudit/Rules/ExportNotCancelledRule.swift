/// `export-not-cancelled`: an `AVAssetExportSession` awaited from Swift concurrency whose task cancellation never
/// reaches `cancelExport()`.
///
/// Two forms: `exportAsynchronously(completionHandler:)` inside `withChecked(Throwing)Continuation` or
/// `withUnsafe(Throwing)Continuation`, and `await session.export()` (the imported `async` form of the same
/// method) on a name the file declares as an `AVAssetExportSession`. Neither stops when the awaiting task is
/// cancelled: the transcode runs to its end, and its output stays behind. Left alone: a function that uses
/// `withTaskCancellationHandler` or calls `cancelExport()`, a type that calls `cancelExport()` anywhere (a
/// cancel method its callers use), and `export(to:as:)` (iOS 18), which is cancelled with its task.
struct ExportNotCancelledRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "export-not-cancelled", severity: .warning,
    summary:
      "AVAssetExportSession is awaited in a task whose cancellation never calls cancelExport(); the export runs on.",
    leavesAlone:
      "Exports inside withTaskCancellationHandler or in a type that calls cancelExport(), export(to:as:) on iOS 18, and exports started without awaiting them.",
    fix: """
      Wrap the wait in withTaskCancellationHandler { … } onCancel: { session.cancelExport() }, remove the \
      partial output when the status is .cancelled, or on iOS 18 use try await session.export(to:as:), which \
      stops when its task is cancelled.
      """,
    reference: .documentation(
      "AVAssetExportSession.cancelExport()", "avfoundation/avassetexportsession/cancelexport()"))

  let triggers: Set<Word> = [.exportAsynchronously, .AVAssetExportSession]

  private static let continuations: Set<Word> = [
    .withCheckedContinuation, .withCheckedThrowingContinuation, .withUnsafeContinuation,
    .withUnsafeThrowingContinuation,
  ]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard file.source.words.contains(.AVAssetExportSession) || project.words.contains(.AVAssetExportSession)
    else { return [] }
    var findings: [Finding] = []
    for index in 0..<file.count
    where file.word(index) == .exportAsynchronously && file.isMember(index) && insideContinuation(index, file)
      && !reachesCancel(index, file)
    {
      findings.append(file.finding(descriptor, at: index))
    }
    guard file.source.words.contains(.AVAssetExportSession) else { return findings }
    let sessions = DeclaredNames(
      in: file, types: [.AVAssetExportSession], initializers: [.AVAssetExportSession])
    for index in 0..<file.count
    where file.isMember(index) && (file.text(index) == "export" || file.word(index) == .exportAsynchronously)
      && file.kind(index + 1) == .leftParen && file.kind(index + 2) == .rightParen
    {
      var receiver = index - 2
      if file.word(receiver) == .opQuestion || file.word(receiver) == .opBang { receiver -= 1 }
      guard file.kind(receiver) == .identifier, sessions.refers(receiver),
        file.word(file.postfixStart(endingAt: index) - 1) == .await, !reachesCancel(index, file)
      else { continue }
      findings.append(file.finding(descriptor, at: index))
    }
    return findings
  }

  /// Whether `index` lies in a closure passed to one of the continuation functions.
  private func insideContinuation(_ index: Int, _ file: SourceFile) -> Bool {
    var scope = file.syntax.scope(of: index)
    while scope > 0 {
      let current = file.scope(scope)
      if current.kind == .function || current.kind == .type { return false }
      if current.kind == .closure, Self.continuations.contains(file.word(current.callee)) { return true }
      scope = current.parent
    }
    return false
  }

  /// Whether cancellation can reach the export: the function around it uses `withTaskCancellationHandler` or
  /// calls `cancelExport()`, or its type calls `cancelExport()` somewhere.
  private func reachesCancel(_ index: Int, _ file: SourceFile) -> Bool {
    let function = file.body(of: file.enclosingFunction(of: index))
    if file.contains([.withTaskCancellationHandler, .cancelExport], in: function) { return true }
    if let type = file.enclosingType(of: index), file.contains([.cancelExport], in: file.body(of: type)) {
      return true
    }
    return false
  }
}
