import PhotoMetadata

/// A small upright JPEG picture of an image file.
public struct Thumbnail: Sendable, Hashable {
  /// Baseline JPEG, 8-bit sRGB, without metadata (no EXIF, no GPS, no orientation tag: the pixels are upright).
  public var jpegData: [UInt8]
  /// Width of the picture as displayed (after orientation).
  public var width: Int
  /// Height of the picture as displayed.
  public var height: Int
  /// What was decoded to make it.
  public var source: Source

  /// The image a thumbnail was decoded from.
  public enum Source: Sendable, Hashable, CustomStringConvertible {
    /// The primary image, reduced while loading where the format allows (JPEG, WebP).
    case primaryImage
    /// An embedded reduced-size image: the fast path.
    case embeddedPreview(EmbeddedPreview.Kind)

    public var description: String {
      switch self {
      case .primaryImage: "primary image"
      case .embeddedPreview(.exifThumbnail): "EXIF thumbnail"
      case .embeddedPreview(.mpfImage): "MPF preview"
      case .embeddedPreview(.heifThumbnail): "HEIF thumbnail item"
      }
    }
  }

  /// A thumbnail made of JPEG bytes, its pixel size, and what was decoded to make it.
  public init(jpegData: [UInt8], width: Int, height: Int, source: Source) {
    self.jpegData = jpegData
    self.width = width
    self.height = height
    self.source = source
  }
}

extension Thumbnail {
  /// Writes the JPEG to `path` atomically: a temporary file beside it, fsynced, then renamed over `path`.
  ///
  /// - Throws: ``ImagingError`` for I/O failures (a missing folder is ``ImagingError/fileNotFound``).
  public func write(toFile path: String) throws(ImagingError) {
    try AtomicFile.write(jpegData, toFile: path)
  }
}
