import Dispatch
import Foundation

/// Threads of our own for work that blocks: a decode that holds a core for tens of milliseconds, a write that
/// waits in `fsync`.
///
/// Swift's cooperative pool has one thread per core. Blocking one of them with a decode or an `fsync` takes
/// that core away from every other task of the app — on a phone, from the UI's tasks — and, during an import,
/// leaves a core idle while a commit waits for the disk. Work sent here runs on one of a fixed number of
/// lanes instead (serial dispatch queues, each with a thread of its own while it has work), so at most
/// ``laneCount`` pieces run at once however many tasks ask, and the cooperative threads stay free.
///
/// The task-local values the package reads below this point — fault injection (`Syscalls.injectedFaults`, in test builds)
/// and the decode probe (``DecodeProbe/observer``) — are carried over to the lane.
package final class BlockingLanes: Sendable {
  /// Lanes shared by the package for work that holds a core (decoding): one per active core.
  package static let shared = BlockingLanes(laneCount: ProcessInfo.processInfo.activeProcessorCount)

  /// Lanes for work that mostly waits on the disk (copying, hashing, `fsync`): at least four, so that an
  /// import's copies keep the disk busy while decodes hold the cores, and neither ever holds a cooperative
  /// thread.
  package static let io = BlockingLanes(laneCount: max(4, ProcessInfo.processInfo.activeProcessorCount))

  private let queues: [DispatchQueue]
  /// Pieces of work queued or running on each lane; new work goes to the least loaded one.
  private let load: Protected<[Int]>

  package var laneCount: Int { queues.count }

  package init(laneCount: Int) {
    let count = max(1, laneCount)
    queues = (0..<count).map { DispatchQueue(label: "PhotoIntake.BlockingLanes.\($0)") }
    for queue in queues { OwnQueues.mark(queue) }
    load = Protected([Int](repeating: 0, count: count))
  }

  /// Runs `body` on a lane and returns its result; the calling task is suspended, not blocked, meanwhile.
  ///
  /// `body` runs to its end once started: cancelling the calling task does not interrupt it.
  package func run<Success: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> Success
  ) async throws(Failure) -> Success {
    let observer = DecodeProbe.observer.get()
    let carried = Syscalls.carryingFaults {
      DecodeProbe.observer.withValue(observer) { Result<Success, Failure>.typed(body) }
    }
    let lane = load.withLock { load in
      let lane = load.indices.min { load[$0] < load[$1] }!
      load[lane] += 1
      return lane
    }
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Success, Failure>, Never>) in
      queues[lane].async { [load] in
        let result = carried()
        load.withLock { $0[lane] -= 1 }
        continuation.resume(returning: result)
      }
    }
    return try result.typedGet()
  }
}
