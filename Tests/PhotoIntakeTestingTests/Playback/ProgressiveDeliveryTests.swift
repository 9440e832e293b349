import PhotoIntake
import Synchronization
import Testing

/// A Live Photo's (or a thumbnail's) results shown in order, and the hint played once.
struct ProgressiveDeliveryTests {
  @Test func aDegradedResultNeverReplacesTheFinalAndTheHintPlaysOnce() {
    var delivery = ProgressiveDelivery()
    let degraded = delivery.accepts(isDegraded: true)
    let firstHint = delivery.takeHint()
    let final = delivery.accepts(isDegraded: false)
    let secondHint = delivery.takeHint()
    let lateDegraded = delivery.accepts(isDegraded: true)
    #expect(degraded && firstHint)
    #expect(final && !secondHint)
    #expect(!lateDegraded)
    delivery.restart()
    let afterRestart = delivery.accepts(isDegraded: true)
    let hintAgain = delivery.takeHint()
    #expect(afterRestart && hintAgain)
  }
}

/// The background task around an import is ended exactly once, and time running out cancels the import.
struct BackgroundTaskLeaseTests {
  final class Calls: Sendable {
    let log = Mutex<[String]>([])
    func record(_ call: String) { log.withLock { $0.append(call) } }
    var all: [String] { log.withLock { $0 } }
  }

  @Test func expiryCancelsThenEndsAndTheLaterFinishEndsNothing() {
    let calls = Calls()
    let lease = BackgroundTaskLease(cancelWork: { calls.record("cancel") }, endTask: { calls.record("end") })
    lease.expired()
    lease.finished()
    lease.expired()
    #expect(calls.all == ["cancel", "end"])
    #expect(lease.isEnded)
  }

  @Test func finishingEndsOnceAndALaterExpiryCancelsNothing() {
    let calls = Calls()
    let lease = BackgroundTaskLease(cancelWork: { calls.record("cancel") }, endTask: { calls.record("end") })
    #expect(!lease.isEnded)
    lease.finished()
    lease.expired()
    lease.finished()
    #expect(calls.all == ["end"])
  }
}
