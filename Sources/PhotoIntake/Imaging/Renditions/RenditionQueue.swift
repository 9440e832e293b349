/// Makes renditions of the items an import session commits, in the background of the session: items are
/// queued as they finish and rendered a few at a time, each reported as
/// ``ImportEvent/renditionsFinished(_:)``.
///
/// The queue belongs to one session: ``run()`` is a child task of the session's task, so cancelling the
/// session stops it, and the session's `.finished` event comes after the last rendition.
///
/// An item's decode may start before its commit (``prepare(index:_:)``): the cores decode while the item's
/// group waits for the disk. Its files are still written only after it is committed and queued.
final class RenditionQueue: Sendable {
  private let store: RenditionStore
  private let items: AsyncStream<(index: Int, asset: Asset)>
  private let input: AsyncStream<(index: Int, asset: Asset)>.Continuation
  private let events: AsyncStream<ImportEvent>.Continuation

  /// Decodes started ahead of their item's commit, by item index; once ``run()`` is cancelled or done, no
  /// more are started.
  private struct Ahead {
    var tasks: [Int: Task<RenditionStore.Prepared?, Never>] = [:]
    var stopped = false
  }

  private let ahead = Protected(Ahead())

  init(store: RenditionStore, events: AsyncStream<ImportEvent>.Continuation) {
    self.store = store
    self.events = events
    (items, input) = AsyncStream.makeStream(of: (index: Int, asset: Asset).self)
  }

  /// Starts decoding the renditions of the item at `index` from its staged file, while it waits for its
  /// commit. Its files are written only if it is then committed and queued with ``enqueue(index:asset:)``.
  func prepare(index: Int, _ request: CommitRequest) {
    let task = Task { [store] in await store.prepare(request.staged, metadata: request.metadata) }
    let refused = ahead.withLock { ahead in
      if ahead.stopped { return true }
      ahead.tasks[index] = task
      return false
    }
    if refused { task.cancel() }
  }

  /// The item at `index` was not committed: its decode, if one was started, is not wanted.
  func drop(index: Int) {
    ahead.withLock { $0.tasks.removeValue(forKey: index) }?.cancel()
  }

  /// Queues an imported (or duplicate) asset: a photo, or a movie (whose renditions are poster frames).
  func enqueue(index: Int, asset: Asset) {
    input.yield((index, asset))
  }

  /// No more items will come; ``run()`` returns once the queued ones are done.
  func close() { input.finish() }

  /// Stops the decodes started ahead that no queued item will take, and any started later.
  private func stopAhead() {
    let tasks = ahead.withLock { ahead in
      ahead.stopped = true
      defer { ahead.tasks = [:] }
      return Array(ahead.tasks.values)
    }
    for task in tasks { task.cancel() }
  }

  /// The renditions of `item`: written from its decode made ahead when there is one that fits, else made the
  /// usual way.
  private func renditions(of item: (index: Int, asset: Asset)) async throws(ImagingError) -> [Rendition] {
    if let task = ahead.withLock({ $0.tasks.removeValue(forKey: item.index) }),
      let prepared = await task.value,
      let made = try await store.renditions(of: item.asset, prepared: prepared)
    {
      return made
    }
    return try await store.renditions(of: item.asset, sizes: nil, priority: .background)
  }

  /// Renders queued items until ``close()`` and the queue is empty, or the task is cancelled.
  ///
  /// A few items are under way at once (``RenditionStore/Configuration/maximumConcurrentRenditions``); each is
  /// made through the store's decode queue at background priority, within the decode budget, behind any
  /// rendition a person is waiting for.
  func run() async {
    let window = WorkQueue(
      label: "PhotoIntake.ImportRenditions", width: store.configuration.maximumConcurrentRenditions)
    await withTaskCancellationHandler {
      await window.forEach(items) { [self] item, _ in
        let result: Result<[Rendition], ImagingError>
        do throws(ImagingError) {
          result = .success(try await renditions(of: item))
        } catch {
          result = .failure(error)
        }
        return RenditionReport(index: item.index, asset: item.asset.id, result: result)
      } each: { [events] _, report in
        events.yield(.renditionsFinished(report))
        return true
      }
    } onCancel: {
      stopAhead()
    }
    stopAhead()
  }
}
