#if canImport(PhotosUI)
  import Foundation
  import PhotoIntake

  /// An `NSItemProvider` (the provider of a `PHPickerResult`) as the portable provider ``ProviderItemSource``
  /// and ``PickImport`` load from.
  ///
  /// Only forwards: `loadFileRepresentation(forTypeIdentifier:completionHandler:)` ("This file will be deleted
  /// when the completion handler returns", NSItemProvider.h), its returned `Progress` observed for
  /// `fractionCompleted` (iCloud downloads), and `Progress.cancel()`.
  public struct ItemProviderAdapter: FileRepresentationProviding, @unchecked Sendable {
    // @unchecked: NSItemProvider is not marked Sendable, but the members used here are thread-safe: its
    // `registeredTypeIdentifiers` and `suggestedName` are atomic properties, and `loadFileRepresentation` may be
    // called from any thread and calls back on a queue of its own (NSItemProvider.h). The provider is never
    // mutated through this adapter.
    public let itemProvider: NSItemProvider

    public init(_ itemProvider: NSItemProvider) { self.itemProvider = itemProvider }

    public var registeredTypeIdentifiers: [String] { itemProvider.registeredTypeIdentifiers }
    public var suggestedName: String? { itemProvider.suggestedName }

    public func loadFileRepresentation(
      forTypeIdentifier typeIdentifier: String, progress: @escaping @Sendable (Double) -> Void,
      completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void
    ) -> any FileRepresentationLoad {
      let loading = itemProvider.loadFileRepresentation(forTypeIdentifier: typeIdentifier) { url, error in
        // The URL does not escape: `completionHandler` runs synchronously in this handler, and
        // ProviderItemSource links the file into staging before it returns.
        // intake-audit:disable temp-url-escapes
        completionHandler(url, error)
      }
      return ProgressLoad(loading, progress: progress)
    }
  }

  /// A system `Progress` as a ``FileRepresentationLoad``, reporting `fractionCompleted` while it is alive.
  final class ProgressLoad: FileRepresentationLoad, @unchecked Sendable {
    // @unchecked: `Progress` is Sendable (NSProgress.h: "Thread safe via locking"); the observation is set once
    // in init and only invalidated in deinit.
    private let progress: Progress
    private var observation: NSKeyValueObservation?

    init(_ progress: Progress, progress report: @escaping @Sendable (Double) -> Void) {
      self.progress = progress
      // Key-value observing `fractionCompleted`, the documented way to follow a Progress (Foundation
      // "Progress"); .initial reports a load that is already under way.
      observation = progress.observe(\.fractionCompleted, options: [.initial, .new]) { progress, _ in
        report(progress.fractionCompleted)
      }
    }

    deinit { observation?.invalidate() }

    func cancel() { progress.cancel() }
  }
#endif
