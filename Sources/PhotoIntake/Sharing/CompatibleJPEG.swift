import PhotoMetadata

/// A JPEG that every device and website opens, made from a stored photo: one decision for both backends
/// (libvips on Linux, ImageIO on Apple platforms), like ``ThumbnailPlan`` for renditions.
///
/// The headers decide first, before any decode: the bomb guard (declared size and the largest frame, tile or
/// grid), whether a conversion is needed at all (a JPEG stored upright and small enough goes as it is), and
/// the output size. The backend then decodes once — reduced while decoding where the format allows (JPEG DCT
/// scaling, WebP scale-on-load; HEVC and PNG have no reduced decode) — applies the orientation, and encodes
/// with the source's ICC profile embedded unchanged and its EXIF block carried over (``ExifCarryOver``), GPS
/// left out when asked.
package enum CompatibleJPEG {
  /// What the backend must make.
  package struct Plan: Sendable, Hashable {
    /// The source's headers.
    package var metadata: MediaMetadata
    /// The orientation to apply to decoded pixels; nil when the decoder applies it (HEIF `irot`/`imir`).
    package var orientation: Orientation?
    /// The longest side of the output; nil for the full size.
    package var maxPixelSize: Int?
    package var quality: Int
    package var maximumPixelCount: Int
    package var stripLocation: Bool

    /// Whether the backend may stream the decode into the encoder: nothing to turn, a format decoded row by
    /// row (not HEIF, whose codecs decode whole pictures; not a JPEG, only converted when it must be turned).
    var streams: Bool {
      (orientation ?? .up) == .up && ![.heic, .heif, .heics, .avif, .jpeg].contains(metadata.type)
    }
  }

  /// The formats converted. Raw formats are not: their picture is made by developing the sensor data, which
  /// PhotoIntake does not do, and the preview the camera embedded (what their renditions show) is not the
  /// photo; an export of a raw is its original. An image sequence or burst (``MediaType/heics``) becomes its
  /// first frame, as its rendition does.
  static let convertibleTypes: Set<MediaType> = [
    .jpeg, .png, .gif, .webp, .heic, .heif, .heics, .avif, .tiff,
  ]

  /// Decides what to do with the still image at `path`.
  ///
  /// - Returns: nil when the file goes as it is: ``ExportOptions/Format/original`` within the size asked, or a
  ///   JPEG that needs neither turning nor resizing.
  /// - Throws: ``ImagingError/tooManyPixels(declared:limit:)`` before any decode,
  ///   ``ImagingError/overDecodeBudget(reason:)`` when the decode would cost more than
  ///   ``ExportOptions/decodeLimit``, ``ImagingError/rawNotDeveloped(type:hasPreview:)`` for a raw (never
  ///   passed off as a JPEG of its preview), ``ImagingError/unsupportedContent(type:)`` for movies and formats
  ///   not converted here, ``ImagingError/invalidSize(_:)``.
  package static func plan(fileAt path: String, options: ExportOptions) throws(ImagingError) -> Plan? {
    let (metadata, shape) = try ImageHeaders.survey(fileAt: path)
    if metadata.type.isRaw {
      throw .rawNotDeveloped(
        type: metadata.type, hasPreview: metadata.previews.contains { $0.kind == .rawPreview })
    }
    guard convertibleTypes.contains(metadata.type) else { throw .unsupportedContent(type: metadata.type) }
    if let size = options.maxPixelSize, size <= 0 { throw .invalidSize(size) }
    if let width = metadata.width, let height = metadata.height {
      try ThumbnailPlan.checkPixelCount(width: width, height: height, limit: options.maximumPixelCount)
      if let size = options.maxPixelSize {
        try ThumbnailPlan.checkReducible(width: width, height: height, to: size)
      }
    }
    if let canvas = metadata.largestCanvas {
      try ThumbnailPlan.checkPixelCount(
        width: canvas.width, height: canvas.height, limit: options.maximumPixelCount)
    }
    // HEIF decoders apply `irot`/`imir`; a sequence's frame is turned by its track's matrix as it is decoded.
    let decoderOrients = [.heic, .heif, .heics, .avif].contains(metadata.type) || metadata.width == nil
    let longest = max(metadata.width ?? 0, metadata.height ?? 0)
    let fits = options.maxPixelSize.map { longest > 0 && longest <= $0 } ?? true
    // Nothing to do: the original was asked for and is small enough, or a JPEG needs neither turn nor resize.
    if fits && (options.format == .original || (metadata.type == .jpeg && metadata.orientation == .up)) {
      return nil
    }
    let plan = Plan(
      metadata: metadata, orientation: decoderOrients ? nil : metadata.orientation,
      maxPixelSize: fits ? nil : options.maxPixelSize, quality: max(1, min(100, options.quality)),
      maximumPixelCount: options.maximumPixelCount, stripLocation: options.stripLocation)
    // Priced as the backend decodes it: a full-size conversion of an upright picture streams from the
    // decoder into the encoder; one that must be turned is held whole.
    try DecodeCost.conversion(
      metadata, shape: shape, size: plan.maxPixelSize, streams: plan.streams
    ).check(options.decodeLimit)
    return plan
  }

  /// Plans and converts: the JPEG bytes, or nil when the file is a JPEG to export as it is.
  ///
  /// - Throws: as ``plan(fileAt:options:)`` and ``make(fileAt:plan:)``.
  package static func make(fileAt path: String, options: ExportOptions) throws(ImagingError) -> [UInt8]? {
    guard let plan = try plan(fileAt: path, options: options) else { return nil }
    return try make(fileAt: path, plan: plan)
  }

  /// Converts the still image at `path` as `plan` says, with the platform's backend.
  ///
  /// - Throws: ``ImagingError``; ``ImagingError/libraryUnavailable(library:package:reason:)`` on Linux
  ///   without libvips (or libheif for HEIF).
  package static func make(fileAt path: String, plan: Plan) throws(ImagingError) -> [UInt8] {
    #if canImport(ImageIO)
      let bytes = try ImageIOJPEGConverter.convert(fileAt: path, plan: plan)
    #elseif canImport(CVips)
      let bytes = try VipsJPEGConverter.convert(fileAt: path, plan: plan)
    #else
      throw ImagingError.unsupportedContent(type: plan.metadata.type)
    #endif
    // The location check LocationStripper makes on its copies, made on this one too.
    if plan.stripLocation, (try? MetadataReader.read(bytes: bytes))?.location != nil {
      throw .encodeFailed(reason: "a location was still present in the converted file")
    }
    return bytes
  }

  /// Inserts an EXIF APP1 and the ICC profile (APP2 `ICC_PROFILE` chunks) into an encoded JPEG without
  /// metadata, right after SOI and a JFIF APP0 if there is one (JFIF 1.02 wants APP0 first; EXIF 2.32 §4.5.4
  /// puts APP1 right after it).
  ///
  /// ICC.1:2010 Annex B.4: a profile over one segment's capacity is split into chunks of at most 65519 bytes,
  /// each marked with its sequence number (from 1) and the chunk count, at most 255 chunks.
  static func inserting(exif: [UInt8]?, iccProfile: [UInt8]?, into jpeg: [UInt8]) -> [UInt8] {
    guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return jpeg }
    var at = 2
    if jpeg[2] == 0xFF, jpeg[3] == 0xE0, jpeg.count >= 6 {
      at = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
      guard at <= jpeg.count else { return jpeg }
    }
    func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
      let length = payload.count + 2
      return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
    var inserted: [UInt8] = []
    if let exif, exif.count <= ExifCarryOver.maximumPayload { inserted += segment(0xE1, exif) }
    if let iccProfile, !iccProfile.isEmpty {
      let signature = Array("ICC_PROFILE".utf8) + [0]
      let capacity = ExifCarryOver.maximumPayload - signature.count - 2
      let count = (iccProfile.count + capacity - 1) / capacity
      if count <= 255 {
        for index in 0..<count {
          let chunk = iccProfile[(index * capacity)..<min(iccProfile.count, (index + 1) * capacity)]
          inserted += segment(0xE2, signature + [UInt8(index + 1), UInt8(count)] + chunk)
        }
      }
    }
    return Array(jpeg[..<at]) + inserted + Array(jpeg[at...])
  }
}
