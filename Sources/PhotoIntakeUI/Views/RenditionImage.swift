#if canImport(SwiftUI) && (canImport(UIKit) || canImport(AppKit))
  import PhotoIntake
  import SwiftUI
  #if canImport(UIKit)
    import UIKit
  #else
    import AppKit
    import ImageIO
  #endif

  /// A library asset's picture: a placeholder at once, then its downsampled rendition (``RenditionStore``, a
  /// small upright JPEG made by ImageIO without a full-size decode). The original is never decoded here: a
  /// 48 MP HEIC decoded for a 100-point cell would cost ~190 MB (DESIGN.md invariant 6).
  ///
  /// The rendition's JPEG is decoded off the main thread: `UIImage.byPreparingForDisplay()` on iOS; on macOS
  /// an ImageIO decode (`kCGImageSourceShouldCacheImmediately`) shown as an `NSImage`. Movies, and photos whose
  /// rendition cannot be made (a damaged file, a bomb), keep a symbol instead.
  ///
  /// ```swift
  /// RenditionImage(asset: asset, store: store, size: 320).frame(width: 100, height: 100).clipped()
  /// ```
  @MainActor
  public struct RenditionImage: View {
    private let asset: Asset
    private let store: RenditionStore
    private let size: Int
    #if canImport(UIKit)
      @State private var image: UIImage?
    #else
      @State private var image: NSImage?
    #endif
    @State private var failed = false

    /// - Parameter size: the rendition's longest side in pixels (``RenditionStore/Configuration/sizes``).
    public init(asset: Asset, store: RenditionStore, size: Int = 320) {
      self.asset = asset
      self.store = store
      self.size = size
    }

    public var body: some View {
      ZStack {
        if let image {
          #if canImport(UIKit)
            Image(uiImage: image).resizable().scaledToFill()
          #else
            Image(nsImage: image).resizable().scaledToFill()
          #endif
        } else {
          Rectangle().fill(.quaternary)
          Image(systemName: symbol)
            .foregroundStyle(.secondary)
            .accessibilityHidden(true)
        }
      }
      .accessibilityLabel(Text(asset.name ?? (asset.type.isImage ? "Photo" : "Video")))
      .task(id: "\(asset.sha256.hex)-\(size)") { await load() }
    }

    private var symbol: String {
      if asset.type.isMovie { return "video" }
      return failed ? "exclamationmark.triangle" : "photo"
    }

    private func load() async {
      image = nil
      failed = false
      guard asset.type.isImage else { return }
      do {
        let rendition = try await store.rendition(of: asset, size: size)
        // Decode the small JPEG off the main actor, ready to draw.
        #if canImport(UIKit)
          let loaded = await Self.decode(rendition.path)
        #else
          let loaded = await Self.decode(rendition.path).map { NSImage(cgImage: $0, size: .zero) }
        #endif
        if Task.isCancelled { return }
        image = loaded
        failed = loaded == nil
      } catch {
        failed = true
      }
    }

    #if canImport(UIKit)
      private nonisolated static func decode(_ path: String) async -> UIImage? {
        guard let image = UIImage(contentsOfFile: path) else { return nil }
        return await image.byPreparingForDisplay() ?? image
      }
    #else
      /// Decodes the rendition on a lane of PhotoIntake's own (file I/O and decoding stay off the cooperative
      /// pool), ready to draw.
      private nonisolated static func decode(_ path: String) async -> CGImage? {
        await BlockingLanes.shared.run { () -> CGImage? in
          let url = URL(fileURLWithPath: path) as CFURL
          guard let source = CGImageSourceCreateWithURL(url, nil) else { return nil }
          return CGImageSourceCreateImageAtIndex(
            source, 0, [kCGImageSourceShouldCacheImmediately: true] as CFDictionary)
        }
      }
    #endif
  }
#endif
