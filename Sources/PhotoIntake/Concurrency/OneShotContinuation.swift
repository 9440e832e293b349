/// A continuation that is resumed at most once, by whoever comes first: a delegate callback, a deadline, or
/// the cancellation of the waiting task.
///
/// A `CheckedContinuation` must be resumed exactly once: twice is a crash, never is a task that waits forever.
/// System callbacks do not promise either (an `AVCapturePhotoCaptureDelegate` may never be called when the
/// session is interrupted mid-capture, or be called twice for one capture), so each caller hands its callback
/// this object, whose ``resume(with:)`` reports whether it was the one that resumed.
public final class OneShotContinuation<Success: Sendable, Failure: Error>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Result<Success, Failure>, Never>?
    var timer: Task<Void, Never>?
  }

  private let state: Protected<State>

  init(_ continuation: CheckedContinuation<Result<Success, Failure>, Never>) {
    state = Protected(State(continuation: continuation))
  }

  /// Whether the continuation was already resumed.
  public var isResumed: Bool { state.withLock { $0.continuation == nil } }

  /// Resumes the waiting task with `result`, unless it was resumed already.
  ///
  /// - Returns: true when this call resumed it; false when another did first (the result is then dropped).
  @discardableResult
  public func resume(with result: Result<Success, Failure>) -> Bool {
    let (continuation, timer) = state.withLock { state in
      defer { state = State() }
      return (state.continuation, state.timer)
    }
    timer?.cancel()
    guard let continuation else { return false }
    continuation.resume(returning: result)
    return true
  }

  /// Resumes with a value, unless resumed already; see ``resume(with:)``.
  @discardableResult
  public func resume(returning value: Success) -> Bool { resume(with: .success(value)) }

  /// Resumes with an error, unless resumed already; see ``resume(with:)``.
  @discardableResult
  public func resume(throwing error: Failure) -> Bool { resume(with: .failure(error)) }

  fileprivate func setTimer(_ timer: Task<Void, Never>) {
    let resumed = state.withLock { state in
      if state.continuation != nil { state.timer = timer }
      return state.continuation == nil
    }
    if resumed { timer.cancel() }
  }
}

/// Runs `body` with a ``OneShotContinuation`` and waits for its result, for at most `timeout` on `clock`.
///
/// Whichever comes first resumes the task, exactly once: `body`'s callback, the deadline (with
/// `timeoutError`), or the cancellation of the calling task (with `cancellationError`). Later resumptions are
/// ignored, so a delegate that fires after the deadline is harmless. The deadline's timer is cancelled as soon
/// as the task is resumed.
///
/// ```swift
/// let data = try await withOneShotContinuation(
///   timeout: .seconds(20), clock: ContinuousClock(), timeoutError: .timedOut, cancellationError: .cancelled
/// ) { once in
///   output.capturePhoto(with: settings, delegate: Delegate { once.resume(with: $0) })
/// }
/// ```
///
/// - Throws: the error `body`'s callback resumed with, `timeoutError` or `cancellationError`.
public func withOneShotContinuation<Success: Sendable, Failure: Error, C: Clock>(
  timeout: C.Duration, clock: C, timeoutError: Failure, cancellationError: Failure,
  _ body: (OneShotContinuation<Success, Failure>) -> Void
) async throws(Failure) -> Success {
  let current = Protected<OneShotContinuation<Success, Failure>?>(nil)
  let result = await withTaskCancellationHandler {
    await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Success, Failure>, Never>) in
      let once = OneShotContinuation(continuation)
      current.withLock { $0 = once }
      // Checked after `current` is set: a cancellation before that point found nothing to resume.
      if Task.isCancelled {
        once.resume(throwing: cancellationError)
        return
      }
      once.setTimer(
        Task {
          do {
            try await clock.sleep(for: timeout)
          } catch {
            return  // cancelled: the continuation was resumed.
          }
          once.resume(throwing: timeoutError)
        })
      body(once)
    }
  } onCancel: {
    current.current?.resume(throwing: cancellationError)
  }
  return try result.typedGet()
}
