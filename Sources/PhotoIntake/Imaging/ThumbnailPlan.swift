import PhotoMetadata

/// How a thumbnail will be made, decided from the headers alone: the bomb guard and the fast path, shared by
/// every ``ThumbnailGenerating`` backend so that they agree on when a preview may stand in for the image.
struct ThumbnailPlan: Sendable, Hashable {
  /// What to decode.
  enum Source: Sendable, Hashable {
    case primaryImage
    case preview(EmbeddedPreview)
  }

  var metadata: MediaMetadata
  var source: Source
  /// The orientation the backend must apply to the decoded pixels; nil when the decoder applies it itself
  /// (libheif and ImageIO apply HEIF `irot`/`imir`; libvips applies TIFF orientation for formats read here
  /// without a size).
  var orientation: Orientation?

  /// A preview's shape must match the image's within this fraction: EXIF thumbnails of 3:2 photos are often
  /// 160×120 with black bars, which must not become a rendition.
  static let aspectTolerance = 0.02

  /// Decides the plan for `request`.
  ///
  /// `shape` (from ``ImageHeaders/survey(fileAt:)``) prices a decode of the primary image against
  /// `request.decodeLimit` (``DecodeCost``); without it only the pixel counts are checked.
  ///
  /// - Throws: ``ImagingError/tooManyPixels(declared:limit:)`` when the declared size, or the largest canvas
  ///   of any frame, page, tile or grid, exceeds the limit (nothing has been decoded at this point),
  ///   ``ImagingError/overDecodeBudget(reason:)`` when decoding the primary image would cost more memory or
  ///   work than the decode limit, ``ImagingError/invalidSize(_:)``.
  static func make(_ metadata: MediaMetadata, shape: DecodeShape? = nil, request: ThumbnailRequest)
    throws(ImagingError) -> ThumbnailPlan
  {
    guard request.maxPixelSize > 0 else { throw .invalidSize(request.maxPixelSize) }
    if metadata.type.isRaw { return try rawPlan(metadata, request: request) }
    if let width = metadata.width, let height = metadata.height {
      try checkPixelCount(width: width, height: height, limit: request.maximumPixelCount)
      try checkReducible(width: width, height: height, to: request.maxPixelSize)
    }
    // A frame, page, tile or grid larger than the declared image (a GIF frame outside its screen, a huge
    // second TIFF page) is what a decoder would allocate: it is refused the same way.
    if let canvas = metadata.largestCanvas {
      try checkPixelCount(width: canvas.width, height: canvas.height, limit: request.maximumPixelCount)
    }
    let decoderOrients = [.heic, .heif, .avif].contains(metadata.type) || metadata.width == nil
    var plan = ThumbnailPlan(
      metadata: metadata, source: .primaryImage, orientation: decoderOrients ? nil : metadata.orientation)
    guard request.allowsEmbeddedPreview, let preview = bestPreview(metadata, for: request) else {
      // Only the primary image's decode is priced: an embedded preview is a small image whose bytes were
      // already bounded when it was found.
      if let shape {
        try DecodeCost.thumbnail(metadata, shape: shape, size: request.maxPixelSize).check(
          request.decodeLimit)
      }
      return plan
    }
    plan.source = .preview(preview)
    // A HEIF thumbnail item carries its own transformations, which libheif/ImageIO apply; EXIF and MPF previews
    // are stored like the primary image (CIPA DC-007 §5.2.4) and take its orientation.
    plan.orientation = preview.kind == .heifThumbnail ? nil : metadata.orientation
    return plan
  }

  /// A raw's plan: the camera's embedded preview, never the sensor data (PhotoIntake develops no raw; a
  /// decoder that reads a raw's first directory shows a thumbnail or undemosaiced samples, not the photo).
  ///
  /// Of the previews whose shape matches the sensor's (a raw's 160×120 EXIF thumbnail of a 3:2 sensor has
  /// black bars), the smallest that reaches the requested size, else the largest; without a matching one, the
  /// same choice among the others. Each must pass the pixel limit itself; the sensor's size is not decoded and
  /// is not checked. The preview is stored unturned, as the sensor data is: the file's orientation applies.
  ///
  /// - Throws: ``ImagingError/rawNotDeveloped(type:hasPreview:)`` when previews are not allowed or none can
  ///   be shown.
  private static func rawPlan(_ metadata: MediaMetadata, request: ThumbnailRequest) throws(ImagingError)
    -> ThumbnailPlan
  {
    let usable = metadata.previews.filter { preview in
      guard preview.isDisplayPreview, let width = preview.width, let height = preview.height, width > 0,
        height > 0, preview.offset != nil, preview.length != nil,
        [.jpeg, .tiff].contains(preview.type),
        (try? checkPixelCount(
          width: width, height: height, limit: request.maximumPixelCount)) != nil,
        (try? checkReducible(width: width, height: height, to: request.maxPixelSize)) != nil
      else { return false }
      return preview.type == .jpeg || preview.kind == .rawPreview
    }
    guard request.allowsEmbeddedPreview, !usable.isEmpty else {
      throw .rawNotDeveloped(type: metadata.type, hasPreview: !usable.isEmpty)
    }
    func ratio(_ width: Int, _ height: Int) -> Double {
      Double(min(width, height)) / Double(max(width, height))
    }
    let matching = usable.filter { preview in
      guard let width = metadata.width, let height = metadata.height, width > 0, height > 0 else {
        return true
      }
      return abs(ratio(preview.width ?? 0, preview.height ?? 0) - ratio(width, height)) <= rawAspectTolerance
    }
    let candidates = matching.isEmpty ? usable : matching
    func pixels(_ preview: EmbeddedPreview) -> Int { (preview.width ?? 0) * (preview.height ?? 0) }
    let large = candidates.filter { max($0.width ?? 0, $0.height ?? 0) >= request.maxPixelSize }
    let chosen = large.min { pixels($0) < pixels($1) } ?? candidates.max { pixels($0) < pixels($1) }
    guard let chosen else { throw .rawNotDeveloped(type: metadata.type, hasPreview: false) }
    return ThumbnailPlan(metadata: metadata, source: .preview(chosen), orientation: metadata.orientation)
  }

