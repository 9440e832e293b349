import Foundation

/// One batch being imported: an `AsyncSequence` of ``ImportEvent``s, cancellable, in the user's order.
///
/// Items are received with bounded concurrency (through one work queue) and committed in groups, in the
/// batch's order (the items received while one group waits on the disk share the next group's flushes; of two
/// items with the same bytes, the first in the batch is imported and the other is its duplicate); events of
/// different items interleave, and each carries the item's index. An item is reported imported only once its
/// group is committed. Renditions, when configured, are decoded while their item waits for its commit and
/// written once it is committed. Cancelling stops items that have not been committed: their staging files are
/// deleted and they report ``Importer/Error/cancelled``. Items already reported as imported stay imported.
///
/// A session is meant to be iterated once; ``summary()`` may be awaited as well, from anywhere.
public final class ImportSession: AsyncSequence, Sendable {
  public typealias Element = ImportEvent

  private let events: AsyncStream<ImportEvent>
  private let task: Task<ImportSummary, Never>

  init(importer: Importer, items: [any ItemSource]) {
    let (stream, continuation) = AsyncStream.makeStream(of: ImportEvent.self)
    events = stream
    task = Task {
      let summary = await Self.run(importer: importer, items: items, continuation: continuation)
      continuation.yield(.finished(summary))
      continuation.finish()
      return summary
    }
  }

  public func makeAsyncIterator() -> AsyncStream<ImportEvent>.Iterator {
    events.makeAsyncIterator()
  }

  /// Stops the import. Items not yet committed are dropped; nothing partial is left.
  public func cancel() { task.cancel() }

  /// Waits for the batch to finish.
  public func summary() async -> ImportSummary { await task.value }

  private static func run(
    importer: Importer, items: [any ItemSource], continuation: AsyncStream<ImportEvent>.Continuation
  ) async -> ImportSummary {
    let library = importer.library
    let batch: BatchRecord
    do throws(Importer.Error) {
      // The whole batch is one write: it waits for another process's write, then holds the library.
      do {
        try await library.beginWriting()
      } catch {
        throw Importer.Error(writing: error)
      }
      do {
        batch = try await library.beginBatch()
      } catch {
        await library.endWriting()
        throw Importer.Error(writing: error)
      }
    } catch {
      let reports = items.indices.map { ItemReport(index: $0, result: .failed(error)) }
      for report in reports { continuation.yield(.itemFinished(report)) }
      return ImportSummary(batch: nil, items: reports, wasCancelled: Task.isCancelled)
    }
    continuation.yield(.started(batch: batch.id, count: items.count))
    // Renditions run beside the imports as a child task, so they never delay an acknowledgement.
    let renditions = importer.configuration.renditions.map {
      RenditionQueue(
        store: RenditionStore(library: importer.library, configuration: $0), events: continuation)
    }
    async let renditionsDone: Void? = renditions?.run()
    let tracker = ProgressTracker(total: items.count, continuation: continuation)
    var reports = [ItemReport?](repeating: nil, count: items.count)
    // Items are received (copied, hashed, fsynced, checked) `maximumConcurrentItems` at a time: each holds a
    // place in the work queue while it is received and gives it back before it waits for its group commit, so
    // that the next items are received (and join the next group) while a group waits on the disk. At most
    // `window` items are under way, which bounds how far receiving runs ahead of committing.
    let width = Swift.max(1, importer.configuration.maximumConcurrentItems)
    let receiving = WorkQueue(label: "PhotoIntake.Import", width: width)
    // Received items join the commit queue in the batch's order, whichever was received first: the first of
    // two items with the same bytes is the one imported, the later one its duplicate, on every run.
    let turns = CommitTurns()
    // The first full disk stops the batch: the items not yet started are reported once, as not attempted,
    // rather than each failing on its own.
    var diskFull = false
    await receiving.forEach(
      count: items.count, window: width + CommitQueue.maximumGroupSize,
      stopsAfter: { (report: ItemReport) in if case .failed(.diskFull) = report.result { true } else { false }
      }
    ) { index, slot in
      let staged = await importer.stageItem(items[index], index: index, batch: batch) { fraction in
        tracker.update(index: index, fraction: fraction)
      }
      switch staged {
      case .ready(let request, let mismatch):
        // Received: the next item may start while this one waits for its group commit, and so may the decode
        // of its renditions (written only once it is committed).
        slot.release()
        renditions?.prepare(index: index, request)
        await turns.wait(for: index)
        return await importer.commitItem(request, index: index, typeHintMismatch: mismatch) {
          turns.done(index)
        }
      case .finished(let report):
        turns.done(index)
        return report
      }
    } each: { _, report in
      reports[report.index] = report
      if case .failed(.diskFull) = report.result { diskFull = true }
      tracker.finish(index: report.index)
      continuation.yield(.itemFinished(report))
      if let asset = report.result.asset {
        renditions?.enqueue(index: report.index, asset: asset)
      } else {
        renditions?.drop(index: report.index)
      }
      tracker.emitOverall()
      return !diskFull
    }
    if diskFull {
      for index in reports.indices where reports[index] == nil {
        let report = ItemReport(index: index, result: .failed(.notAttempted))
        reports[index] = report
        continuation.yield(.itemFinished(report))
      }
    }
    renditions?.close()
    _ = await renditionsDone
    await library.endWriting()
    let final = reports.enumerated().map { index, report in
      report ?? ItemReport(index: index, result: .failed(.cancelled))
    }
    return ImportSummary(batch: batch.id, items: final, wasCancelled: Task.isCancelled)
  }
}

