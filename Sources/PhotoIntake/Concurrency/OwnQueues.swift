import Dispatch

/// Marks the dispatch queues PhotoIntake runs blocking work on (``BlockingLanes``, the library's executor, the
/// reader connection's queue), so that code can tell whether it runs on one of them rather than on Swift's
/// cooperative pool. Tests use it to prove that no blocking call runs on the pool.
package enum OwnQueues {
  private static let key = Key()

  /// Holds the key. @unchecked: a DispatchSpecificKey is an identity with no state of its own (Dispatch marks it
  /// Sendable on Linux but not on Apple platforms); the values live in the queues, which are thread-safe.
  private final class Key: @unchecked Sendable {
    let value = DispatchSpecificKey<String>()
  }

  /// Marks `queue` as one of ours.
  static func mark(_ queue: DispatchQueue) {
    queue.setSpecific(key: key.value, value: queue.label)
  }

  /// The label of the PhotoIntake queue the calling code runs on; nil on any other thread (the cooperative
  /// pool's included).
  package static var current: String? { DispatchQueue.getSpecific(key: key.value) }
}
