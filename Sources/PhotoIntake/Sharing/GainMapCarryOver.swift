import PhotoMetadata

/// What a JPEG made for sharing (``CompatibleJPEG``) keeps of its source's HDR gain map: the decision, made here
/// in portable code for the ImageIO backend, which carries it out. (libvips on Linux writes no gain map: its
/// JPEGs are SDR.)
///
/// A gain map records, per region, how much brighter than the SDR picture an HDR display may show it; without
/// it a shared iPhone HDR photo looks flat on every HDR screen. The two kinds ImageIO reads:
/// - Apple's (`kCGImageAuxiliaryDataTypeHDRGainMap`, iOS 14.1 and macOS 11): an auxiliary image, with the
///   headroom in the main image's Apple maker note (tags 0x21 and 0x30), which the converter carries over with
///   the rest of `{MakerApple}`.
/// - ISO 21496-1 (`kCGImageAuxiliaryDataTypeISOGainMap`, iOS 18 and macOS 15), which Android 15 and Chrome read
///   as well.
///
/// The choice:
/// - iOS 18 and macOS 15 and later: decode to HDR (`kCGImageSourceDecodeToHDR`), which applies either kind of
///   gain map, and let the JPEG encoder make an ISO 21496-1 one from the HDR pixels
///   (`kCGImageDestinationEncodeRequest` = `kCGImageDestinationEncodeToISOGainmap`). Because the gain map is
///   made from the output's own pixels, turning and resizing need no care.
/// - Before: copy Apple's auxiliary gain map as it is. A gain map is stored at its own resolution and scaled
///   to the picture's by the reader, so a resized output keeps it; but it is stored in the source's
///   orientation, so when the converter turns the pixels (EXIF orientation or HEIF `irot`/`imir` other than
///   up) it would no longer match and is left out. An ISO gain map cannot be read there at all.
///
/// Without location, the gain map's own XMP loses its `exif:GPS*` properties too (``dropsFromGainMapMetadata(namespace:name:)``),
/// the properties ``PhotoMetadata/LocationStripper`` blanks in originals.
package enum GainMapCarryOver: Sendable, Hashable {
  /// The source has no gain map (or none the system can read).
  case none
  /// Decode to HDR and encode an ISO 21496-1 gain map from the output's pixels.
  case encodeISOFromHDR
  /// Copy the source's Apple auxiliary gain map unchanged.
  case copyAppleGainMap
  /// The source has a gain map that cannot be kept; the JPEG is SDR only.
  case dropped(Reason)

  /// The gain map a source has, as the system's decoder reports it.
  package enum Source: Sendable, Hashable, CaseIterable {
    case none
    /// `kCGImageAuxiliaryDataTypeHDRGainMap`.
    case apple
    /// `kCGImageAuxiliaryDataTypeISOGainMap`.
    case iso
  }

  /// Why a gain map was left out.
  package enum Reason: Sendable, Hashable {
    /// The pixels are turned for the output and the system cannot make a new gain map (before iOS 18 and
    /// macOS 15); the stored one would no longer line up.
    case pixelsTurned
    /// An ISO 21496-1 gain map, which systems before iOS 18 and macOS 15 cannot read or write.
    case isoNeedsNewerSystem
  }

  /// Decides for a source with `source`'s gain map whose pixels are turned by `orientation` on the way out.
  ///
  /// - Parameters:
  ///   - orientation: the transform the converter applies to the stored pixels (EXIF orientation, or HEIF
  ///     `irot`/`imir` for HEIF, which the decoder applies): ``PhotoMetadata/MediaMetadata/orientation``.
  ///   - canEncodeISO: whether the running system has `kCGImageDestinationEncodeToISOGainmap` (iOS 18, macOS 15).
  package static func decide(source: Source, orientation: Orientation, canEncodeISO: Bool) -> GainMapCarryOver
  {
    switch source {
    case .none: return .none
    case _ where canEncodeISO: return .encodeISOFromHDR
    case .iso: return .dropped(.isoNeedsNewerSystem)
    case .apple: return orientation == .up ? .copyAppleGainMap : .dropped(.pixelsTurned)
    }
  }

  /// Whether a property of the gain map's XMP (namespace URI and local name) goes when the location must:
  /// the EXIF GPS properties (`exif:GPS*`, XMP Specification Part 2 §3.3, namespace
  /// `http://ns.adobe.com/exif/1.0/`), as in originals.
  package static func dropsFromGainMapMetadata(namespace: String, name: String) -> Bool {
    namespace == "http://ns.adobe.com/exif/1.0/" && name.hasPrefix("GPS")
  }
}
