import Foundation
import PhotoIntakeTesting
import PhotoMetadata
import Testing

@testable import PhotoIntake

/// Files under the pixel limit whose decode would still cost too much memory or work (issue 24): each is
/// made here, byte by byte, and refused from its headers before any decoder sees it, for thumbnails (and so
/// import renditions, which use the same plan) and for `export --as jpeg`.
struct DecodeLimitTests {
  #if canImport(CVips)
    let thumbnailer = VipsThumbnailer()

    @Test(arguments: [
      "grid.heic", "progressive.jpg", "progressive-extraneous.jpg", "screen.gif", "frames.webp",
    ])
    func costlyDecodesAreRefusedBeforeDecode(name: String) throws {
      let folder = TemporaryDirectory()
      let path = try folder.write(name, DecodeBombs.make(name))
      let (result, decodes) = recordingDecodes {
        Result { () throws(ImagingError) in
          try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320))
        }
      }
      #expect(decodes == [], "the decoder never saw \(name)")
      guard case .failure(.overDecodeBudget(let reason)) = result else {
        Issue.record("\(name): \(result)")
        return
      }
      #expect(!reason.isEmpty)
      // The export conversion is refused by the same estimate, before anything is decoded (at a size that
      // makes even an upright JPEG a conversion; at its own size it is exported as it is, undecoded).
      let options = ExportOptions(format: .jpeg, maxPixelSize: 2048)
      #expect(throws: ImagingError.self) { try CompatibleJPEG.plan(fileAt: path, options: options) }
      do {
        _ = try CompatibleJPEG.plan(fileAt: path, options: options)
      } catch {
        #expect(error.code == "over-decode-budget", "\(name): \(error)")
      }
    }

    /// The same files pass the estimate with the limit lifted: the refusal is the budget's, not the pixel
    /// limit's or a parse failure.
    @Test(arguments: [
      "grid.heic", "progressive.jpg", "progressive-extraneous.jpg", "screen.gif", "frames.webp",
    ])
    func theBudgetIsWhatRefusesThem(name: String) throws {
      let folder = TemporaryDirectory()
      let path = try folder.write(name, DecodeBombs.make(name))
      let (metadata, shape) = try ImageHeaders.survey(fileAt: path)
      var request = ThumbnailRequest(maxPixelSize: 320)
      request.decodeLimit = .unlimited
      #expect(throws: Never.self) { try ThumbnailPlan.make(metadata, shape: shape, request: request) }
    }

    /// What the headers count: tiles as often as they are referenced, frames, a progressive JPEG's
    /// coefficients (3 components 1×1 of 14000²: 1750² blocks × 128 bytes × 3 = 1.18 GB).
    @Test func theEstimatesCountWhatDecodersDo() throws {
      let folder = TemporaryDirectory()
      let grid = try ImageHeaders.survey(fileAt: folder.write("g.heic", DecodeBombs.make("grid.heic")))
      #expect(grid.shape.survey.tilesReferenced == 729)
      #expect(grid.shape.survey.decodedPixels == 729 * 512 * 512)
      let webp = try ImageHeaders.survey(fileAt: folder.write("f.webp", DecodeBombs.make("frames.webp")))
      #expect(webp.shape.survey.frames == 100_000)
      let jpeg = try ImageHeaders.survey(fileAt: folder.write("p.jpg", DecodeBombs.make("progressive.jpg")))
      let cost = DecodeCost.thumbnail(jpeg.metadata, shape: jpeg.shape, size: 320)
      #expect(cost.bytes >= 1750 * 1750 * 128 * 3)
      // A baseline JPEG of the same size is decoded reduced, within budget.
      let baseline = try ImageHeaders.survey(
        fileAt: folder.write("b.jpg", DecodeBombs.jpeg(width: 14000, height: 14000, progressive: false)))
      #expect(throws: Never.self) {
        try DecodeCost.thumbnail(baseline.metadata, shape: baseline.shape, size: 320).check(DecodeLimit())
      }
    }

    /// A PNG cut inside its pixel data never exports as a picture (libvips padded it with black and called
    /// the full-size conversion a success).
    @Test func aTruncatedPNGDoesNotConvertAtFullSize() throws {
      let folder = TemporaryDirectory()
      let bytes = DecodeBombs.truncatedPNG()
      #expect(bytes.count == 74)
      let path = try folder.write("truncated.png", bytes)
      // The plan the exporter makes for a PNG of these headers (our header reader, stricter, refuses this
      // one itself for its missing IEND; the converter must not rely on that).
      var metadata = MediaMetadata(type: .png)
      metadata.width = 64
      metadata.height = 64
      let plan = CompatibleJPEG.Plan(
        metadata: metadata, orientation: nil, maxPixelSize: nil, quality: 90,
        maximumPixelCount: ThumbnailRequest.defaultMaximumPixelCount, stripLocation: false)
      #expect {
        try CompatibleJPEG.make(fileAt: path, plan: plan)
      } throws: { error in
        (error as? ImagingError)?.code == "decode-failed"
      }
    }

    /// The ≈196 MP non-JPEG of the decode list (a 14000² PNG, made here by libvips; it took 1.76 GB through
    /// `export --as jpeg`): PNG has no reduced decode, so every conversion passes 196 million pixels through
    /// the decoder, twice the work budget (about 2 s at 12 MP scale), and a full-size one would also hold its
    /// encoded output: each is refused from the headers, before any decode, as its rendition is. Peak memory
    /// and time are measured by Benchmarks/bombs.sh.
    @Test func aHugePNGIsRefusedBeforeAnyDecode() throws {
      let folder = TemporaryDirectory()
      let path = folder.at("large.png")
      try CompatibleExportTests.run("vips", ["black", path + "[compression=1]", "14000", "14000"])
      for size in [nil, 2048] as [Int?] {
        let (result, decodes) = recordingDecodes {
          Result { () throws(ImagingError) in
            try CompatibleJPEG.plan(fileAt: path, options: ExportOptions(format: .jpeg, maxPixelSize: size))
          }
        }
        #expect(decodes == [], "size \(String(describing: size))")
        guard case .failure(let error) = result else {
          Issue.record("size \(String(describing: size)): converted")
          continue
        }
        #expect(error.code == "over-decode-budget", "\(error)")
      }
      #expect(throws: ImagingError.self) {
        try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320))
      }
    }

    /// The decode list's movie: a playable 64×64 H.264 movie whose track header and sample entry claim
    /// 65535×65535 (made here by ffmpeg and patched). Its poster is the 64×64 frame; the limit follows the
    /// coded stream (Importer, through MetadataReader's `declaredPixelCount`, does the same).
    @Test func aMovieClaimingHugeFramesHasAPoster() throws {
      let folder = TemporaryDirectory()
      let path = try DecodeBombs.claimedMovie(in: folder)
      let poster = try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320))
      #expect(poster.width == 64 && poster.height == 64)
      let metadata = try MetadataReader.read(fileAt: path)
      #expect(metadata.declaredPixelCount == 64 * 64)
      // A coded stream over the limit is still refused before any decode.
      #expect(throws: ImagingError.tooManyPixels(declared: 64 * 64, limit: 1000)) {
        try thumbnailer.thumbnail(
          ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320, maximumPixelCount: 1000))
      }
    }

    /// A photo-sized picture of each kind still renders: the budget refuses bombs, not photos.
    @Test(arguments: ["scene.heic", "scene.png", "scene.gif", "scene.webp", "orientation-6.jpg"])
    func photosStillRender(name: String) throws {
      let thumbnail = try thumbnailer.thumbnail(
        ofFileAt: ImagingFixture.path(name), request: ThumbnailRequest(maxPixelSize: 64))
      #expect(thumbnail.width > 0)
    }
  #endif
}

