import PhotoMetadata

/// What decoding a file will cost, estimated from its headers alone: the memory the decoder holds and the
/// pixels it passes through, for the way PhotoIntake decodes it (a thumbnail reduced while loading, or a
/// conversion at a given size). Checked against a ``DecodeLimit`` before any decoder sees the file.
///
/// The estimates follow the decoders used here (libjpeg-turbo, libspng, libnsgif, libwebp, libheif, and
/// ImageIO, which allocates the same way):
/// - JPEG: the scaled output; a progressive JPEG also holds every DCT coefficient of the full image (128
///   bytes per 8×8 block of each component, padded to whole MCUs), whatever the scale.
/// - PNG and TIFF stream row by row into a thumbnail; interlaced PNG (Adam7) and full-size conversions hold
///   the whole image.
/// - GIF and animated WebP composite frames on a canvas of the full screen: 4 bytes per canvas pixel; only the
///   first frame is decoded, the others are walked (``perFrameWork`` each).
/// - HEIF/AVIF: HEVC and AV1 have no reduced decode: the whole image as planar YCbCr 4:2:0 (1.5 bytes per
///   pixel) and interleaved RGB (3); work is every tile as often as a grid references it.
package struct DecodeCost: Sendable, Hashable {
  /// Bytes the decode holds at its peak.
  var bytes: Int
  /// Pixels the decoders pass through.
  var work: Int
  /// What drives the cost, for the error's sentence ("a progressive 14000×14000 JPEG").
  var subject: String

  /// The work counted for each frame of an animation after the first, which is walked but not decoded.
  static let perFrameWork = 4096

  /// The cost of a thumbnail of longest side `size` made from the primary image.
  static func thumbnail(_ metadata: MediaMetadata, shape: DecodeShape, size: Int) -> DecodeCost {
    estimate(metadata, shape: shape, size: size, streams: true)
  }

  /// The cost of a conversion to JPEG of longest side `size` (nil: full size). `streams` tells whether the
  /// backend streams the decode into the encoder (no orientation to apply, a format decoded row by row).
  static func conversion(_ metadata: MediaMetadata, shape: DecodeShape, size: Int?, streams: Bool)
    -> DecodeCost
  {
    estimate(metadata, shape: shape, size: size, streams: streams)
  }

  /// Refuses a cost over `limit`.
  ///
  /// - Throws: ``ImagingError/overDecodeBudget(reason:)`` naming what it would cost and the limit.
  func check(_ limit: DecodeLimit) throws(ImagingError) {
    if bytes > limit.maximumBytes {
      throw .overDecodeBudget(
        reason: "hold about \(Self.megabytes(bytes)) MB for \(subject), more than the "
          + "\(Self.megabytes(limit.maximumBytes)) MB limit")
    }
    if work > limit.maximumWork {
      throw .overDecodeBudget(
        reason: "pass \(Self.megapixels(work)) million pixels through the decoder for \(subject), more than "
          + "the \(Self.megapixels(limit.maximumWork)) million limit")
    }
  }

  private static func estimate(_ metadata: MediaMetadata, shape: DecodeShape, size: Int?, streams: Bool)
    -> DecodeCost
  {
    let survey = shape.survey
    let canvas =
      metadata.width.flatMap { width in metadata.height.map { PixelSize(width: width, height: $0) } }
      ?? survey.largestCanvas ?? PixelSize(width: 0, height: 0)
    let pixels = canvas.pixelCount
    let name = "a \(canvas.width)×\(canvas.height) \(metadata.type.rawValue.uppercased())"
    let output = size.map { outputPixels(canvas, longest: $0) } ?? pixels
    switch metadata.type {
    case .jpeg:
      let frame = shape.jpeg
      let shrink = size.map { ThumbnailPlan.jpegShrink(max(canvas.width, canvas.height), to: $0) } ?? 1
      let scaled = product((canvas.width + shrink - 1) / shrink, (canvas.height + shrink - 1) / shrink)
      // A reduced output is resized once more in memory; a full-size one is encoded into a buffer.
      let bytes = sum(product(scaled, 3), size == nil ? encodedBytes(pixels) : product(output, 3))
      if let frame, frame.isProgressive {
        return DecodeCost(
          bytes: sum(bytes, coefficientBytes(frame)), work: pixels,
          subject: "every coefficient of a progressive \(canvas.width)×\(canvas.height) JPEG")
      }
      return DecodeCost(bytes: bytes, work: shrink == 1 ? pixels : pixels / 2, subject: name)
    case .heic, .heif, .avif:
      let tiles = survey.tilesReferenced
      let subject =
        tiles > 0 ? "a \(canvas.width)×\(canvas.height) grid of \(tiles) tiles" : name
      let decoded = sum(product(pixels, 3), sum(pixels, pixels / 2))
      return DecodeCost(
        bytes: sum(decoded, size == nil ? encodedBytes(pixels) : product(output, 3)),
        work: max(pixels, survey.decodedPixels), subject: subject)
    // Every GIF has a screen to composite on; a WebP only when it is animated.
    case let type where type == .gif || (type == .webp && survey.frames > 1):
      let largest = survey.largestCanvas ?? canvas
      let screen = PixelSize(
        width: max(largest.width, canvas.width), height: max(largest.height, canvas.height))
      let frames = survey.frames
      return DecodeCost(
        bytes: sum(product(screen.pixelCount, 4), product(output, 4)),
        // Only the first frame is decoded (a thumbnail and a JPEG are stills), but the decoder walks every
        // frame's header to reach and count them: each further frame costs a notional `perFrameWork` pixels.
        // So 100,000 frames are refused, while a real 1000² animation of a few hundred frames still fits.
        work: sum(screen.pixelCount, product(max(frames - 1, 0), Self.perFrameWork)),
        subject: frames > 1
          ? "\(frames) frames on a \(screen.width)×\(screen.height) canvas"
          : "a \(screen.width)×\(screen.height) GIF canvas")
    default:
      // PNG, TIFF, still WebP: row by row into a thumbnail, or the whole image when it is interlaced or must
      // be held (a conversion that turns it).
      let depth = shape.png?.bytesPerPixel ?? 4
      let whole = (shape.png?.isInterlaced ?? false) || !streams
      let rows = product(canvas.width, product(depth, 16))
      let bytes = whole ? product(pixels, depth) : sum(rows, product(output, 4))
      return DecodeCost(
        bytes: sum(bytes, size == nil ? encodedBytes(pixels) : 0), work: max(pixels, survey.decodedPixels),
        subject: name)
    }
  }

  /// The encoded JPEG of a full-size conversion, held by libvips and once more as the result: about half a
  /// byte per pixel each at quality 90 for photographs.
  private static func encodedBytes(_ pixels: Int) -> Int { pixels }

  /// Pixels of a reduction of `canvas` to fit `longest` (never enlarged).
  private static func outputPixels(_ canvas: PixelSize, longest: Int) -> Int {
    let side = max(canvas.width, canvas.height)
    guard side > longest, side > 0 else { return canvas.pixelCount }
    let scale = Double(longest) / Double(side)
    return Int((Double(canvas.width) * scale).rounded(.up) * (Double(canvas.height) * scale).rounded(.up))
  }

  /// libjpeg's whole-image coefficient buffer (jdcoefct.c): per component, its blocks rounded up to whole
  /// MCUs, 64 coefficients of 2 bytes each.
  private static func coefficientBytes(_ frame: DecodeShape.JPEGFrame) -> Int {
    let hMax = frame.sampling.map(\.horizontal).max() ?? 1
    let vMax = frame.sampling.map(\.vertical).max() ?? 1
    var total = 0
    for component in frame.sampling {
      let h = max(1, component.horizontal), v = max(1, component.vertical)
      let width = (frame.width * h + max(1, hMax) - 1) / max(1, hMax)
      let height = (frame.height * v + max(1, vMax) - 1) / max(1, vMax)
      let blocksWide = ((width + 7) / 8 + h - 1) / h * h
      let blocksHigh = ((height + 7) / 8 + v - 1) / v * v
      total = sum(total, product(product(blocksWide, blocksHigh), 128))
    }
    return total
  }

  private static func product(_ a: Int, _ b: Int) -> Int {
    let (value, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? .max : value
  }

  private static func sum(_ a: Int, _ b: Int) -> Int {
    let (value, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : value
  }

  private static func megabytes(_ bytes: Int) -> Int { bytes == .max ? bytes : (bytes + 999_999) / 1_000_000 }
  private static func megapixels(_ pixels: Int) -> Int {
    pixels == .max ? pixels : (pixels + 999_999) / 1_000_000
  }
}
