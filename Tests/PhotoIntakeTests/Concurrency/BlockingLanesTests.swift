import Dispatch
import Foundation
import Testing

@testable import PhotoIntake

@Suite struct BlockingLanesTests {
  /// More blocked pieces of work than the cooperative pool has threads, each waiting for a task to release
  /// it: if the work ran on the pool's threads, the releasing task could never run and every wait would
  /// time out.
  @Test func blockedWorkLeavesTheCooperativePoolFree() async {
    let count = ProcessInfo.processInfo.activeProcessorCount + 2
    let lanes = BlockingLanes(laneCount: count)
    let release = DispatchSemaphore(value: 0)
    let started = Protected(0)
    let released = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<count {
        group.addTask {
          await lanes.run { () -> Bool in
            started.withLock { $0 += 1 }
            return release.wait(timeout: .now() + 20) == .success
          }
        }
      }
      group.addTask {
        // Runs on the cooperative pool while the work above waits.
        while started.current < count { await Task.yield() }
        for _ in 0..<count { release.signal() }
        return true
      }
      var all: [Bool] = []
      for await result in group { all.append(result) }
      return all
    }
    #expect(released == [Bool](repeating: true, count: count + 1))
  }

  @Test func noMoreThanLaneCountRunAtOnce() async {
    let lanes = BlockingLanes(laneCount: 2)
    let running = Protected((now: 0, most: 0))
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          await lanes.run {
            running.withLock {
              $0.now += 1; $0.most = max($0.most, $0.now)
            }
            usleep(20_000)
            running.withLock { $0.now -= 1 }
          }
        }
      }
    }
    #expect(running.current.most == 2)
  }

  @Test func typedErrorsAndTaskLocalsReachTheCaller() async {
    let lanes = BlockingLanes(laneCount: 1)
    let decodes = Protected<[Thumbnail.Source]>([])
    let outcome = await DecodeProbe.observer.withValue(
      .init { source in decodes.withLock { $0.append(source) } }
    ) {
      do throws(ImagingError) {
        return try await lanes.run { () throws(ImagingError) -> Int in
          DecodeProbe.willDecode(.primaryImage)
          throw .invalidSize(-3)
        }
      } catch {
        return -1 * (error == .invalidSize(-3) ? 1 : 0)
      }
    }
    #expect(outcome == -1)
    #expect(decodes.current == [.primaryImage])
  }
}
