import Dispatch
import PhotoIntake
import PhotoIntakeTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct OneShotContinuationTests {
  enum CaptureError: Error, Equatable {
    case timedOut, cancelled, failed
  }

  /// Keeps the continuation a "delegate" holds on to.
  final class Holder: @unchecked Sendable {
    // @unchecked: written once inside the body, read after the awaited call returned.
    var once: OneShotContinuation<Int, CaptureError>?
  }

  /// A capture whose delegate never fires fails with the timeout error at the deadline, and a delegate that
  /// fires afterwards is ignored instead of resuming twice (which would crash a checked continuation).
  @Test func aDelegateThatNeverFiresTimesOut() async {
    let clock = SimulatedClock()
    let holder = Holder()
    let start = clock.now
    let result = await outcome { () async throws(CaptureError) -> Int in
      try await withOneShotContinuation(
        timeout: .seconds(20), clock: clock, timeoutError: CaptureError.timedOut,
        cancellationError: .cancelled
      ) { once in holder.once = once }
    }
    #expect(throws: CaptureError.timedOut) { try result.get() }
    #expect(clock.now >= start.advanced(by: .seconds(20)))
    let once = try! #require(holder.once)
    #expect(once.isResumed)
    #expect(!once.resume(returning: 1))
    #expect(!once.resume(throwing: .failed))
  }

  @Test func aDelegateThatFiresFirstWins() async throws {
    let clock = SimulatedClock()
    let value = try await withOneShotContinuation(
      timeout: .seconds(20), clock: clock, timeoutError: CaptureError.timedOut, cancellationError: .cancelled
    ) { once in
      #expect(once.resume(returning: 42))
      #expect(!once.resume(returning: 7))
    }
    #expect(value == 42)
    let failure = await outcome { () async throws(CaptureError) -> Int in
      try await withOneShotContinuation(
        timeout: .seconds(20), clock: clock, timeoutError: CaptureError.timedOut,
        cancellationError: .cancelled
      ) { once in once.resume(throwing: .failed) }
    }
    #expect(throws: CaptureError.failed) { try failure.get() }
  }

  /// Callbacks racing on many threads: exactly one resumes.
  @Test func racingCallbacksResumeExactlyOnce() async throws {
    for round in 0..<50 {
      let winners = Counter()
      let value = try await withOneShotContinuation(
        timeout: .seconds(3600), clock: ContinuousClock(), timeoutError: CaptureError.timedOut,
        cancellationError: .cancelled
      ) { once in
        DispatchQueue.global().async {
          DispatchQueue.concurrentPerform(iterations: 8) { index in
            if once.resume(returning: round * 100 + index) { winners.increment() }
          }
        }
      }
      #expect(value / 100 == round)
      // The resumed task may run before the other threads finish trying.
      while winners.count == 0 { await Task.yield() }
      #expect(winners.count == 1)
    }
  }

  /// Cancelling the waiting task resumes it with the cancellation error, before or after the body ran.
  @Test func cancellationResumes() async {
    let waiting = Task { () async throws(CaptureError) -> Int in
      try await withOneShotContinuation(
        timeout: .seconds(3600), clock: ContinuousClock(), timeoutError: CaptureError.timedOut,
        cancellationError: .cancelled
      ) { _ in }
    }
    waiting.cancel()
    let waited = await waiting.result
    #expect(throws: CaptureError.cancelled) { try waited.get() }

    let cancelledFirst = Task { () async throws(CaptureError) -> Int in
      withUnsafeCurrentTask { $0?.cancel() }
      return try await withOneShotContinuation(
        timeout: .seconds(3600), clock: ContinuousClock(), timeoutError: CaptureError.timedOut,
        cancellationError: .cancelled
      ) { _ in }
    }
    let first = await cancelledFirst.result
    #expect(throws: CaptureError.cancelled) { try first.get() }
  }
}

/// The result of `body`, error included.
func outcome(_ body: () async throws(OneShotContinuationTests.CaptureError) -> Int) async
  -> Result<Int, OneShotContinuationTests.CaptureError>
{
  do {
    return .success(try await body())
  } catch {
    return .failure(error)
  }
}

/// A thread-safe count.
final class Counter: Sendable {
  private let value = Protected(0)
  func increment() { value.withLock { $0 += 1 } }
  var count: Int { value.current }
}
