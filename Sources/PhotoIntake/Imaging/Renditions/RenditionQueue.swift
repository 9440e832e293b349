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
  func run() async {
    let width = max(1, store.configuration.maximumConcurrentRenditions)
    let budget = store.configuration.decodeBudget
    let largest = store.configuration.sizes.max() ?? 320
    await withTaskGroup(of: Int.self) { group in
      var running = 0
      var held = 0
      for await item in items {
        // Admission: a free slot, and room in the decode budget (unless nothing runs: then it goes alone).
        let cost = ThumbnailPlan.decodedPixels(item.asset.metadata, size: largest)
        while running >= width || (running > 0 && cost > budget - held) {
          held -= await group.next() ?? 0
          running -= 1
        }
        held += cost
        group.addTask { [store, events] in
          let result: Result<[Rendition], ImagingError>
          do throws(ImagingError) {
            result = .success(try await store.renditions(of: item.asset))
          } catch {
            result = .failure(error)
          }
          events.yield(
            .renditionsFinished(RenditionReport(index: item.index, asset: item.asset.id, result: result)))
          return cost
        }
        running += 1
      }
    }
  }
}
