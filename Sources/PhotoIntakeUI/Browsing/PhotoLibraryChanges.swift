#if canImport(Photos)
  import Foundation
  import Photos

  /// The photo library's changes as an `AsyncSequence` of `PHChange`: a `PHPhotoLibraryChangeObserver` is
  /// registered when iteration starts and unregistered when it ends (the loop is left, or its task cancelled).
  ///
  /// PhotoKit calls observers "on an arbitrary serial queue" (PHPhotoLibrary.h); the sequence hands each
  /// change to the iterating task, which applies it where it runs (``PhotoLibraryBrowser`` on the main actor).
  /// Changes that arrive while the consumer is busy are buffered in order.
  ///
  /// ```swift
  /// for await change in PhotoLibraryChanges() {
  ///   if let details = change.changeDetails(for: fetchResult) { fetchResult = details.fetchResultAfterChanges }
  /// }
  /// ```
  public struct PhotoLibraryChanges: AsyncSequence, Sendable {
    public typealias Element = PHChange

    public let library: PHPhotoLibrary

    public init(library: PHPhotoLibrary = .shared()) { self.library = library }

    public func makeAsyncIterator() -> AsyncStream<PHChange>.Iterator {
      let (stream, continuation) = AsyncStream.makeStream(of: PHChange.self)
      let observer = ChangeForwarder(continuation: continuation)
      library.register(observer)
      let library = self.library
      // Unregistering is what stops PhotoKit from keeping the observer (and computing changes for it).
      continuation.onTermination = { _ in library.unregisterChangeObserver(observer) }
      return stream.makeAsyncIterator()
    }
  }

  /// Forwards `photoLibraryDidChange(_:)` into a stream.
  private final class ChangeForwarder: NSObject, PHPhotoLibraryChangeObserver, Sendable {
    private let continuation: AsyncStream<PHChange>.Continuation

    init(continuation: AsyncStream<PHChange>.Continuation) { self.continuation = continuation }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
      continuation.yield(changeInstance)
    }
  }
#endif
