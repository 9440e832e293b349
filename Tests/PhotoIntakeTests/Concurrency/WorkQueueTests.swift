import Foundation
import Testing

@testable import PhotoIntake

/// The one work queue: its limit, budget, priorities, cancellation and merging, each checked by holding jobs
/// open and looking at what the queue lets run.
@Suite(.timeLimit(.minutes(1))) struct WorkQueueTests {
  /// Jobs wait here until the test lets them end.
  final class Latch: Sendable {
    private let state = Protected<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
      await withCheckedContinuation { continuation in
        let resumeNow = state.withLock { state -> Bool in
          if state.open { return true }
          state.waiting.append(continuation)
          return false
        }
        if resumeNow { continuation.resume() }
      }
    }

    func open() {
      let waiting = state.withLock { state in
        state.open = true
        defer { state.waiting = [] }
        return state.waiting
      }
      for continuation in waiting { continuation.resume() }
    }
  }

  /// Records which jobs ran, in order, and how many ran at once at most.
  final class Log: Sendable {
    private let state = Protected<(order: [String], running: Int, most: Int)>(([], 0, 0))
    func start(_ name: String) {
      state.withLock { state in
        state.order.append(name)
        state.running += 1
        state.most = max(state.most, state.running)
      }
    }
    func end() { state.withLock { $0.running -= 1 } }
    var order: [String] { state.current.order }
    var most: Int { state.current.most }
  }

  /// Waits until `condition` holds (the queue's state changes on other threads).
  func until(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
      guard ContinuousClock.now < deadline else { throw CancellationError() }
      try await Task.sleep(for: .milliseconds(2))
    }
  }

  @Test func noMoreThanTheWidthRunAtOnce() async throws {
    let queue = WorkQueue(label: "test", width: 2)
    let log = Log()
    await queue.forEach(count: 12) { index, _ in
      log.start("\(index)")
      try? await Task.sleep(for: .milliseconds(5))
      log.end()
      return index
    } each: { _, _ in
      true
    }
    #expect(log.order.count == 12)
    #expect(log.most == 2)
  }

  @Test func costsStayWithinTheBudgetAndALargeJobRunsAlone() async throws {
    let queue = WorkQueue(label: "test", width: 4, budget: 10)
    let held = Protected<(now: Int, most: Int, aloneOverBudget: Bool)>((0, 0, true))
    let costs = [4, 4, 4, 30, 2, 6]
    await queue.forEach(count: costs.count, cost: { costs[$0] }) { index, _ in
      held.withLock { state in
        state.now += costs[index]
        state.most = max(state.most, state.now)
        if costs[index] > 10 && state.now != costs[index] { state.aloneOverBudget = false }
      }
      try? await Task.sleep(for: .milliseconds(10))
      held.withLock { $0.now -= costs[index] }
      return index
    } each: { _, _ in
      true
    }
    #expect(held.current.aloneOverBudget, "the job over the budget shared it")
    // Only the over-budget job, alone, may exceed the budget.
    #expect(held.current.most == 30)
    let within = Protected(0)
    let queue2 = WorkQueue(label: "test", width: 4, budget: 10)
    await queue2.forEach(count: 5, cost: { _ in 4 }) { _, _ in
      within.withLock { $0 += 4 }
      let now = within.current
      try? await Task.sleep(for: .milliseconds(10))
      within.withLock { $0 -= 4 }
      return now
    } each: { _, now in
      #expect(now <= 8, "two jobs of 4 fit a budget of 10; three do not")
      return true
    }
  }

  @Test func waitingJobsRunHighestPriorityFirstThenInOrder() async throws {
    let queue = WorkQueue(label: "test", width: 1)
    let latch = Latch()
    defer { latch.open() }
    let log = Log()
    let blocker = Task { await queue.run { _ in await latch.wait() } }
    try await until { queue.load.running == 1 }
    var tasks: [Task<Void, Never>] = []
    for (name, priority) in [
      ("b1", WorkQueue.Priority.background), ("n1", .normal), ("u1", .userInitiated), ("b2", .background),
      ("u2", .userInitiated),
    ] {
      tasks.append(Task { _ = await queue.run(priority: priority) { _ in log.start(name) } })
      try await until { queue.load.waiting == tasks.count }
    }
    latch.open()
    _ = await blocker.value
    for task in tasks { await task.value }
    #expect(log.order == ["u1", "u2", "n1", "b1", "b2"])
  }

  @Test func aCancelledWaitingJobNeverRunsAndTheNextOneDoes() async throws {
    let queue = WorkQueue(label: "test", width: 1)
    let latch = Latch()
    defer { latch.open() }
    let log = Log()
    let blocker = Task { await queue.run { _ in await latch.wait() } }
    try await until { queue.load.running == 1 }
    let cancelled = Task { await queue.run { _ in log.start("cancelled") } }
    try await until { queue.load.waiting == 1 }
    let next = Task { await queue.run { _ in log.start("next") } }
    try await until { queue.load.waiting == 2 }
    cancelled.cancel()
    #expect(await cancelled.value == nil)
    #expect(queue.load.waiting == 1, "the cancelled job left the queue at once")
    latch.open()
    _ = await blocker.value
    #expect(await next.value != nil)
    #expect(log.order == ["next"])
  }

  @Test func identicalRequestsShareOneJob() async throws {
    let queue = WorkQueue(label: "test", width: 2)
    let latch = Latch()
    defer { latch.open() }
    let runs = Protected(0)
    let job: @Sendable () async -> Int = {
      runs.withLock { $0 += 1 }
      await latch.wait()
      return 42
    }
    let first = Task { await queue.run(merging: "same", job) }
    try await until { runs.current == 1 }
    let second = Task { await queue.run(merging: "same", job) }
    let other = Task { await queue.run(merging: "other", job) }
    try await until { runs.current >= 2 }
    latch.open()
    #expect(await first.value == 42)
    #expect(await second.value == 42)
    #expect(await other.value == 42)
    #expect(runs.current == 2, "the second request for the same key ran the job again")
  }

  @Test func aSharedJobIsCancelledOnlyWhenEveryRequestIs() async throws {
    let queue = WorkQueue(label: "test", width: 1)
    let latch = Latch()
    defer { latch.open() }
    let blocker = Task { await queue.run { _ in await latch.wait() } }
    try await until { queue.load.running == 1 }
    let ran = Protected(false)
    let job: @Sendable () async -> Int = {
      ran.withLock { $0 = true }
      return 7
    }
    let one = Task { await queue.run(merging: "k", job) }
    try await until { queue.load.waiting == 1 }
    let two = Task { await queue.run(merging: "k", job) }
    try await Task.sleep(for: .milliseconds(20))
    one.cancel()
    #expect(await one.value == nil)
    #expect(queue.load.waiting == 1, "one request of two cancelled: the job still waits")
    two.cancel()
    #expect(await two.value == nil)
    try await until { queue.load.waiting == 0 }
    latch.open()
    _ = await blocker.value
    try await Task.sleep(for: .milliseconds(20))
    #expect(!ran.current, "a job nobody wants any more ran")
  }

  @Test func aMoreUrgentRequestRaisesTheSharedJob() async throws {
    let queue = WorkQueue(label: "test", width: 1)
    let latch = Latch()
    defer { latch.open() }
    let log = Log()
    let blocker = Task { await queue.run { _ in await latch.wait() } }
    try await until { queue.load.running == 1 }
    let normal = Task { _ = await queue.run(priority: .normal) { _ in log.start("normal") } }
    try await until { queue.load.waiting == 1 }
    let background = Task {
      _ = await queue.run(priority: .background, merging: "rendition") { log.start("shared") }
    }
    try await until { queue.load.waiting == 2 }
    let urgent = Task {
      _ = await queue.run(priority: .userInitiated, merging: "rendition") { log.start("shared") }
    }
    try await Task.sleep(for: .milliseconds(20))
    latch.open()
    for task in [blocker] { _ = await task.value }
    for task in [normal, background, urgent] { await task.value }
    #expect(log.order == ["shared", "normal"])
  }

  @Test func forEachKeepsAtMostTheWindowUnderWayAndDeliversInOrderWhenAsked() async throws {
    let queue = WorkQueue(label: "test", width: 2)
    let underWay = Protected<(now: Int, most: Int)>((0, 0))
    var delivered: [Int] = []
    await queue.forEach(count: 20, window: 5, ordered: true) { index, slot in
      underWay.withLock { state in
        state.now += 1
        state.most = max(state.most, state.now)
      }
      // Gives the slot back early, as an imported item does while it waits for its group commit.
      slot.release()
      try? await Task.sleep(for: .milliseconds(UInt64((20 - index) % 7)))
      underWay.withLock { $0.now -= 1 }
      return index
    } each: { index, result in
      #expect(index == result)
      delivered.append(index)
      return true
    }
    #expect(delivered == Array(0..<20))
    #expect(underWay.current.most <= 5)
    #expect(underWay.current.most > 2, "jobs that gave their slot back let others start")
  }

  @Test func afterAStopNoWaitingJobStarts() async throws {
    let queue = WorkQueue(label: "test", width: 1)
    let started = Protected<[Int]>([])
    await queue.forEach(count: 10, window: 4) { index, _ in
      started.withLock { $0.append(index) }
      return index
    } each: { index, _ in
      index < 1
    }
    // Item 1 said stop; items already admitted before that may have run, nothing after the window did.
    #expect(started.current.count < 10)
    #expect(started.current.allSatisfy { $0 < 5 }, "\(started.current)")
  }

  @Test func aCancelledForEachStopsTakingItems() async throws {
    let queue = WorkQueue(label: "test", width: 1)
    let started = Protected(0)
    let task = Task {
      await queue.forEach(count: 1000) { _, _ in
        started.withLock { $0 += 1 }
        try? await Task.sleep(for: .milliseconds(1))
        return 0
      } each: { _, _ in
        true
      }
    }
    try await until { started.current >= 3 }
    task.cancel()
    await task.value
    let after = started.current
    #expect(after < 1000)
    try await Task.sleep(for: .milliseconds(30))
    #expect(started.current == after, "jobs started after the cancellation")
  }
}
