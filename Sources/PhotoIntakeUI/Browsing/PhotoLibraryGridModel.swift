#if canImport(Photos) && canImport(PhotosUI) && canImport(UIKit) && canImport(Combine)
  import Combine
  import Photos
  import PhotoIntake
  import PhotosUI
  import UIKit

  /// A grid of the user's library that shows cached thumbnails and imports what the user selects.
  ///
  /// - Fetches only once read access allows it (``load()``): a fetch before that makes PhotoKit prompt.
  /// - Thumbnails come from a `PHCachingImageManager` at the cell's size in pixels (points × screen scale),
  ///   `.opportunistic`: a degraded image at once, then the final one. As the grid scrolls, ``CachingWindow``
  ///   decides which assets to start and stop caching around the visible ones, and the requests of cells that
  ///   left the screen are cancelled.
  /// - ``importSelected(into:version:)`` imports the selection through ``AssetImport`` and
  ///   ``PHAssetResourceProvider``: originals streamed into the library, Live Photos linked, iCloud progress.
  /// - ``addFromLimitedPicker(presenter:into:version:)`` presents the limited-library picker and imports just
  ///   what the user added there.
  ///
  /// `ObservableObject` (not `@Observable`) so that it works from iOS 16.
  @MainActor
  public final class PhotoLibraryGridModel: ObservableObject {
    /// The assets, newest first; nil until ``load()`` found read access.
    @Published public private(set) var assets: PHFetchResult<PHAsset>?
    /// The selected assets' local identifiers, in the order the user selected them.
    @Published public var selection: [String] = []
    /// The progress (0…1) of each asset being imported, by local identifier.
    @Published public private(set) var progress: [String: Double] = [:]
    /// What the last import did.
    @Published public private(set) var lastOutcome: AssetImportOutcome?
    /// Whether an import is running.
    @Published public private(set) var isImporting = false

    /// The cell's size in points.
    public var cellSize: CGSize { didSet { resetCaching() } }
    /// The screen's scale (`displayScale` in SwiftUI, `traitCollection.displayScale` in UIKit).
    public var displayScale: CGFloat { didSet { resetCaching() } }

    private let imageManager = PHCachingImageManager()
    private var window: CachingWindow
    private var visible = Set<Int>()
    private var requests: [Int: PHImageRequestID] = [:]
    private let options: PHFetchOptions

    /// A model for cells of `cellSize` points on a screen of `displayScale`, caching `preheatMargin` cells
    /// before and after the visible ones. Fetches nothing yet.
    public init(
      cellSize: CGSize, displayScale: CGFloat, preheatMargin: Int = 60, options: PHFetchOptions? = nil
    ) {
      self.cellSize = cellSize
      self.displayScale = displayScale
      window = CachingWindow(preheatMargin: preheatMargin)
      self.options = options ?? Self.newestFirst()
      imageManager.allowsCachingHighQualityImages = false
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
    public func load() {
      resetCaching()
      assets = canRead ? PHAsset.fetchAssets(with: options) : nil
    }

    /// Applies library changes until the calling task is cancelled (only with read access; see ``load()``).
    public func observe() async {
      guard canRead else { return }
      if assets == nil { load() }
      for await change in PhotoLibraryChanges() {
        guard let current = assets, let details = change.changeDetails(for: current) else { continue }
        resetCaching()
        assets = details.fetchResultAfterChanges
      }
    }

    // MARK: Thumbnails

    /// A cell became visible.
    public func cellAppeared(at index: Int) {
      visible.insert(index)
      scrolled()
    }

    /// A cell left the screen: its pending request is cancelled.
    public func cellDisappeared(at index: Int) {
      visible.remove(index)
      scrolled()
    }

    /// Requests the thumbnail of the asset at `index`: `deliver` gets a degraded image first when one is at
    /// hand, then the final one (`PHImageResultIsDegradedKey`), on the main actor.
    public func requestThumbnail(
      at index: Int, deliver: @escaping @MainActor (_ image: UIImage, _ isDegraded: Bool) -> Void
    ) {
      guard let assets, index < assets.count else { return }
      if let previous = requests[index] { imageManager.cancelImageRequest(previous) }
      let request = imageManager.requestImage(
        for: assets.object(at: index), targetSize: targetSize, contentMode: .aspectFill,
        options: Self.thumbnailOptions
      ) { image, info in
        let degraded = (info?[PHImageResultIsDegradedKey] as? NSNumber)?.boolValue ?? false
        guard let image else { return }
        // Asynchronous results arrive on the main thread, and an opportunistic first result may come
        // synchronously on the calling one, the main actor too (PHImageManager.h); anything else is sent there.
        let box = ImageBox(image: image, deliver: deliver)
        if Thread.isMainThread {
          MainActor.assumeIsolated { box.deliver(box.image, degraded) }
        } else {
          DispatchQueue.main.async { MainActor.assumeIsolated { box.deliver(box.image, degraded) } }
        }
      }
      requests[index] = request
    }

    private func scrolled() {
      guard let assets, let lower = visible.min(), let upper = visible.max() else { return }
      let delta = window.scroll(to: lower..<(upper + 1), count: assets.count)
      for index in delta.leftView {
        if let request = requests.removeValue(forKey: index) { imageManager.cancelImageRequest(request) }
      }
      if !delta.start.isEmpty {
        imageManager.startCachingImages(
          for: delta.start.map { assets.object(at: $0) }, targetSize: targetSize, contentMode: .aspectFill,
          options: Self.thumbnailOptions)
      }
      if !delta.stop.isEmpty {
        imageManager.stopCachingImages(
          for: delta.stop.map { assets.object(at: $0) }, targetSize: targetSize, contentMode: .aspectFill,
          options: Self.thumbnailOptions)
      }
    }

    private func resetCaching() {
      imageManager.stopCachingImagesForAllAssets()
      for request in requests.values { imageManager.cancelImageRequest(request) }
      requests = [:]
      window.reset()
    }

    // MARK: Importing

    /// Imports the selected assets into the importer's library, in the order selected.
    @discardableResult
    public func importSelected(into importer: Importer, version: AssetVersion = .original) async
      -> AssetImportOutcome
    {
      await importAssets(selection, into: importer, version: version)
    }

    /// Presents the limited-library picker and imports the assets the user added there
    /// (`presentLimitedLibraryPicker(from:completionHandler:)` gives their identifiers, iOS 15 and later).
    ///
    /// Only with limited access: otherwise "calling this method does nothing" (PhotoKit's documentation of the
    /// picker), so its completion handler would never run and the import would wait for ever.
    ///
    /// - Returns: nil when the user added nothing, or when access is not limited.
    @discardableResult
    public func addFromLimitedPicker(
      presenter: UIViewController, into importer: Importer, version: AssetVersion = .original
    ) async -> AssetImportOutcome? {
      guard PHPhotoLibrary.authorizationStatus(for: .readWrite) == .limited else { return nil }
      let added = await withCheckedContinuation { continuation in
        PHPhotoLibrary.shared().presentLimitedLibraryPicker(from: presenter) { identifiers in
          continuation.resume(returning: identifiers)
        }
      }
      load()
      guard !added.isEmpty else { return nil }
      return await importAssets(added, into: importer, version: version)
    }

    /// Imports the assets with these local identifiers, publishing each one's progress.
    @discardableResult
    public func importAssets(
      _ identifiers: [String], into importer: Importer, version: AssetVersion = .original
    )
      async -> AssetImportOutcome
    {
      isImporting = true
      defer { isImporting = false }
      for identifier in identifiers { progress[identifier] = 0 }
      let assets = AssetImport(importer: importer, provider: PHAssetResourceProvider(), version: version)
      let outcome = await assets.run(identifiers) { [weak self] index, fraction in
        Task { @MainActor in
          guard let self, index < identifiers.count else { return }
          let identifier = identifiers[index]
          self.progress[identifier] = max(self.progress[identifier] ?? 0, fraction)
        }
      }
      lastOutcome = outcome
      return outcome
    }

    private static var thumbnailOptions: PHImageRequestOptions {
      let options = PHImageRequestOptions()
      options.deliveryMode = .opportunistic
      options.resizeMode = .fast
      options.isNetworkAccessAllowed = true
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
    // mark it Sendable. `deliver` is main-actor isolated and only called on the main actor.
    let image: UIImage
    let deliver: @MainActor (UIImage, Bool) -> Void
  }
#endif