  /// A raw's sensor has borders its previews leave out (a D70's 3040×2014 sensor, its 3008×2000 JPEG), so
  /// shapes are compared more loosely than ``aspectTolerance``; black bars (4:3 for 3:2) still differ.
  static let rawAspectTolerance = 0.05

  /// The largest DCT scaling (8, 4, 2 or 1) that keeps the longest side at least `size`.
  ///
  /// More than vipsthumbnail dares (it keeps a factor of 2 for the final reduction, so a 1024 px thumbnail of
  /// a 12 MP photo decodes all 12 MP): libjpeg's scaled IDCT is a proper low-pass reduction, the one ImageIO
  /// uses for kCGImageSourceThumbnailMaxPixelSize, and the Lanczos step after it removes the rest.
  static func jpegShrink(_ longest: Int, to size: Int) -> Int {
    for shrink in [8, 4, 2] where (longest + shrink - 1) / shrink >= size { return shrink }
    return 1
  }

  /// About how many pixels a decoder holds to make a `size` rendition of a photo described by `metadata`:
  /// a JPEG only its scaled decode, a HEIF with a large enough thumbnail item only that, anything else (PNG,
  /// TIFF, WebP, GIF, a HEIF without thumbnail) the whole image. Used to admit decodes into a memory budget;
  /// 0 when the size is not known.
  static func decodedPixels(_ metadata: MediaMetadata?, size: Int) -> Int {
    guard let metadata, let width = metadata.width, let height = metadata.height else { return 0 }
    if metadata.type.isRaw {
      // Only a preview is decoded (JPEG previews reduced while decoding); the plan picks it.
      let request = ThumbnailRequest(maxPixelSize: max(1, size))
      guard case .preview(let preview)? = try? make(metadata, request: request).source,
        let pw = preview.width, let ph = preview.height
      else { return 0 }
      let shrink = preview.type == .jpeg ? jpegShrink(max(pw, ph), to: size) : 1
      return pw * ph / (shrink * shrink)
    }
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    if overflow { return Int.max }
    switch metadata.type {
    case .jpeg:
      let shrink = jpegShrink(max(width, height), to: size)
      return pixels / (shrink * shrink)
    case .heic, .heif, .heics, .avif:
      let thumbnail = metadata.previews.first {
        $0.kind == .heifThumbnail && max($0.width ?? 0, $0.height ?? 0) >= size
      }
      return thumbnail.map { ($0.width ?? 0) * ($0.height ?? 0) } ?? pixels
    default:
      return pixels
    }
  }

  /// The bomb guard's test, also applied to the size a decoder reports for formats without a header reader.
  static func checkPixelCount(width: Int, height: Int, limit: Int) throws(ImagingError) {
    let (count, overflow) = width.multipliedReportingOverflow(by: height)
    if overflow || count > limit { throw .tooManyPixels(declared: overflow ? Int.max : count, limit: limit) }
  }

  /// Refuses a reduction to `size` that would leave the short side under one pixel (5×27397 to 320 px): libvips
  /// 8.14 may round that side to 0 and abort the process on the image it makes ("bad dimensions": a fuzzed 5×27397
  /// JPEG did, reduced by libjpeg to 1×3425 first). No photo is that narrow: 320 px needs 320:1.
  static func checkReducible(width: Int, height: Int, to size: Int) throws(ImagingError) {
    let longest = max(width, height), shortest = min(width, height)
    guard longest > size, shortest > 0 else { return }
    let (scaled, overflow) = shortest.multipliedReportingOverflow(by: size)
    if !overflow, scaled < longest { throw .extremeAspectRatio(width: width, height: height) }
  }

  /// The smallest usable preview whose longest side reaches the requested size, if any.
  private static func bestPreview(_ metadata: MediaMetadata, for request: ThumbnailRequest)
    -> EmbeddedPreview?
  {
    guard let width = metadata.width, let height = metadata.height else { return nil }
    let shape = Double(min(width, height)) / Double(max(width, height))
    return metadata.previews.filter { preview in
      guard let pw = preview.width, let ph = preview.height, pw > 0, ph > 0,
        max(pw, ph) >= request.maxPixelSize, max(pw, ph) < max(width, height),
        abs(Double(min(pw, ph)) / Double(max(pw, ph)) - shape) <= aspectTolerance
      else { return false }
      switch preview.kind {
      case .heifThumbnail: return true
      case .exifThumbnail, .mpfImage:
        return preview.type == .jpeg && preview.offset != nil && preview.length != nil
      // Only a raw has raw previews, and ``rawPlan(_:request:)`` chooses among them.
      case .rawPreview: return false
      }
    }.min { ($0.width ?? 0) * ($0.height ?? 0) < ($1.width ?? 0) * ($1.height ?? 0) }
  }
}
