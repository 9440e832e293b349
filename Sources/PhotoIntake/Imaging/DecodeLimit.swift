/// How much one decode may cost: the memory a decoder holds and the work it does, not only the pixels a
/// header declares.
///
/// A declared size says little about cost. A 46 KB HEIF grid can reference one tile 729 times; a 30 KB
/// progressive JPEG makes libjpeg hold every DCT coefficient of a 14000² frame (1.18 GB); a 35-byte GIF
/// declares a 14000² screen the decoder allocates; an animated WebP can hold 100,000 frames. Each of these is
/// under a 200 MP pixel limit. `ThumbnailPlan` and `CompatibleJPEG` estimate both costs from the headers
/// (`DecodeCost`) and refuse a file over either limit before any decoder sees it, with
/// ``ImagingError/overDecodeBudget(reason:)``.
///
/// ```swift
/// var request = ThumbnailRequest(maxPixelSize: 320)
/// request.decodeLimit = DecodeLimit(maximumBytes: 512 << 20)   // a trusted, larger-memory context
/// ```
public struct DecodeLimit: Sendable, Hashable {
  /// The most memory a decode may hold, in bytes: decoded pixels, coefficient buffers, the canvas of an
  /// animation. Default 256 MiB: a 48 MP HEIC (about 220 MB decoded) fits; a 14000² canvas does not.
  public var maximumBytes: Int
  /// The most decoding work, in pixels passed through a decoder: every frame of an animation on its canvas,
  /// every grid tile as often as it is referenced, every pixel of a progressive JPEG; a JPEG reduced while
  /// decoding counts half its pixels (entropy decoding of every coefficient, little of the inverse DCT). Default
  /// 100 million: on one core, a 12 MP PNG or HEVC decode takes 0.25–0.35 s, so the default is about
  /// eight 12 MP photos, about 2 s; a 200 MP JPEG or a 100 MP PNG still fits.
  public var maximumWork: Int

  /// The default memory limit: 256 MiB.
  public static let defaultMaximumBytes = 256 << 20
  /// The default work limit: 100 million pixels decoded.
  public static let defaultMaximumWork = 100_000_000

  /// A limit of `maximumBytes` held and `maximumWork` pixels decoded per item.
  public init(maximumBytes: Int = Self.defaultMaximumBytes, maximumWork: Int = Self.defaultMaximumWork) {
    self.maximumBytes = maximumBytes
    self.maximumWork = maximumWork
  }

  /// No limit beyond the pixel count (for files the caller trusts).
  public static let unlimited = DecodeLimit(maximumBytes: .max, maximumWork: .max)
}
