/// Small, valid media files made in memory, so tests need no binary fixtures in the repository.
///
/// Every builder takes a `seed`: different seeds give different bytes (and so different SHA-256s), the same
/// seed the same bytes. The files are tiny but well-formed enough for PhotoIntake's format sniffing and for
/// metadata readers:
///
/// - ``jpeg(width:height:seed:)``: a baseline JPEG (ITU T.81) that decoders display as mid-grey;
/// - ``png(width:height:seed:)``: a greyscale PNG with stored (uncompressed) zlib data and correct CRCs;
/// - ``heic(width:height:seed:)``: a HEIF container (ISO/IEC 23008-12) with `ftyp heic`, a `meta` box naming
///   one `hvc1` item and its `ispe` size, and an `mdat`. The coded image is placeholder bytes, so the file is
///   structurally valid but not decodable;
/// - ``quickTimeMovie(seed:duration:)`` and ``mpeg4Movie(seed:duration:)``: `ftyp` + `moov/mvhd` + `mdat`.
public enum Fixtures {
  // MARK: JPEG

  /// A greyscale baseline JPEG of the given size.
  ///
  /// Every 8×8 block codes a DC difference of 0 and an immediate end-of-block, with one-code Huffman tables, so
  /// the entropy-coded data is two bits per block. The seed goes into a COM segment.
  public static func jpeg(width: Int = 8, height: Int = 8, seed: String = "") -> [UInt8] {
    var bytes: [UInt8] = [0xFF, 0xD8]
    bytes += segment(0xE0, Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00])
    bytes += segment(0xFE, Array("PhotoIntake fixture \(seed)".utf8))
    bytes += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
    bytes += segment(0xC0, [0x08] + be16(height) + be16(width) + [0x01, 0x01, 0x11, 0x00])
    // DHT: one DC code (category 0) and one AC code (EOB), each of length 1, i.e. the bit "0".
    bytes += segment(0xC4, [0x00, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00])
    bytes += segment(0xC4, [0x10, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00])
    bytes += segment(0xDA, [0x01, 0x01, 0x00, 0x00, 0x3F, 0x00])
    let blocks = ((width + 7) / 8) * ((height + 7) / 8)
    // Two zero bits per block, padded with one bits (T.81 F.1.2.3). No byte can be 0xFF, so no stuffing.
    var scan = [UInt8](repeating: 0, count: (blocks * 2 + 7) / 8)
    let used = blocks * 2 % 8
    if used != 0 { scan[scan.count - 1] = UInt8(0xFF >> used) }
    bytes += scan
    bytes += [0xFF, 0xD9]
    return bytes
  }

  private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    [0xFF, marker] + be16(payload.count + 2) + payload
  }

  // MARK: PNG

  /// A greyscale PNG whose pixels are one shade derived from the seed.
  public static func png(width: Int = 8, height: Int = 8, seed: String = "") -> [UInt8] {
    let shade = UInt8(truncatingIfNeeded: seed.utf8.reduce(0x80) { $0 &* 31 &+ Int($1) })
    var raw: [UInt8] = []
    for _ in 0..<height { raw += [0x00] + [UInt8](repeating: shade, count: width) }
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    bytes += chunk("IHDR", be32(width) + be32(height) + [0x08, 0x00, 0x00, 0x00, 0x00])
    bytes += chunk("tEXt", Array("Comment".utf8) + [0x00] + Array("PhotoIntake fixture \(seed)".utf8))
    bytes += chunk("IDAT", zlibStored(raw))
    bytes += chunk("IEND", [])
    return bytes
  }

  private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return be32(data.count) + body + be32(Int(crc32(body)))
  }

  /// zlib (RFC 1950) around stored deflate blocks (RFC 1951 3.2.4): valid without a compressor.
  private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65_535, data.count - offset)
      let final: UInt8 = offset + count == data.count ? 1 : 0
      out += [final] + le16(count) + le16(~count & 0xFFFF) + data[offset..<(offset + count)]
      offset += count
    } while offset < data.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in data {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return out + be32(Int(b << 16 | a))
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  // MARK: Byte helpers

  static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
  static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
  static func be32(_ value: Int) -> [UInt8] {
    [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }
}
