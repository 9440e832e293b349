/// What a thumbnail should be.
public struct ThumbnailRequest: Sendable, Hashable {
  /// The longest side of the result, in pixels. Smaller images are never enlarged.
  public var maxPixelSize: Int
  /// Images declaring more pixels (width × height) are refused before any decode. Default 200 MP.
  public var maximumPixelCount: Int
  /// The memory and work one decode may cost (``DecodeLimit``); a file over it is refused before any decode.
  /// Default 256 MiB and 100 million pixels decoded.
  public var decodeLimit: DecodeLimit
  /// JPEG quality, 1…100. Default 82.
  public var quality: Int
  /// Whether an embedded preview (HEIF thumbnail item, MPF preview, EXIF thumbnail) at least as large as the
  /// request may be decoded instead of the primary image. Default true; turn off to compare the two.
  public var allowsEmbeddedPreview: Bool

  /// The default decompression-bomb limit: 200 megapixels, above any camera sold today (the largest take
  /// about 100 MP) and far below what would exhaust a phone's memory at 4 bytes per pixel for the decoders
  /// that cannot reduce while loading (PNG, GIF, HEIC).
  public static let defaultMaximumPixelCount = 200_000_000

  /// A request for a JPEG whose longest side is at most `maxPixelSize`, refusing images over
  /// `maximumPixelCount` pixels or costing more than `decodeLimit` before they are decoded.
  public init(
    maxPixelSize: Int, maximumPixelCount: Int = Self.defaultMaximumPixelCount, quality: Int = 82,
    allowsEmbeddedPreview: Bool = true, decodeLimit: DecodeLimit = DecodeLimit()
  ) {
    self.decodeLimit = decodeLimit
    self.maxPixelSize = maxPixelSize
    self.maximumPixelCount = maximumPixelCount
    self.quality = quality
    self.allowsEmbeddedPreview = allowsEmbeddedPreview
  }
}