extension ItemReport {
  init(index: Int, result: ItemResult) {
    self.init(index: index, result: result, typeHintMismatch: nil)
  }
}

/// Per-item fractions and the events they produce, throttled to steps of 1 %.
private final class ProgressTracker: Sendable {
  private struct State {
    var fractions: [Double]
    var reported: [Double]
    var completed = 0
    var lastOverall = -1.0
  }

  private let state: Protected<State>
  private let continuation: AsyncStream<ImportEvent>.Continuation
  private let total: Int

  init(total: Int, continuation: AsyncStream<ImportEvent>.Continuation) {
    self.total = total
    self.continuation = continuation
    state = Protected(
      State(
        fractions: .init(repeating: 0, count: total), reported: .init(repeating: -1, count: total)))
  }

  func update(index: Int, fraction: Double) {
    let emit = state.withLock { state -> Bool in
      state.fractions[index] = fraction
      guard fraction >= 1 || fraction - state.reported[index] >= 0.01 else { return false }
      state.reported[index] = fraction
      return true
    }
    if emit {
      continuation.yield(.itemProgress(index: index, fraction: fraction))
      emitOverall()
    }
  }

  func finish(index: Int) {
    state.withLock { state in
      state.fractions[index] = 1
      state.completed += 1
    }
  }

  func emitOverall() {
    let progress = state.withLock { state -> ImportProgress? in
      let fraction = total == 0 ? 1 : state.fractions.reduce(0, +) / Double(total)
      guard fraction - state.lastOverall >= 0.01 || state.completed == total else { return nil }
      state.lastOverall = fraction
      return ImportProgress(completed: state.completed, total: total, fraction: fraction)
    }
    if let progress { continuation.yield(.progress(progress)) }
  }
}

/// The items' turns to join the commit queue: in the batch's order, each once every item before it has joined
/// or finished. Receiving still runs several items at once; only their places in the queue are ordered.
private final class CommitTurns: Sendable {
  private struct State {
    /// Every item before this one has had its turn.
    var next = 0
    /// Items past `next` that have had theirs.
    var done: Set<Int> = []
    var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
  }

  private let state = Protected(State())

  /// Returns once every item before `index` has joined the queue or finished, or at once when the task is
  /// cancelled (the item is then dropped, and has its turn).
  func wait(for index: Int) async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state -> Bool in
          if state.next >= index || Task.isCancelled { return true }
          state.waiting[index] = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiting.removeValue(forKey: index) }?.resume()
    }
  }

  /// The item at `index` has had its turn (called once per item).
  func done(_ index: Int) {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.done.insert(index)
      while state.done.remove(state.next) != nil { state.next += 1 }
      return state.waiting.removeValue(forKey: state.next)
    }
    next?.resume()
  }
}
