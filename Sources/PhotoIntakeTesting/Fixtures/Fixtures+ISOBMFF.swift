extension Fixtures {
  /// A HEIF still image container (ISO/IEC 23008-12): `ftyp heic`, then `meta` with `hdlr pict`, `pitm`,
  /// `iinf` (one `hvc1` item), `iloc` pointing into `mdat`, and `iprp` with the item's `ispe` size.
  ///
  /// The `mdat` holds placeholder bytes instead of HEVC data: enough for sniffing and for reading the declared
  /// size, not for decoding.
  public static func heic(width: Int = 8, height: Int = 8, seed: String = "") -> [UInt8] {
    let ftyp = box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1".utf8) + Array("heic".utf8))
    let payload = Array("PhotoIntake HEVC placeholder \(seed)".utf8)
    func meta(dataOffset: Int) -> [UInt8] {
      let hdlr = fullBox("hdlr", [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 12) + [0])
      let pitm = fullBox("pitm", be16(1))
      let infe = fullBox("infe", be16(1) + be16(0) + Array("hvc1".utf8) + [0], version: 2)
      let iinf = fullBox("iinf", be16(1) + infe)
      // iloc v0: offset_size 4, length_size 4, base_offset_size 0; one item, one extent.
      let iloc = fullBox(
        "iloc", [0x44, 0x00] + be16(1) + be16(1) + be16(0) + be16(1) + be32(dataOffset) + be32(payload.count))
      let ispe = fullBox("ispe", be32(width) + be32(height))
      let ipco = box("ipco", ispe)
      let ipma = fullBox("ipma", be32(1) + be16(1) + [1, 0x01])
      let iprp = box("iprp", ipco + ipma)
      return fullBox("meta", hdlr + pitm + iinf + iloc + iprp)
    }
    // The offset of the payload depends on the size of `meta`, which does not depend on the offset's value.
    let metaSize = meta(dataOffset: 0).count
    let offset = ftyp.count + metaSize + 8
    return ftyp + meta(dataOffset: offset) + box("mdat", payload)
  }

  /// A QuickTime movie (`ftyp qt`, `moov/mvhd`, `mdat`), as the Camera app records (HEVC in MOV).
  public static func quickTimeMovie(seed: String = "", duration: Int = 3) -> [UInt8] {
    movie(brand: "qt  ", compatible: ["qt  "], seed: seed, duration: duration)
  }

  /// An MPEG-4 movie (`ftyp isom`, `moov/mvhd`, `mdat`), what `.compatible` transcodes videos to (H.264).
  public static func mpeg4Movie(seed: String = "", duration: Int = 3) -> [UInt8] {
    movie(brand: "isom", compatible: ["isom", "iso2", "avc1", "mp41"], seed: seed, duration: duration)
  }

  private static func movie(brand: String, compatible: [String], seed: String, duration: Int) -> [UInt8] {
    let ftyp = box("ftyp", Array(brand.utf8) + be32(0x200) + compatible.flatMap { Array($0.utf8) })
    // mvhd version 0 (ISO/IEC 14496-12 8.2.2): times, timescale 600, duration, rate 1.0, volume 1.0, the
    // identity matrix, next track 2.
    var mvhd: [UInt8] =
      be32(0) + be32(0) + be32(600) + be32(duration * 600) + be32(0x0001_0000) + be16(0x0100)
    mvhd += [UInt8](repeating: 0, count: 10)
    for value in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { mvhd += be32(value) }
    mvhd += [UInt8](repeating: 0, count: 24) + be32(2)
    let moov = box("moov", fullBox("mvhd", mvhd))
    return ftyp + moov + box("mdat", Array("PhotoIntake movie placeholder \(seed)".utf8))
  }

  static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
    be32(body.count + 8) + Array(type.utf8) + body
  }

  static func fullBox(_ type: String, _ body: [UInt8], version: UInt8 = 0) -> [UInt8] {
    box(type, [version, 0, 0, 0] + body)
  }
}
