import PhotoMetadata

/// A small upright JPEG picture of an image file, or a movie's poster frame.
public struct Thumbnail: Sendable, Hashable {
  /// Baseline JPEG, 8-bit sRGB, without metadata (no EXIF, no GPS, no orientation tag: the pixels are upright).
  public var jpegData: [UInt8]
  /// Width of the picture as displayed (after orientation).
  public var width: Int
  /// Height of the picture as displayed.
  public var height: Int
  /// What was decoded to make it.
  public var source: Source
  /// For a movie's poster, the movie's duration in seconds as its decoder reports it; nil for images, and for
  /// movies that do not say.
  public var duration: Double?
  /// Whether the picture's data is cut short or damaged, so that the decoder filled what it could not read
  /// (grey or black), as vipsthumbnail and image viewers show such a file.
  ///
  /// Fit for display, with a note; never the picture itself: exports (`intake export --as jpeg`,
  /// `PreparedFile`) refuse such files.
  public var isPartial = false

  /// The image a thumbnail was decoded from.
  public enum Source: Sendable, Hashable, CustomStringConvertible {
    /// The primary image, reduced while loading where the format allows (JPEG, WebP).
    case primaryImage
    /// An embedded reduced-size image: the fast path.
    case embeddedPreview(EmbeddedPreview.Kind)
    /// A movie's frame shown `seconds` after its start (the poster frame), with the track's display matrix
    /// applied.
    case movieFrame(seconds: Double)

    public var description: String {
      switch self {
      case .primaryImage: "primary image"
      case .embeddedPreview(.exifThumbnail): "EXIF thumbnail"
      case .embeddedPreview(.mpfImage): "MPF preview"
      case .embeddedPreview(.heifThumbnail): "HEIF thumbnail item"
      case .movieFrame(let seconds):
        "movie frame at \(Double((seconds * 100).rounded()) / 100) s"
      }
    }
  }

  /// A thumbnail made of JPEG bytes, its pixel size, what was decoded to make it, and for a movie's poster
  /// the movie's duration.
  public init(jpegData: [UInt8], width: Int, height: Int, source: Source, duration: Double? = nil) {
    self.jpegData = jpegData
    self.width = width
    self.height = height
    self.source = source
    self.duration = duration
  }
}

extension Thumbnail {
  /// Writes the JPEG to `path` atomically: a temporary file beside it, fsynced, then renamed over `path`.
  ///
  /// - Throws: ``ImagingError`` for I/O failures (a missing folder is ``ImagingError/fileNotFound``).
  public func write(toFile path: String) throws(ImagingError) {
    do {
      try DurableFile.write(jpegData, toFile: path, .replacing, syncFolder: false)
    } catch {
      throw ImagingError(error)
    }
  }
}
