#if canImport(Photos) && canImport(Observation)
  import Observation
  import Photos
  import PhotoIntake

  /// The user's library (or limited selection) as a fetch result kept current: browsing is opt-in and needs
  /// read-write access (``PhotoFeature/browse``), which ``PhotoLibraryAccess`` asks for.
  ///
  /// ``observe()`` iterates ``PhotoLibraryChanges`` and applies each change's details on the main actor,
  /// replacing ``assets`` with `fetchResultAfterChanges` and publishing ``lastChange`` (removed, inserted,
  /// changed indexes and moves, as `PHFetchResultChangeDetails` gives them) for a grid that animates. The
  /// observer is unregistered when the observing task ends:
  ///
  /// ```swift
  /// LibraryGrid(browser: browser).task { await browser.observe() }   // ends, and unregisters, on disappear
  /// ```
  @available(iOS 17, *)
  @MainActor
  @Observable
  public final class PhotoLibraryBrowser {
    /// The assets, newest first by default.
    public private(set) var assets: PHFetchResult<PHAsset>
    /// The details of the last change applied; nil before the first.
    public private(set) var lastChange: PHFetchResultChangeDetails<PHAsset>?
    @ObservationIgnored private let options: PHFetchOptions?

    /// Fetches `PHAsset.fetchAssets(with:)` with `options` (nil: creation date, newest first).
    public init(options: PHFetchOptions? = nil) {
      let fetchOptions = options ?? Self.newestFirst()
      self.options = fetchOptions
      assets = PHAsset.fetchAssets(with: fetchOptions)
    }

    /// Applies library changes until the calling task is cancelled.
    public func observe() async {
      for await change in PhotoLibraryChanges() {
        apply(change)
      }
    }

    /// Applies one change (exposed for apps that observe the library themselves).
    public func apply(_ change: PHChange) {
      guard let details = change.changeDetails(for: assets) else { return }
      assets = details.fetchResultAfterChanges
      lastChange = details
    }

    /// Fetches again (after the access level changed: ``AccessStateMachine/Effect/reloadContent``).
    public func reload() {
      assets = PHAsset.fetchAssets(with: options)
      lastChange = nil
    }

    private static func newestFirst() -> PHFetchOptions {
      let options = PHFetchOptions()
      options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
      return options
    }
  }
#endif
