import Foundation

/// The one scheduler of PhotoIntake's work: a queue with a limit on how many jobs run at once and on what they
/// may cost together, priorities, cancellation of waiting jobs, and merging of identical requests.
///
/// As Nuke schedules an image pipeline (`TaskQueue`, with request coalescing), rather than a task-group window
/// written at each call site: an import's items, a verification's objects, renditions made during an import
/// and on demand, and the command-line tool's files all go through one of these.
///
/// - A job is admitted when fewer than ``width`` run and its ``cost`` fits in what the running jobs left of
///   the ``budget`` (the decoded pixels of renditions, for example). A job costing more than the whole budget
///   runs alone rather than never.
/// - Waiting jobs are admitted highest ``Priority`` first, then in the order they came. A job at the head that
///   does not fit makes the others wait too, so that a large job is never starved by small ones.
/// - A job whose task is cancelled while it waits leaves the queue at once and never runs (its caller gets
///   nil). A running job runs to its end; its own code decides what cancellation means to it.
/// - Requests with the same key while one is waiting or running share its job and its result; the job is
///   cancelled only when every request for it is, and it runs at the highest priority asked.
///
/// Jobs are `async`: whatever blocks inside them (a copy, an `fsync`, a decode) runs on ``BlockingLanes``,
/// never on Swift's cooperative pool. The queue itself only admits and counts; it never blocks a thread.
package final class WorkQueue: Sendable {
  /// How urgent a job is.
  package enum Priority: Int, Sendable, Comparable {
    /// Work nobody waits for: renditions made in the background of an import.
    case background
    /// Work a caller waits for: an import's items, a verification.
    case normal
    /// Work a person is looking at: a rendition a visible cell asked for.
    case userInitiated

    package static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// A job's place in the queue, held from its admission until it is given back: by ``release()``, or when
  /// the job ends. A job may give it back early when the rest of it only waits (an imported item waiting for
  /// its group commit), so that the next job can start.
  package final class Slot: Sendable {
    private let queue: WorkQueue
    private let cost: Int
    private let released = Protected(false)

    fileprivate init(queue: WorkQueue, cost: Int) {
      self.queue = queue
      self.cost = cost
    }

    /// Gives the slot back (once; later calls do nothing).
    package func release() {
      let first = released.withLock { released -> Bool in
        defer { released = true }
        return !released
      }
      if first { queue.release(cost: cost) }
    }

    deinit { release() }
  }

  private struct Waiter {
    var ticket: UInt64
    var priority: Priority
    var cost: Int
    var continuation: CheckedContinuation<Slot?, Never>
  }

  /// A job shared by several identical requests (see ``run(priority:cost:merging:_:)``).
  private struct Shared {
    /// The job's own task: admitted, run, then its result handed to every waiting request.
    var task: Task<Void, Never>
    var ticket: UInt64
    var priority: Priority
    /// The requests waiting for its result, by their own ticket.
    var waiters: [UInt64: CheckedContinuation<(any Sendable)?, Never>]
  }

  /// A merging key: built only from a `Hashable & Sendable` value, so sharing it between threads is safe.
  private struct SharedKey: Hashable, @unchecked Sendable {
    let value: AnyHashable
  }

  private struct State {
    var running = 0
    var held = 0
    /// Highest priority first, then by ticket (arrival).
    var waiting: [Waiter] = []
    var nextTicket: UInt64 = 0
    var shared: [SharedKey: Shared] = [:]
  }

  /// A name for messages and tests.
  package let label: String
  /// The most jobs that run at once.
  package let width: Int
  /// What the running jobs may cost together (in the unit their costs use).
  package let budget: Int
  private let state = Protected(State())

  /// A queue running at most `width` jobs at once, whose costs together stay within `budget`.
  package init(label: String, width: Int, budget: Int = .max) {
    self.label = label
    self.width = max(1, width)
    self.budget = max(1, budget)
  }

  private static let registry = Protected<[String: WorkQueue]>([:])

  /// Work over whole files (reading their metadata, making their renditions), one job per core.
  package static let files = WorkQueue(
    label: "PhotoIntake.Files", width: ProcessInfo.processInfo.activeProcessorCount)

  /// The queue with this label, width and budget for the whole process: every caller that asks with the same
  /// values shares its slots (the renditions of every store with the default configuration share one).
  package static func shared(label: String, width: Int, budget: Int = .max) -> WorkQueue {
    let key = "\(label)/\(max(1, width))/\(max(1, budget))"
    return registry.withLock { registry in
      if let queue = registry[key] { return queue }
      let queue = WorkQueue(label: label, width: width, budget: budget)
      registry[key] = queue
      return queue
    }
  }

  /// How many jobs run now, and how many wait (for tests and progress).
  package var load: (running: Int, waiting: Int) {
    state.withLock { ($0.running, $0.waiting.count) }
  }

  // MARK: Admission

  /// Waits for a slot.
  ///
  /// - Returns: the slot, or nil when the calling task was cancelled before one was free.
  package func admit(priority: Priority = .normal, cost: Int = 1) async -> Slot? {
    let ticket = state.withLock { state -> UInt64 in
      defer { state.nextTicket += 1 }
      return state.nextTicket
    }
    return await admit(ticket: ticket, priority: priority, cost: cost)
  }

  /// Waits for a slot under `ticket`. A shared job (`merging`) is queued at its entry's priority, read under the
  /// same lock as its insertion, so that a more urgent request merged in before it was queued is not lost.
  private func admit(ticket: UInt64, priority: Priority, cost: Int, merging key: SharedKey? = nil) async
    -> Slot?
  {
    let cost = max(0, cost)
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Slot?, Never>) in
        let resume = state.withLock { state -> [(CheckedContinuation<Slot?, Never>, Slot?)] in
          // Checked under the lock: a cancellation before this point found nothing to remove.
          if Task.isCancelled { return [(continuation, nil)] }
          let urgency = key.flatMap { state.shared[$0]?.priority }.map { max($0, priority) } ?? priority
          let waiter = Waiter(ticket: ticket, priority: urgency, cost: cost, continuation: continuation)
          let index = state.waiting.firstIndex { Self.precedes(waiter, $0) } ?? state.waiting.endIndex
          state.waiting.insert(waiter, at: index)
          return admitWaiting(&state)
        }
        for (continuation, slot) in resume { continuation.resume(returning: slot) }
      }
    } onCancel: {
      let resume = state.withLock { state -> [(CheckedContinuation<Slot?, Never>, Slot?)] in
        guard let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) else { return [] }
        let removed = state.waiting.remove(at: index).continuation
        // The head may have been the one that did not fit: the next ones may now.
        return [(removed, nil)] + admitWaiting(&state)
      }
      for (continuation, slot) in resume { continuation.resume(returning: slot) }
    }
  }

  private static func precedes(_ a: Waiter, _ b: Waiter) -> Bool {
    a.priority != b.priority ? a.priority > b.priority : a.ticket < b.ticket
  }

  /// Admits waiters from the head while they fit; returns whom to resume (outside the lock).
  private func admitWaiting(_ state: inout State) -> [(CheckedContinuation<Slot?, Never>, Slot?)] {
    var admitted: [(CheckedContinuation<Slot?, Never>, Slot?)] = []
    while let head = state.waiting.first, state.running < width,
      state.running == 0 || state.held + head.cost <= budget
    {
      state.waiting.removeFirst()
      state.running += 1
      state.held += head.cost
      admitted.append((head.continuation, Slot(queue: self, cost: head.cost)))
    }
    return admitted
  }

  fileprivate func release(cost: Int) {
    let resume = state.withLock { state -> [(CheckedContinuation<Slot?, Never>, Slot?)] in
      state.running -= 1
      state.held -= cost
      return admitWaiting(&state)
    }
    for (continuation, slot) in resume { continuation.resume(returning: slot) }
  }

  /// Raises a waiting job's priority (a more urgent request merged into it).
  private func raise(ticket: UInt64, to priority: Priority) {
    let resume = state.withLock { state -> [(CheckedContinuation<Slot?, Never>, Slot?)] in
      guard let index = state.waiting.firstIndex(where: { $0.ticket == ticket }),
        state.waiting[index].priority < priority
      else { return [] }
      var waiter = state.waiting.remove(at: index)
      waiter.priority = priority
      let position = state.waiting.firstIndex { Self.precedes(waiter, $0) } ?? state.waiting.endIndex
      state.waiting.insert(waiter, at: position)
      return admitWaiting(&state)
    }
    for (continuation, slot) in resume { continuation.resume(returning: slot) }
  }

  // MARK: Running

  /// Runs `job` once admitted, in the calling task; the slot is given back when it ends (or earlier, by the job).
  ///
  /// - Returns: the job's result, or nil when the task was cancelled before the job could start.
  package func run<T: Sendable>(
    priority: Priority = .normal, cost: Int = 1, _ job: (Slot) async -> T
  ) async -> T? {
    guard let slot = await admit(priority: priority, cost: cost) else { return nil }
    defer { slot.release() }
    return await job(slot)
  }

  /// Runs `job` once admitted, shared with every other request with the same `key` made while it waits or
  /// runs: they all get its one result. A request that is cancelled returns nil at once; the job is cancelled
  /// only when every request for it is, and it runs at the highest priority any of them asked.
  ///
  /// - Returns: the job's result, or nil when this request was cancelled before the job ended, or the job was
  ///   cancelled before it could start.
  package func run<T: Sendable>(
    priority: Priority = .normal, cost: Int = 1, merging key: some Hashable & Sendable,
    _ job: @escaping @Sendable () async -> T
  ) async -> T? {
    let key = SharedKey(value: AnyHashable(key))
    let caller = state.withLock { state -> UInt64 in
      defer { state.nextTicket += 1 }
      return state.nextTicket
    }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<(any Sendable)?, Never>) in
        let (resumeNow, raise) = state.withLock { state -> (Bool, (UInt64, Priority)?) in
          // Checked under the lock: a cancellation before this point found no request to remove.
          if Task.isCancelled { return (true, nil) }
          if var shared = state.shared[key] {
            shared.waiters[caller] = continuation
            let raise = priority > shared.priority ? (shared.ticket, priority) : nil
            shared.priority = max(shared.priority, priority)
            state.shared[key] = shared
            return (false, raise)
          }
          // The first request: the job gets a task of its own, so that no one request's cancellation ends it.
          // The task starts after this lock is released, and finds its entry in place.
          let task = Task {
            var result: (any Sendable)?
            if let slot = await self.admit(ticket: caller, priority: priority, cost: cost, merging: key) {
              result = await job()
              slot.release()
            }
            self.finishShared(key, ticket: caller, result: result)
          }
          state.shared[key] = Shared(
            task: task, ticket: caller, priority: priority, waiters: [caller: continuation])
          return (false, nil)
        }
        if resumeNow { continuation.resume(returning: nil) }
        if let (ticket, priority) = raise { self.raise(ticket: ticket, to: priority) }
      }
    } onCancel: {
      let (gone, abandoned) = state.withLock {
        state -> (CheckedContinuation<(any Sendable)?, Never>?, Task<Void, Never>?) in
        guard var shared = state.shared[key], let gone = shared.waiters.removeValue(forKey: caller) else {
          return (nil, nil)
        }
        if shared.waiters.isEmpty {
          // Nobody wants the result any more: the job is cancelled, and a new request starts afresh.
          state.shared[key] = nil
          return (gone, shared.task)
        }
        state.shared[key] = shared
        return (gone, nil)
      }
      gone?.resume(returning: nil)
      abandoned?.cancel()
    }
    return result as? T
  }

  /// Hands a shared job's result to every request still waiting for it.
  private func finishShared(_ key: SharedKey, ticket: UInt64, result: (any Sendable)?) {
    let waiters = state.withLock { state -> [CheckedContinuation<(any Sendable)?, Never>] in
      guard let shared = state.shared[key], shared.ticket == ticket else { return [] }
      state.shared[key] = nil
      return Array(shared.waiters.values)
    }
    for waiter in waiters { waiter.resume(returning: result) }
  }

  /// Runs `job` for each element of `items`, each once admitted (see ``admit(priority:cost:)``), in the items'
  /// order of admission. At most `window` jobs are under way — waiting for a slot, running, or finishing after
  /// they gave their slot back — so that a long sequence never becomes a crowd of waiting tasks. `each` gets
  /// every result on the calling task, one at a time, as the jobs finish — or in the items' order when
  /// `ordered` — and returns false to stop taking items.
  ///
  /// Once `each` returns false, or a job's result makes `stopsAfter` true, or the calling task is cancelled, no
  /// item is taken any more and the jobs still waiting for a slot never start (`each` does not hear of them);
  /// the jobs under way end as their code decides. `stopsAfter` is asked in the job's own task before it gives
  /// its slot back, so that not even the next waiting job starts (an import's first full disk).
  package func forEach<Items: AsyncSequence & Sendable, T: Sendable>(
    _ items: Items, window: Int? = nil, priority: Priority = .normal, ordered: Bool = false,
    cost: @escaping @Sendable (Items.Element) -> Int = { _ in 1 },
    stopsAfter: (@Sendable (T) -> Bool)? = nil,
    _ job: @escaping @Sendable (Items.Element, Slot) async -> T,
    each: (Int, T) async -> Bool
  ) async where Items.Element: Sendable {
    let window = max(1, window ?? width)
    // Read by jobs that were admitted after `each` asked to stop: they give their slot back unstarted.
    let stopped = Protected(false)
    await withTaskGroup(of: (Int, T?).self) { group in
      var iterator = items.makeAsyncIterator()
      var started = 0
      var underWay = 0
      var taking = true
      var pending: [Int: T?] = [:]
      var nextToDeliver = 0
      func deliver(_ index: Int, _ result: T?) async {
        // Jobs that started before a stop still report: their work happened.
        guard let result else { return }
        if !(await each(index, result)) {
          taking = false
          stopped.withLock { $0 = true }
        }
      }
      while true {
        while taking, underWay < window, !Task.isCancelled {
          guard let item = try? await iterator.next() else {
            taking = false
            break
          }
          // The ticket is taken here, so that jobs are admitted in the items' order whatever order their tasks
          // start in.
          let ticket = state.withLock { state -> UInt64 in
            defer { state.nextTicket += 1 }
            return state.nextTicket
          }
          let index = started
          started += 1
          underWay += 1
          let cost = cost(item)
          group.addTask {
            guard let slot = await self.admit(ticket: ticket, priority: priority, cost: cost) else {
              return (index, nil)
            }
            defer { slot.release() }
            if stopped.current { return (index, nil) }
            let result = await job(item, slot)
            if let stopsAfter, stopsAfter(result) { stopped.withLock { $0 = true } }
            return (index, result)
          }
        }
        guard let (index, result) = await group.next() else { break }
        underWay -= 1
        if ordered {
          pending[index] = .some(result)
          while let ready = pending.removeValue(forKey: nextToDeliver) {
            await deliver(nextToDeliver, ready)
            nextToDeliver += 1
          }
        } else {
          await deliver(index, result)
        }
      }
    }
  }

  /// ``forEach(_:window:priority:ordered:cost:_:each:)`` over the indices `0..<count`.
  package func forEach<T: Sendable>(
    count: Int, window: Int? = nil, priority: Priority = .normal, ordered: Bool = false,
    cost: @escaping @Sendable (Int) -> Int = { _ in 1 }, stopsAfter: (@Sendable (T) -> Bool)? = nil,
    _ job: @escaping @Sendable (Int, Slot) async -> T, each: (Int, T) async -> Bool
  ) async {
    await forEach(
      Indices(count: count), window: window, priority: priority, ordered: ordered, cost: cost,
      stopsAfter: stopsAfter, job, each: each)
  }

  /// The results of `job` for `0..<count`, in index order (nil where cancellation stopped it first).
  package func map<T: Sendable>(
    count: Int, priority: Priority = .normal, _ job: @escaping @Sendable (Int) async -> T
  ) async -> [T?] {
    var results = [T?](repeating: nil, count: count)
    await forEach(count: count, priority: priority, { index, _ in await job(index) }) { index, result in
      results[index] = result
      return true
    }
    return results
  }

  /// `0..<count` as an `AsyncSequence`.
  private struct Indices: AsyncSequence, Sendable {
    typealias Element = Int
    let count: Int

    struct AsyncIterator: AsyncIteratorProtocol {
      var next = 0
      let count: Int
      mutating func next() async -> Int? {
        guard next < count else { return nil }
        defer { next += 1 }
        return next
      }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count) }
  }
}
