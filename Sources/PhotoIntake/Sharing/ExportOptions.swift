/// How an asset leaves the library: as it is stored, or as a JPEG every device opens; with or without its
/// location; at most how large. One choice for `intake export` and for ``PreparedFile`` (a `ShareLink`).
///
/// ```swift
/// let options = ExportOptions(format: .jpeg, stripLocation: true, maxPixelSize: 2048)
/// let files = try await PreparedFile.files(for: asset, in: library, as: options)
/// ```
public struct ExportOptions: Sendable, Hashable {
  /// What the exported file is.
  public enum Format: String, Sendable, Hashable, CaseIterable {
    /// The stored bytes (only location metadata removed when asked; pixels never re-encoded).
    case original
    /// Still images as baseline JPEG: HEIC, HEIF, AVIF, WebP, PNG, GIF and TIFF are converted, with the
    /// orientation applied, the colour profile embedded as it is (Display P3 stays P3), and the EXIF block
    /// carried over (capture date, camera, lens). A JPEG that needs neither turning nor resizing goes as it
    /// is. Movies go as they are on Linux; on Apple platforms ``PreparedFile`` re-encodes them as H.264.
    case jpeg
  }

  /// What the exported file is. Default ``Format/original``.
  public var format: Format
  /// Removes EXIF/XMP GPS and QuickTime location (PhotoMetadata's `LocationStripper` for originals; the GPS
  /// directory is left out of a converted JPEG).
  public var stripLocation: Bool
  /// The longest side of a converted JPEG, in pixels; nil keeps the full size. Images are never enlarged.
  /// An original whose longest side is larger is converted (so `maxPixelSize` with ``Format/original`` on a
  /// large photo gives a JPEG).
  public var maxPixelSize: Int?
  /// JPEG quality, 1…100. Default 90 (a share should not look worse than the original).
  public var quality: Int
  /// Images declaring more pixels (width × height) are refused before any decode. Default 200 MP.
  public var maximumPixelCount: Int

  /// The memory and work a conversion's decode may cost (``DecodeLimit``); a picture over it is refused
  /// before any decode. Default 256 MiB and 100 million pixels decoded.
  public var decodeLimit: DecodeLimit

  /// Options for an export; the defaults give the stored bytes with their location.
  public init(
    format: Format = .original, stripLocation: Bool = false, maxPixelSize: Int? = nil, quality: Int = 90,
    maximumPixelCount: Int = ThumbnailRequest.defaultMaximumPixelCount,
    decodeLimit: DecodeLimit = DecodeLimit()
  ) {
    self.decodeLimit = decodeLimit
    self.format = format
    self.stripLocation = stripLocation
    self.maxPixelSize = maxPixelSize
    self.quality = quality
    self.maximumPixelCount = maximumPixelCount
  }

  /// Whether a still image must be re-encoded: a JPEG was asked for, or a size it exceeds.
  var convertsStills: Bool { format == .jpeg || maxPixelSize != nil }
}
