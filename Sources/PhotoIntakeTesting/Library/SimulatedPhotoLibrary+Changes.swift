import Foundation

extension SimulatedPhotoLibrary {
  /// The library's changes from now on (`PHPhotoLibrary.register(_:)` with a `PHPhotoLibraryChangeObserver`).
  ///
  /// Every change is delivered: new and deleted assets, edits, favourites, date adjustments, and changes of
  /// what the app may see (a widened or narrowed limited selection, access granted or revoked), which PhotoKit
  /// also reports as library changes (WWDC20 "Handle the Limited Photos Library in your app"). Ask each change
  /// for the details of the fetch results on screen.
  ///
  /// The stream ends when the task iterating it is cancelled.
  public func changes() -> AsyncStream<SimulatedLibraryChange> {
    let (stream, continuation) = AsyncStream.makeStream(of: SimulatedLibraryChange.self)
    let key = UUID()
    state.withLock { $0.observers[key] = continuation }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.observers.removeValue(forKey: key) }
    }
    return stream
  }
}
