/// The bookkeeping of one background task around an import: the task is ended exactly once, when the work
/// finishes or when the system's time runs out, and in the second case the work is cancelled first.
///
/// An import that the user leaves (switching apps during an iCloud download or a multi-GB copy) is suspended
/// with the app unless it runs inside `UIApplication.beginBackgroundTask(withName:expirationHandler:)`. The
/// expiration handler must end the task ("failure to end the task … results in the termination of the app",
/// UIApplication.h) and should stop the work, which cannot finish in time; the normal end must not end it a
/// second time. The Apple layer (`BackgroundImportProtection`) wires the two calls to this.
///
/// ```swift
/// let lease = BackgroundTaskLease(cancelWork: { session.cancel() }, endTask: { app.endBackgroundTask(id) })
/// // expiration handler: lease.expired()      after the work: lease.finished()
/// ```
public final class BackgroundTaskLease: Sendable {
  private let state = Protected(State.running)
  private let cancelWork: @Sendable () -> Void
  private let endTask: @Sendable () -> Void

  private enum State { case running, ended }

  /// A lease that calls `cancelWork` when time runs out and `endTask` once, whichever comes first.
  public init(cancelWork: @escaping @Sendable () -> Void, endTask: @escaping @Sendable () -> Void) {
    self.cancelWork = cancelWork
    self.endTask = endTask
  }

  /// The system's time ran out: cancel the work, then end the task (if the work has not ended it).
  public func expired() {
    guard take() else { return }
    cancelWork()
    endTask()
  }

  /// The work finished: end the task (if the expiration has not ended it).
  public func finished() {
    guard take() else { return }
    endTask()
  }

  /// Whether the task has been ended.
  public var isEnded: Bool { state.withLock { $0 == .ended } }

  private func take() -> Bool {
    state.withLock { state in
      guard state == .running else { return false }
      state = .ended
      return true
    }
  }
}
