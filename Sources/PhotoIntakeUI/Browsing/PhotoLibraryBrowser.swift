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
  ///
  /// Building a browser fetches nothing: a fetch before access was asked for makes PhotoKit show its own prompt,
  /// out of the app's flow. ``reload()`` (or ``observe()``) fetches once access allows reading, and then only.
  @available(iOS 17, macOS 14, *)
  @MainActor
  @Observable
  public final class PhotoLibraryBrowser {
    /// The assets, newest first by default; nil until fetched (``reload()``), and while access does not allow
    /// reading.
    public private(set) var assets: PHFetchResult<PHAsset>?
    /// The details of the last change applied; nil before the first.
    public private(set) var lastChange: PHFetchResultChangeDetails<PHAsset>?
    @ObservationIgnored private let options: PHFetchOptions?

    /// A browser that will fetch `PHAsset.fetchAssets(with:)` with `options` (nil: creation date, newest
    /// first). Nothing is fetched yet.
    public init(options: PHFetchOptions? = nil) {
      self.options = options ?? Self.newestFirst()
    }

    /// Whether the app's read-write access lets it read the library (`.authorized` or `.limited`).
    public static var canRead: Bool {
      let status = PHPhotoLibrary.authorizationStatus(for: .readWrite)
      return status == .authorized || status == .limited
    }

    /// Fetches, then applies library changes until the calling task is cancelled. Without read access it returns
    /// at once: registering a change observer, like fetching, could make PhotoKit prompt. Start it again when
    /// access changes (`.task(id: access.screen)`).
    public func observe() async {
      guard Self.canRead else { return }
      if assets == nil { reload() }
      for await change in PhotoLibraryChanges() {
        apply(change)
      }
    }

    /// Applies one change (exposed for apps that observe the library themselves).
    public func apply(_ change: PHChange) {
      guard let current = assets else {
        // Access may have just been granted: the first change after it is the moment to fetch.
        reload()
        return
      }
      guard let details = change.changeDetails(for: current) else { return }
      assets = details.fetchResultAfterChanges
      lastChange = details
    }

    /// Fetches again (after the access level changed: ``AccessStateMachine/Effect/reloadContent``); without
    /// read access, empties ``assets`` instead, so that PhotoKit never prompts on the app's behalf.
    public func reload() {
      assets = Self.canRead ? PHAsset.fetchAssets(with: options) : nil
      lastChange = nil
    }

    private static func newestFirst() -> PHFetchOptions {
      let options = PHFetchOptions()
      options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
      return options
    }
  }
#endif
