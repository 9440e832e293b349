#if canImport(Photos) && canImport(PhotosUI) && canImport(UIKit) && canImport(Combine)
  import Combine
  import Photos
  import PhotoIntake
  import PhotosUI
  import UIKit

  /// A grid of the user's library that shows cached thumbnails and imports what the user selects.
  ///
  /// - Fetches only once read access allows it (``load()``): a fetch before that makes PhotoKit prompt.
  /// - Cells are keyed by the asset's `localIdentifier` (``identifiers``), never by index: a library change (a
  ///   screenshot, an iCloud sync) shifts every index, and a cell keyed by index would then show one photo and
  ///   import another. ``ThumbnailGrid`` keeps each visible cell's request across inserts, removals and moves,
  ///   cancels only the removed ones' and requests the edited ones again.
  /// - Thumbnails come from a `PHCachingImageManager` at the cell's size in pixels (points × screen scale),
  ///   `.opportunistic`: a degraded image at once, then the final one, which a late degraded image never
  ///   replaces. The band around the visible cells is preheated; cells that leave the screen are cancelled.
  /// - Thumbnails are not downloaded from iCloud unless ``allowsNetworkThumbnails`` (PhotoKit keeps a local
  ///   thumbnail of every iCloud asset, and a grid that scrolls past thousands of photos on mobile data would
  ///   otherwise download their larger renditions).
  /// - ``importSelected(into:version:)`` imports the selection through ``AssetImport`` and
  ///   ``PHAssetResourceProvider``: the current version (with the user's edits), as the picker delivers it,
  ///   Live Photos linked, iCloud progress, protected by a background task (``BackgroundImportProtection``).
  /// - ``addFromLimitedPicker(presenter:into:version:)`` presents the limited-library picker and imports just
  ///   what the user added there.
  ///
  /// `ObservableObject` (not `@Observable`) so that it works from iOS 16.
  @MainActor
  public final class PhotoLibraryGridModel: ObservableObject {
    /// The assets, newest first; nil until ``load()`` found read access.
    @Published public private(set) var assets: PHFetchResult<PHAsset>?
    /// The local identifiers of ``assets``, in order: key the grid's cells by these.
    @Published public private(set) var identifiers: [String] = []
    /// The selected assets' local identifiers, in the order the user selected them.
    @Published public var selection: [String] = []
    /// The progress (0…1) of each asset being imported, by local identifier.
    @Published public private(set) var progress: [String: Double] = [:]
    /// What the last import did.
    @Published public private(set) var lastOutcome: AssetImportOutcome?
    /// Whether an import is running.
    @Published public private(set) var isImporting = false

    /// The cell's size in points.
    public var cellSize: CGSize { didSet { if cellSize != oldValue { perform(grid.sizeChanged()) } } }
    /// The screen's scale (`displayScale` in SwiftUI, `traitCollection.displayScale` in UIKit).
    public var displayScale: CGFloat {
      didSet { if displayScale != oldValue { perform(grid.sizeChanged()) } }
    }
    /// Whether thumbnails that are not on the device may be downloaded from iCloud (off by default: it may be
    /// mobile data). Imports always may: the user asked for them.
    public var allowsNetworkThumbnails: Bool

    private let imageManager = PHCachingImageManager()
    private var grid: ThumbnailGrid<PHImageRequestID>
    private var deliveries: [String: @MainActor (UIImage, Bool) -> Void] = [:]
    private let options: PHFetchOptions
    private let preheatMargin: Int

    /// A model for cells of `cellSize` points on a screen of `displayScale`, caching `preheatMargin` cells
    /// before and after the visible ones. Fetches nothing yet.
    public init(
      cellSize: CGSize, displayScale: CGFloat, preheatMargin: Int = 60, options: PHFetchOptions? = nil,
      allowsNetworkThumbnails: Bool = false
    ) {
      self.cellSize = cellSize
      self.displayScale = displayScale
      self.preheatMargin = preheatMargin
      self.allowsNetworkThumbnails = allowsNetworkThumbnails
      grid = ThumbnailGrid(identifiers: [], preheatMargin: preheatMargin)
      self.options = options ?? Self.newestFirst()
      // Thumbnails only: no full-quality copies in the cache. Set through a protocol: iOS 26 deprecates the
      // property as unused, and a direct use warns in an iOS 26 build although it still matters on earlier ones.
      (imageManager as any HighQualityImageCaching).allowsCachingHighQualityImages = false
    }

    /// The thumbnail size in pixels: the cell's points times the screen's scale.
    public var targetSize: CGSize {
      CGSize(width: cellSize.width * displayScale, height: cellSize.height * displayScale)
    }

    /// Whether the app's read-write access allows reading (`.authorized` or `.limited`).
    public var canRead: Bool {
      let status = PHPhotoLibrary.authorizationStatus(for: .readWrite)
      return status == .authorized || status == .limited
    }

    /// Fetches the assets when access allows; otherwise leaves ``assets`` nil, and PhotoKit is not asked.
    ///
    /// Cells that are on screen and still in the new result keep their requests.
    public func load() {
      let result = canRead ? PHAsset.fetchAssets(with: options) : nil
      assets = result
      follow(result.map(Self.identifiers(of:)) ?? [], changed: [])
    }

    /// Applies library changes until the calling task is cancelled (only with read access; see ``load()``).
    public func observe() async {
      guard canRead else { return }
      if assets == nil { load() }
      for await change in PhotoLibraryChanges() {
        guard let current = assets, let details = change.changeDetails(for: current) else { continue }
        let after = details.fetchResultAfterChanges
        assets = after
        // Without incremental changes PhotoKit says "reload everything"; keyed by identifier that is the
        // same step, with nothing reported as changed but what `changedObjects` names.
        follow(
          Self.identifiers(of: after), changed: Set(details.changedObjects.map(\.localIdentifier)))
      }
    }

    /// The asset with this identifier in ``assets``.
    public func asset(for identifier: String) -> PHAsset? {
      guard let assets, let index = grid.index(of: identifier), index < assets.count else { return nil }
      return assets.object(at: index)
    }

    // MARK: Thumbnails

    /// The cell of `identifier` came on screen: `deliver` gets its thumbnail, a degraded image first when
    /// one is at hand, then the final one, on the main actor; again after the asset is edited.
    public func cellAppeared(
      _ identifier: String, deliver: @escaping @MainActor (_ image: UIImage, _ isDegraded: Bool) -> Void
    ) {
      deliveries[identifier] = deliver
      perform(grid.cellAppeared(identifier))
    }

    /// The cell of `identifier` left the screen: its pending request is cancelled.
    public func cellDisappeared(_ identifier: String) {
      deliveries[identifier] = nil
      perform(grid.cellDisappeared(identifier))
    }

    private func follow(_ identifiers: [String], changed: Set<String>) {
      perform(grid.apply(identifiers: identifiers, changed: changed))
      let kept = Set(identifiers)
      deliveries = deliveries.filter { kept.contains($0.key) }
      self.identifiers = identifiers
    }

    /// Carries out what ``ThumbnailGrid`` decided, in its order: cancel, stop, start, request.
    private func perform(_ actions: ThumbnailGrid<PHImageRequestID>.Actions) {
      guard !actions.isEmpty else { return }
      for token in actions.cancel { imageManager.cancelImageRequest(token) }
      if actions.stopCachingAll { imageManager.stopCachingImagesForAllAssets() }
      let options = thumbnailOptions
      let stop = actions.stopCaching.compactMap(asset(for:))
      if !stop.isEmpty {
        imageManager.stopCachingImages(
          for: stop, targetSize: targetSize, contentMode: .aspectFill, options: options)
      }
      let start = actions.startCaching.compactMap(asset(for:))
      if !start.isEmpty {
        imageManager.startCachingImages(
          for: start, targetSize: targetSize, contentMode: .aspectFill, options: options)
      }
      for identifier in actions.request { request(identifier, options: options) }
    }

    private func request(_ identifier: String, options: PHImageRequestOptions) {
      guard let asset = asset(for: identifier) else { return }
      let token = imageManager.requestImage(
        for: asset, targetSize: targetSize, contentMode: .aspectFill, options: options
      ) { [weak self] image, info in
        let degraded = (info?[PHImageResultIsDegradedKey] as? NSNumber)?.boolValue ?? false
        let token = (info?[PHImageResultRequestIDKey] as? NSNumber)?.int32Value
        guard let image, let token else { return }
        // Asynchronous results arrive on the main thread, and an opportunistic first result may come
        // synchronously on the calling one, before `requestImage` has returned the token to record
        // (PHImageManager.h): either way the delivery waits for the next turn of the main queue.
        let box = ImageBox(image: image)
        DispatchQueue.main.async {
          MainActor.assumeIsolated { self?.deliver(box.image, token: token, for: identifier, degraded) }
        }
      }
      grid.requested(identifier, token: token)
    }

    private func deliver(_ image: UIImage, token: PHImageRequestID, for identifier: String, _ degraded: Bool)
    {
      guard grid.accepts(token, for: identifier, isDegraded: degraded) else { return }
      deliveries[identifier]?(image, degraded)
    }

    private static func identifiers(of result: PHFetchResult<PHAsset>) -> [String] {
      // O(n) in the result; PhotoKit faults the objects in batches. A grid keyed by identifier needs them all
      // (SwiftUI's `ForEach` diffs the whole list).
      var identifiers: [String] = []
      identifiers.reserveCapacity(result.count)
      result.enumerateObjects { asset, _, _ in identifiers.append(asset.localIdentifier) }
      return identifiers
    }

    // MARK: Importing

    /// Imports the selected assets into the importer's library, in the order selected.
    @discardableResult
    public func importSelected(into importer: Importer, version: AssetVersion = .current) async
      -> AssetImportOutcome
    {
      await importAssets(selection, into: importer, version: version)
    }

    /// Presents the limited-library picker and imports the assets the user added there
    /// (the `async` form of `presentLimitedLibraryPicker(from:completionHandler:)` gives their identifiers,
    /// iOS 15 and later).
    ///
    /// Only with limited access: otherwise "calling this method does nothing" (PhotoKit's documentation of the
    /// picker), so its completion handler would never run and the import would wait for ever.
    ///
    /// - Returns: nil when the user added nothing, or when access is not limited.
    @discardableResult
    public func addFromLimitedPicker(
      presenter: UIViewController, into importer: Importer, version: AssetVersion = .current
    ) async -> AssetImportOutcome? {
      guard PHPhotoLibrary.authorizationStatus(for: .readWrite) == .limited else { return nil }
      // The `async` form: the block of the completion-handler form is not `NS_SWIFT_SENDABLE`, so under Swift
      // 6.0 and 6.1 a closure written on the main actor inherits its isolation and traps if PhotosUI calls it
      // off the main thread.
      let added: [String] = await PHPhotoLibrary.shared().presentLimitedLibraryPicker(from: presenter)
      load()
      guard !added.isEmpty else { return nil }
      return await importAssets(added, into: importer, version: version)
    }

    /// Imports the assets with these local identifiers, publishing each one's progress.
    @discardableResult
    public func importAssets(
      _ identifiers: [String], into importer: Importer, version: AssetVersion = .current
    )
      async -> AssetImportOutcome
    {
      isImporting = true
      defer { isImporting = false }
      for identifier in identifiers { progress[identifier] = 0 }
      let assets = AssetImport(importer: importer, provider: PHAssetResourceProvider(), version: version)
      let work = Task {
        await assets.run(identifiers) { [weak self] index, fraction in
          Task { @MainActor in
            guard let self, index < identifiers.count else { return }
            let identifier = identifiers[index]
            self.progress[identifier] = max(self.progress[identifier] ?? 0, fraction)
          }
        }
      }
      // An iCloud download or a multi-GB movie keeps going when the user switches apps, and is cancelled
      // when the system's time runs out (what was stored stays; the rest fails as cancelled).
      let protection = BackgroundImportProtection(name: "PhotoIntake import from Photos") { work.cancel() }
      defer { protection.end() }
      let outcome = await withTaskCancellationHandler {
        await work.value
      } onCancel: {
        work.cancel()
      }
      lastOutcome = outcome
      return outcome
    }

    private var thumbnailOptions: PHImageRequestOptions {
      let options = PHImageRequestOptions()
      options.deliveryMode = .opportunistic
      options.resizeMode = .fast
      options.isNetworkAccessAllowed = allowsNetworkThumbnails
      return options
    }

    private static func newestFirst() -> PHFetchOptions {
      let options = PHFetchOptions()
      options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
      return options
    }
  }

  /// Carries an image from PhotoKit's handler to the main actor.
  private struct ImageBox: @unchecked Sendable {
    // @unchecked: UIImage is immutable and documented as safe to use from any thread; the 17.4 SDK does not
    // mark it Sendable.
    let image: UIImage
  }

  /// `PHCachingImageManager.allowsCachingHighQualityImages`, deprecated in iOS 26 ("unused"), reached through a
  /// requirement that is not, so that builds for iOS 26 have no warning for a setting that earlier systems use.
  private protocol HighQualityImageCaching: AnyObject {
    var allowsCachingHighQualityImages: Bool { get set }
  }

  extension PHCachingImageManager: HighQualityImageCaching {}
#endif
