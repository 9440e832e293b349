/// Small files whose first header declares a tiny image while a later frame, page or chunk asks a decoder for
/// a huge canvas: the bombs that a check of the declared size alone lets through.
///
/// Each is a few hundred bytes, built byte by byte so that the lie is exact and no tool "repairs" it.
enum CanvasBombs {
  /// A 16×16 screen (GIF89a §18) holding one frame at `left`,`top` of `width`×`height` (§20), with two
  /// bytes of LZW data, then optionally a second frame the same way.
  static func gif(frames: [(left: Int, top: Int, width: Int, height: Int)]) -> [UInt8] {
    var bytes = Array("GIF89a".utf8) + le16(16) + le16(16) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
    for frame in frames {
      bytes += [0x2C] + le16(frame.left) + le16(frame.top) + le16(frame.width) + le16(frame.height) + [0]
      // LZW minimum code size 2, one sub-block (clear, a pixel, end), terminator.
      bytes += [0x02, 0x02, 0x4C, 0x01, 0x00]
    }
    return bytes + [0x3B]
  }

  /// A 16×16 APNG whose frame control chunk (PNG 3rd ed. §11.3.6.2) declares `width`×`height`.
  static func apng(width: Int, height: Int) -> [UInt8] {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    bytes += chunk("IHDR", be32(16) + be32(16) + [8, 2, 0, 0, 0])
    bytes += chunk("acTL", be32(1) + be32(0))
    bytes += chunk("fcTL", be32(0) + be32(width) + be32(height) + be32(0) + be32(0) + [0, 1, 0, 1, 0, 0])
    // zlib stream of 16 rows of filter byte 0 and 48 zero bytes, stored (uncompressed) block.
    let raw = [UInt8](repeating: 0, count: 16 * 49)
    var zlib: [UInt8] = [0x78, 0x01, 0x01] + le16(raw.count) + le16(~raw.count & 0xFFFF) + raw
    zlib += be32(adler32(raw))
    bytes += chunk("IDAT", zlib)
    return bytes + chunk("IEND", [])
  }

  /// An animated WebP with a 16×16 VP8X canvas whose one ANMF frame (WebP Container Specification) declares
  /// `width`×`height` around a 16×16 lossless bitstream header.
  static func animatedWebP(width: Int, height: Int) -> [UInt8] {
    let vp8x: [UInt8] = [0x02, 0, 0, 0] + le24(15) + le24(15)
    let anim: [UInt8] = [0, 0, 0, 0] + le16(0)
    // VP8L: signature, 14-bit width − 1 and height − 1, alpha and version bits; the rest never decoded.
    let bits = UInt32(15) | UInt32(15) << 14
    let vp8l: [UInt8] = [0x2F] + le32(Int(bits)) + [0, 0, 0]
    let frame = le24(0) + le24(0) + le24(width - 1) + le24(height - 1) + le24(100) + [0] + riff("VP8L", vp8l)
    let body = Array("WEBP".utf8) + riff("VP8X", vp8x) + riff("ANIM", anim) + riff("ANMF", frame)
    return Array("RIFF".utf8) + le32(body.count) + body
  }

  /// A little-endian TIFF whose first page is 16×16 and whose second page (IFD0's next IFD, TIFF 6.0 §2)
  /// declares `width`×`height`: as one LONG each, or, with `sizeCount` 2, as two SHORTs each (a list, which
  /// libtiff refuses as a size, and the page with it).
  static func twoPageTIFF(width: Int, height: Int, sizeCount: Int = 1) -> [UInt8] {
    // Header (8), IFD0 at 8 with 2 entries (2 + 24 + 4 = 30 bytes), IFD1 at 38.
    func size(_ tag: Int, _ value: Int, count: Int) -> [UInt8] {
      count == 1
        ? le16(tag) + le16(4) + le32(1) + le32(value) : le16(tag) + le16(3) + le32(2) + le16(value) + le16(0)
    }
    func directory(_ w: Int, _ h: Int, next: Int, count: Int = 1) -> [UInt8] {
      le16(2) + size(256, w, count: count) + size(257, h, count: count) + le32(next)
    }
    return [0x49, 0x49, 0x2A, 0x00] + le32(8) + directory(16, 16, next: 38)
      + directory(width, height, next: 0, count: sizeCount)
  }

  private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
  private static func le24(_ value: Int) -> [UInt8] { le16(value) + [UInt8(value >> 16 & 0xFF)] }
  private static func le32(_ value: Int) -> [UInt8] { le16(value) + le16(value >> 16) }
  private static func be32(_ value: Int) -> [UInt8] { le32(value).reversed() }
  private static func be32(_ value: UInt32) -> [UInt8] { be32(Int(value)) }

  private static func riff(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
    Array(fourCC.utf8) + le32(data.count) + data + (data.count & 1 == 1 ? [0] : [])
  }

  private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return be32(data.count) + typed + be32(crc32(typed))
  }

  /// CRC-32 as PNG uses it (ISO 3309, PNG 3rd ed. Annex D).
  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return ~crc
  }

  private static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    return b << 16 | a
  }
}
