import Dispatch

/// A serial executor backed by a dispatch queue of its own: an actor that uses it runs on that queue's
/// thread, never on Swift's cooperative pool, so that its blocking work (SQLite commits that wait in `fsync`)
/// takes no thread the app's other tasks need. GRDB's `DispatchQueueActor` does the same for its writer.
package final class DispatchSerialExecutor: SerialExecutor, Sendable {
  private let queue: DispatchQueue

  package init(label: String) {
    queue = DispatchQueue(label: label)
    OwnQueues.mark(queue)
  }

  package func enqueue(_ job: UnownedJob) {
    let executor = asUnownedSerialExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }

  package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }
}
