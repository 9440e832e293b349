/// Makes renditions of the items an import session commits, in the background of the session: items are
/// queued as they finish and rendered a few at a time, each reported as
/// ``ImportEvent/renditionsFinished(_:)``.
///
/// The queue belongs to one session: ``run()`` is a child task of the session's task, so cancelling the
/// session stops it, and the session's `.finished` event comes after the last rendition.
final class RenditionQueue: Sendable {
  private let store: RenditionStore
  private let items: AsyncStream<(index: Int, asset: Asset)>
  private let input: AsyncStream<(index: Int, asset: Asset)>.Continuation
  private let events: AsyncStream<ImportEvent>.Continuation

  init(store: RenditionStore, events: AsyncStream<ImportEvent>.Continuation) {
    self.store = store
    self.events = events
    (items, input) = AsyncStream.makeStream(of: (index: Int, asset: Asset).self)
  }

  /// Queues an imported (or duplicate) asset: a photo, or a movie (whose renditions are poster frames).
  func enqueue(index: Int, asset: Asset) {
    input.yield((index, asset))
  }

  /// No more items will come; ``run()`` returns once the queued ones are done.
  func close() { input.finish() }

  /// Renders queued items until ``close()`` and the queue is empty, or the task is cancelled.
  ///
  /// A few items are under way at once (``RenditionStore/Configuration/maximumConcurrentRenditions``); each is
  /// made through the store's decode queue at background priority, within the decode budget, behind any
  /// rendition a person is waiting for.
  func run() async {
    let window = WorkQueue(
      label: "PhotoIntake.ImportRenditions", width: store.configuration.maximumConcurrentRenditions)
    await window.forEach(items) { [store] item, _ in
      let result: Result<[Rendition], ImagingError>
      do throws(ImagingError) {
        result = .success(try await store.renditions(of: item.asset, sizes: nil, priority: .background))
      } catch {
        result = .failure(error)
      }
      return RenditionReport(index: item.index, asset: item.asset.id, result: result)
    } each: { [events] _, report in
      events.yield(.renditionsFinished(report))
      return true
    }
  }
}
