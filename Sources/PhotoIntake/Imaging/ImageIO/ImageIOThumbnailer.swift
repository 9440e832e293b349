#if canImport(ImageIO)
  import CoreGraphics
  import Foundation
  import ImageIO
  import PhotoMetadata

  /// Thumbnails with ImageIO (Apple platforms): `CGImageSourceCreateThumbnailAtIndex` decodes reduced (JPEG DCT
  /// scaling, HEIF tiles at the needed resolution where the codec allows) and applies the orientation, without
  /// ever making a full-size bitmap.
  ///
  /// The options matter:
  /// - `kCGImageSourceCreateThumbnailFromImageAlways`, not `…IfAbsent`: with `…IfAbsent`, ImageIO returns the
  ///   160 px EXIF thumbnail of a JPEG even when 1024 px was asked. The fast path is decided by
  ///   ``ThumbnailPlan`` instead, which checks that a preview is large enough first.
  /// - `kCGImageSourceCreateThumbnailWithTransform`: applies EXIF orientation and HEIF `irot`/`imir`.
  /// - `kCGImageSourceThumbnailMaxPixelSize`: the longest side; ImageIO never enlarges.
  /// - `kCGImageSourceShouldCacheImmediately`: decode now, on this thread, rather than lazily when the image is
  ///   first drawn (which would be on the main thread in an app).
  ///
  /// Movies get a poster frame through `AVAssetImageGenerator`, upright by the track's preferred transform (see
  /// `posters(ofMovieAt:type:sizes:request:)`).
  public struct ImageIOThumbnailer: ThumbnailGenerating {
    public init() {}

    public func thumbnail(ofFileAt path: String, request: ThumbnailRequest) throws(ImagingError) -> Thumbnail
    {
      let metadata: MediaMetadata
      let shape: DecodeShape
      do {
        (metadata, shape) = try ImageHeaders.survey(fileAt: path)
      } catch .unsupportedContent(let type?) where type.isMovie {
        return try posters(ofMovieAt: path, type: type, sizes: [request.maxPixelSize], request: request)[0]
      }
      let plan = try ThumbnailPlan.make(metadata, shape: shape, request: request)
      if metadata.type.isRaw { return try rawPreview(path, plan: plan, request: request) }
      // Without kCGImageSourceShouldCache the source reads headers only; nothing is decoded yet.
      let sourceOptions = [kCGImageSourceShouldCache: false] as CFDictionary
      guard let source = CGImageSourceCreateWithURL(URL(fileURLWithPath: path) as CFURL, sourceOptions),
        CGImageSourceGetCount(source) > 0
      else { throw .unsupportedContent(type: metadata.type) }
      if metadata.width == nil {
        // A format without a header reader here (TIFF, raw): ImageIO's view of the size serves the bomb guard.
        let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any] ?? [:]
        guard let width = properties[kCGImagePropertyPixelWidth] as? Int,
          let height = properties[kCGImagePropertyPixelHeight] as? Int
        else { throw .malformed(reason: "the image declares no size") }
        try ThumbnailPlan.checkPixelCount(width: width, height: height, limit: request.maximumPixelCount)
      }
      let size = request.maxPixelSize
      let image: CGImage
      let decoded: Thumbnail.Source
      switch plan.source {
      case .preview(let preview) where preview.kind == .heifThumbnail:
        DecodeProbe.willDecode(.embeddedPreview(.heifThumbnail))
        // The plan checked that the file's thumbnail item is large enough, so here `…IfAbsent` is what we
        // want: ImageIO decodes that item, with its own transformations.
        image = try Self.thumbnail(
          source,
          [
            kCGImageSourceCreateThumbnailFromImageIfAbsent: true,
            kCGImageSourceCreateThumbnailWithTransform: true,
            kCGImageSourceThumbnailMaxPixelSize: size, kCGImageSourceShouldCacheImmediately: true,
          ])
        decoded = .embeddedPreview(.heifThumbnail)
      case .preview(let preview):
        DecodeProbe.willDecode(.embeddedPreview(preview.kind))
        if let fromPreview = try? Self.previewImage(path, preview: preview, size: size) {
          image = try Self.oriented(fromPreview, plan.orientation ?? .up)
          decoded = .embeddedPreview(preview.kind)
        } else {
          image = try Self.primary(source, size: size)
          decoded = .primaryImage
        }
      case .primaryImage:
        DecodeProbe.willDecode(.primaryImage)
        image = try Self.primary(source, size: size)
        decoded = .primaryImage
      }
      // Drawing into an 8-bit sRGB context converts Display P3 and other profiles, and puts alpha on white.
      let flat = try Self.oriented(image, .up)
      return Thumbnail(
        jpegData: try Self.jpeg(flat, quality: request.quality), width: flat.width, height: flat.height,
        source: decoded)
    }

    /// A raw's rendition: the camera's embedded preview that the plan chose, decoded on its own and turned by
    /// the file's orientation. ImageIO reads DNG and most raws natively, but its image at index 0 is the
    /// developed sensor data (a full-size demosaic, the cost of a raw developer); PhotoIntake never develops a
    /// raw, on either platform, so both backends show the same preview.
    private func rawPreview(_ path: String, plan: ThumbnailPlan, request: ThumbnailRequest)
      throws(ImagingError) -> Thumbnail
    {
      guard case .preview(let preview) = plan.source else {
        throw .rawNotDeveloped(type: plan.metadata.type, hasPreview: false)
      }
      DecodeProbe.willDecode(.embeddedPreview(preview.kind))
      let image = try Self.previewImage(path, preview: preview, size: request.maxPixelSize)
      let flat = try Self.oriented(image, plan.orientation ?? .up, fitting: request.maxPixelSize)
      return Thumbnail(
        jpegData: try Self.jpeg(flat, quality: request.quality), width: flat.width, height: flat.height,
        source: .embeddedPreview(preview.kind))
    }

    private static func primary(_ source: CGImageSource, size: Int) throws(ImagingError) -> CGImage {
      try thumbnail(
        source,
        [
          kCGImageSourceCreateThumbnailFromImageAlways: true,
          kCGImageSourceCreateThumbnailWithTransform: true,
          kCGImageSourceThumbnailMaxPixelSize: size, kCGImageSourceShouldCacheImmediately: true,
        ])
    }

    private static func thumbnail(_ source: CGImageSource, _ options: [CFString: Any]) throws(ImagingError)
      -> CGImage
    {
      guard let image = CGImageSourceCreateThumbnailAtIndex(source, 0, options as CFDictionary) else {
        let status = CGImageSourceGetStatus(source)
        throw status == .statusUnknownType
          ? .unsupportedContent(type: nil)
          : .decodeFailed(reason: "ImageIO could not decode it (status \(status.rawValue))")
      }
      return image
    }

    /// Decodes an EXIF, MPF or raw preview (a JPEG inside the file), reduced to `size`, without orientation; a
    /// raw's uncompressed RGB preview is wrapped as it is (``oriented(_:_:fitting:)`` reduces it).
    private static func previewImage(_ path: String, preview: EmbeddedPreview, size: Int) throws(ImagingError)
      -> CGImage
    {
      guard let offset = preview.offset, let length = preview.length, length <= 64 << 20 else {
        throw .malformed(reason: "the embedded preview has no byte range")
      }
      let bytes = try HeaderFile(path: path).bytes(at: offset, length: length)
      guard bytes.count == length else { throw .malformed(reason: "the embedded preview is cut short") }
      if preview.type == .tiff {
        guard let width = preview.width, let height = preview.height, width > 0, height > 0,
          length == width * height * 3, let provider = CGDataProvider(data: Data(bytes) as CFData),
          let space = CGColorSpace(name: CGColorSpace.sRGB),
          let image = CGImage(
            width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 24, bytesPerRow: width * 3,
            space: space, bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.none.rawValue),
            provider: provider,
            decode: nil, shouldInterpolate: true, intent: .defaultIntent)
        else { throw .malformed(reason: "the embedded preview's samples do not fill its size") }
        return image
      }
      guard let source = CGImageSourceCreateWithData(Data(bytes) as CFData, nil) else {
        throw .malformed(reason: "the embedded preview is cut short")
      }
      return try thumbnail(
        source,
        [
          kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceThumbnailMaxPixelSize: size,
          kCGImageSourceShouldCacheImmediately: true,
        ])
    }

    /// Draws `image` upright (EXIF 2.32 §4.6.5) into an opaque 8-bit sRGB bitmap on white, reduced to fit
    /// `size` when given (never enlarged).
    static func oriented(_ image: CGImage, _ orientation: Orientation, fitting size: Int? = nil)
      throws(ImagingError) -> CGImage
    {
      let longest = max(image.width, image.height, 1)
      let scale = size.map { min(1, Double($0) / Double(longest)) } ?? 1
      let stored = CGSize(
        width: max(1, (Double(image.width) * scale).rounded()),
        height: max(1, (Double(image.height) * scale).rounded()))
      let upright = orientation.swapsDimensions ? CGSize(width: stored.height, height: stored.width) : stored
      guard let space = CGColorSpace(name: CGColorSpace.sRGB),
        let context = CGContext(
          data: nil, width: Int(upright.width), height: Int(upright.height), bitsPerComponent: 8,
          bytesPerRow: 0,
          space: space, bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue)
      else { throw .encodeFailed(reason: "no bitmap context") }
      context.setFillColor(CGColor(srgbRed: 1, green: 1, blue: 1, alpha: 1))
      context.fill(CGRect(origin: .zero, size: upright))
      // Core Graphics has its origin at the bottom left; turn first, then mirror, then draw the stored pixels.
      var transform = CGAffineTransform.identity
      switch orientation {
      case .down, .downMirrored:
        transform = transform.translatedBy(x: upright.width, y: upright.height).rotated(by: .pi)
      case .left, .leftMirrored:
        transform = transform.translatedBy(x: upright.width, y: 0).rotated(by: .pi / 2)
      case .right, .rightMirrored:
        transform = transform.translatedBy(x: 0, y: upright.height).rotated(by: -.pi / 2)
      case .up, .upMirrored:
        break
      }
      switch orientation {
      case .upMirrored, .downMirrored:
        transform = transform.translatedBy(x: upright.width, y: 0).scaledBy(x: -1, y: 1)
      case .leftMirrored, .rightMirrored:
        transform = transform.translatedBy(x: upright.height, y: 0).scaledBy(x: -1, y: 1)
      default:
        break
      }
      context.concatenate(transform)
      context.interpolationQuality = .high
      context.draw(image, in: CGRect(origin: .zero, size: stored))
      guard let result = context.makeImage() else { throw .encodeFailed(reason: "no image from the context") }
      return result
    }

    /// Baseline JPEG without metadata.
    static func jpeg(_ image: CGImage, quality: Int) throws(ImagingError) -> [UInt8] {
      let data = NSMutableData()
      guard
        let destination = CGImageDestinationCreateWithData(
          data as CFMutableData, "public.jpeg" as CFString, 1, nil)
      else { throw .encodeFailed(reason: "ImageIO has no JPEG encoder") }
      let options = [kCGImageDestinationLossyCompressionQuality: Double(max(1, min(100, quality))) / 100]
      CGImageDestinationAddImage(destination, image, options as CFDictionary)
      guard CGImageDestinationFinalize(destination) else {
        throw .encodeFailed(reason: "ImageIO could not write it")
      }
      return [UInt8](data as Data)
    }
  }
#endif