/// The decode-budget inputs of issue 24, made in memory (Benchmarks/make-bombs.py makes real-codec versions
/// for the benchmark). Their pixel data is never decoded: the refusal comes first.
enum DecodeBombs {
  static func make(_ name: String) -> [UInt8] {
    switch name {
    case "grid.heic": heifGrid(rows: 27, columns: 27, tile: 512)
    case "progressive.jpg": jpeg(width: 14000, height: 14000, progressive: true)
    case "progressive-extraneous.jpg":
      // The same behind a comment and extraneous bytes (issue 26): the frame header the metadata reader finds
      // past them is the one the budget prices.
      [0xFF, 0xD8, 0xFF, 0xFE, 0x00, 0x03, 0x78] + Array("stray bytes".utf8)
        + Array(jpeg(width: 14000, height: 14000, progressive: true).dropFirst(2))
    case "screen.gif":
      // A 14000×14000 logical screen with a 2-colour table and one 1×1 frame: 35 bytes.
      Array("GIF89a".utf8) + le16(14000) + le16(14000) + [0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        + [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
    default: animatedWebP(frames: 100_000, canvas: 1024)
    }
  }

  /// A playable 64×64 H.264 QuickTime movie (ffmpeg) whose `tkhd` (16.16) and `avc1` sample entry claim
  /// 65535×65535, as Benchmarks/make-bombs.py makes `claimed.mov`.
  static func claimedMovie(in folder: TemporaryDirectory) throws -> String {
    let small = folder.at("small.mov")
    try CompatibleExportTests.run(
      "ffmpeg",
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=10:duration=1", "-c:v", "libx264",
        "-pix_fmt", "yuv420p", small,
      ])
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: small)))
    func find(_ type: String) throws -> Int {
      let name = Array(type.utf8)
      let at = try #require((4..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == name })
      return at - 4
    }
    let tkhd = try find("tkhd")
    let tkhdEnd =
      tkhd
      + (Int(bytes[tkhd]) << 24 | Int(bytes[tkhd + 1]) << 16 | Int(bytes[tkhd + 2]) << 8
        | Int(bytes[tkhd + 3]))
    bytes.replaceSubrange((tkhdEnd - 8)..<tkhdEnd, with: [0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0, 0])
    // stsd: header 8, version and flags 4, entry count 4; the entry: header 8, 24 bytes, width, height.
    let entry = try find("stsd") + 16
    bytes.replaceSubrange((entry + 32)..<(entry + 36), with: [0xFF, 0xFF, 0xFF, 0xFF])
    return try folder.write("claimed.mov", bytes)
  }

  /// SOI, a frame header of 3 components sampled 1×1 (T.81 §B.2.2), a scan header and a few bytes of
  /// entropy-coded data, EOI: all a header reader needs.
  static func jpeg(width: Int, height: Int, progressive: Bool) -> [UInt8] {
    let sof: [UInt8] = [8] + be16(height) + be16(width) + [3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]
    let sos: [UInt8] = [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, progressive ? 0 : 63, 0]
    return [0xFF, 0xD8, 0xFF, progressive ? 0xC2 : 0xC0] + be16(sof.count + 2) + sof + [0xFF, 0xDA]
      + be16(sos.count + 2) + sos + [0x12, 0x34, 0x56, 0x78, 0xFF, 0xD9]
  }

  /// 74 bytes: a 64×64 RGB PNG whose only IDAT chunk is whole (its CRC right) but holds the first 29 bytes
  /// of the zlib stream, and no IEND: the file every header reader accepts and no decoder can finish.
  static func truncatedPNG() -> [UInt8] {
    let ihdr = be32(64) + be32(64) + [8, 2, 0, 0, 0]
    // zlib header, then a stored (uncompressed) block announcing all 64 rows that stops after 22 bytes.
    let rows = 64 * (1 + 64 * 3)
    let zlib: [UInt8] =
      [0x78, 0x01, 0x01] + le16(rows) + le16(~rows & 0xFFFF) + [UInt8](repeating: 0, count: 22)
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", ihdr) + pngChunk("IDAT", zlib)
  }

  private static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in typed {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return be32(data.count) + typed + be32(Int(~crc))
  }

  /// A HEIF whose grid item references one `tile`² item rows × columns times (ISO/IEC 23008-12 §6.6.2.3).
  static func heifGrid(rows: Int, columns: Int, tile: Int) -> [UInt8] {
    let side = tile * columns
    let hdlr = full(
      "hdlr", [UInt8](repeating: 0, count: 4) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
    let pitm = full("pitm", be16(2))
    let infe1 = full("infe", be16(1) + be16(0) + Array("hvc1".utf8) + [0], version: 2, flags: 1)
    let infe2 = full("infe", be16(2) + be16(0) + Array("grid".utf8) + [0], version: 2)
    let iinf = full("iinf", be16(2) + infe1 + infe2)
    let dimg = box("dimg", be16(2) + be16(rows * columns) + (0..<rows * columns).flatMap { _ in be16(1) })
    let iref = full("iref", dimg)
    let ipco = box(
      "ipco",
      box("hvcC", [UInt8](repeating: 0, count: 23)) + full("ispe", be32(tile) + be32(tile))
        + full("ispe", be32(side) + be32(side)))
    let ipma = full("ipma", be32(2) + be16(1) + [2, 0x81, 0x02] + be16(2) + [1, 0x03])
    let iprp = box("iprp", ipco + ipma)
    let grid: [UInt8] = [0, 0, UInt8(rows - 1), UInt8(columns - 1)] + be16(side) + be16(side)
    let tileData = [UInt8](repeating: 0, count: 64)
    let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
    func meta(_ tileAt: Int, _ gridAt: Int) -> [UInt8] {
      let iloc = full(
        "iloc",
        [0x44, 0x00] + be16(2) + be16(1) + be16(0) + be16(1) + be32(tileAt) + be32(tileData.count)
          + be16(2) + be16(0) + be16(1) + be32(gridAt) + be32(grid.count))
      return full("meta", hdlr + pitm + iloc + iinf + iref + iprp)
    }
    let head = ftyp.count + meta(0, 0).count + 8
    return ftyp + meta(head, head + tileData.count) + box("mdat", tileData + grid)
  }

  /// An animated WebP: a `canvas`² VP8X canvas and `frames` 1×1 frames, each a lossless bitstream header.
  static func animatedWebP(frames: Int, canvas: Int) -> [UInt8] {
    let bits = 0  // width − 1 and height − 1 of 0: 1×1
    let vp8l: [UInt8] = [0x2F] + le16(bits) + le16(0) + [0, 0, 0]
    let frame = riff("ANMF", le24(0) + le24(0) + le24(0) + le24(0) + le24(100) + [0] + riff("VP8L", vp8l))
    var body = Array("WEBP".utf8) + riff("VP8X", [0x02, 0, 0, 0] + le24(canvas - 1) + le24(canvas - 1))
    body += riff("ANIM", [UInt8](repeating: 0, count: 6))
    body.reserveCapacity(body.count + frames * frame.count)
    for _ in 0..<frames { body += frame }
    return Array("RIFF".utf8) + le32(body.count) + body
  }

  private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    be32(payload.count + 8) + Array(type.utf8) + payload
  }
  private static func full(_ type: String, _ payload: [UInt8], version: UInt8 = 0, flags: Int = 0) -> [UInt8]
  {
    box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + payload)
  }
  private static func riff(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
    Array(fourCC.utf8) + le32(data.count) + data + (data.count & 1 == 1 ? [0] : [])
  }
  private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
  private static func le24(_ value: Int) -> [UInt8] { le16(value) + [UInt8(value >> 16 & 0xFF)] }
  private static func le32(_ value: Int) -> [UInt8] { le16(value) + le16(value >> 16) }
  private static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
  private static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value) }
}
