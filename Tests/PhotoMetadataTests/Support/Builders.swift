/// Byte builders for crafted test files: TIFF/EXIF structures, JPEG segments, MPF, HEIF boxes.
struct TIFFBuilder {
  enum Value {
    case ascii(String)
    case short([UInt16])
    case long([UInt32])
    case rational([(UInt32, UInt32)])
    case undefined([UInt8])
    /// A pointer to the directory with this index (resolved when built).
    case pointer(Int)
    /// A raw entry: type, count and the 4-byte value/offset field as given.
    case raw(type: UInt16, count: UInt32, field: UInt32)
  }

  var bigEndian = true
  /// Directories in layout order; directory 0 is IFD0.
  var directories: [[(UInt16, Value)]] = [[]]
  /// Next-IFD link of each directory: index of the directory, or a raw offset.
  var next: [Int: UInt32] = [:]
  var nextDirectory: [Int: Int] = [:]

  func u16(_ v: UInt16) -> [UInt8] {
    bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
  }
  func u32(_ v: UInt32) -> [UInt8] {
    let b = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    return bigEndian ? b : b.reversed()
  }

  /// The TIFF structure, header first; offsets count from the header.
  func build() -> [UInt8] {
    // Directory tables first, then out-of-line values.
    var tableOffsets: [Int] = []
    var at = 8
    for dir in directories {
      tableOffsets.append(at)
      at += 2 + dir.count * 12 + 4
    }
    var data: [UInt8] = []
    var dataStart = at
    var tables: [UInt8] = []
    for (index, dir) in directories.enumerated() {
      tables += u16(UInt16(dir.count))
      for (tag, value) in dir.sorted(by: { $0.0 < $1.0 }) {
        let (type, count, payload): (UInt16, UInt32, [UInt8])
        switch value {
        case .ascii(let s): (type, count, payload) = (2, UInt32(s.utf8.count + 1), Array(s.utf8) + [0])
        case .short(let v): (type, count, payload) = (3, UInt32(v.count), v.flatMap(u16))
        case .long(let v): (type, count, payload) = (4, UInt32(v.count), v.flatMap(u32))
        case .rational(let v):
          (type, count, payload) = (5, UInt32(v.count), v.flatMap { u32($0.0) + u32($0.1) })
        case .undefined(let v): (type, count, payload) = (7, UInt32(v.count), v)
        case .pointer(let d): (type, count, payload) = (4, 1, u32(UInt32(tableOffsets[d])))
        case .raw(let t, let c, let field):
          tables += u16(tag) + u16(t) + u32(c) + u32(field)
          continue
        }
        tables += u16(tag) + u16(type) + u32(count)
        if payload.count <= 4 {
          tables += payload + [UInt8](repeating: 0, count: 4 - payload.count)
        } else {
          tables += u32(UInt32(dataStart + data.count))
          data += payload
          if data.count % 2 == 1 { data.append(0) }
        }
      }
      if let d = nextDirectory[index] {
        tables += u32(UInt32(tableOffsets[d]))
      } else {
        tables += u32(next[index] ?? 0)
      }
    }
    _ = dataStart
    dataStart = 0
    let header: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
    return header + tables + data
  }

  /// A camera-like EXIF block: IFD0, Exif IFD, GPS IFD.
  static func camera(
    make: String = "Apple", model: String = "iPhone 15 Pro", orientation: UInt16 = 1,
    date: String = "2023:09:22 08:30:00", offset: String? = "+02:00", latitude: Double? = 48.8584,
    longitude: Double? = -2.2945, makerNote: [UInt8]? = nil, bigEndian: Bool = true
  ) -> [UInt8] {
    var builder = TIFFBuilder(bigEndian: bigEndian)
    var exif: [(UInt16, Value)] = [(0x9003, .ascii(date))]
    if let offset { exif.append((0x9011, .ascii(offset))) }
    if let makerNote { exif.append((0x927C, .undefined(makerNote))) }
    builder.directories = [
      [
        (0x010F, .ascii(make)), (0x0110, .ascii(model)), (0x0112, .short([orientation])),
        (0x8769, .pointer(1)),
      ],
      exif,
    ]
    if let latitude, let longitude {
      builder.directories[0].append((0x8825, .pointer(2)))
      builder.directories.append([
        (0x0001, .ascii(latitude < 0 ? "S" : "N")), (0x0002, .rational(dms(abs(latitude)))),
        (0x0003, .ascii(longitude < 0 ? "W" : "E")), (0x0004, .rational(dms(abs(longitude)))),
        (0x0006, .rational([(12345, 100)])),
      ])
    }
    return builder.build()
  }

  static func dms(_ value: Double) -> [(UInt32, UInt32)] {
    let micro = UInt32((value * 1_000_000).rounded())
    return [(micro, 1_000_000), (0, 1), (0, 1)]
  }
}

enum AppleMakerNoteBuilder {
  /// "Apple iOS\0", version 1, "MM", then an IFD with tag 0x0011 (content identifier); offsets from the start.
  static func note(contentIdentifier: String) -> [UInt8] {
    let text = Array(contentIdentifier.utf8) + [0]
    var bytes: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8)
    let valueOffset = 14 + 2 + 2 * 12 + 4
    bytes += be16(2)
    bytes += be16(0x0001) + be16(9) + be32(1) + be32(14)  // a version field, inline
    bytes += be16(0x0011) + be16(2) + be32(UInt32(text.count)) + be32(UInt32(valueOffset))
    bytes += be32(0)
    return bytes + text
  }
}

func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
func be32(_ v: UInt32) -> [UInt8] {
  [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
}
func be64(_ v: UInt64) -> [UInt8] { be32(UInt32(v >> 32)) + be32(UInt32(v & 0xFFFF_FFFF)) }

enum JPEGBuilder {
  /// A marker segment: FF marker, length, payload.
  static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    [0xFF, marker] + be16(UInt16(payload.count + 2)) + payload
  }

  static func exifSegment(_ tiff: [UInt8]) -> [UInt8] { segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff) }

  static func xmpSegment(_ xmp: String) -> [UInt8] {
    segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8))
  }

  /// `jpeg` with `segments` inserted right after SOI.
  static func inserting(_ segments: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
    Array(jpeg[0..<2]) + segments + Array(jpeg[2...])
  }

  /// A multi-picture file (CIPA DC-007): `primary` gets an MPF APP2 listing itself and `secondary`, which
  /// is appended after it.
  static func mpf(primary: [UInt8], secondary: [UInt8], secondaryType: UInt32 = 0x0001_0001) -> [UInt8] {
    // MPF APP2: "MPF\0", TIFF header (MM), MP Index IFD with version, count and the MP entries.
    func app2(primaryLength: UInt32, secondaryOffset: UInt32) -> [UInt8] {
      var tiff: [UInt8] = Array("MM".utf8) + be16(42) + be32(8)
      let entriesOffset: UInt32 = 8 + 2 + 3 * 12 + 4
      tiff += be16(3)
      tiff += be16(0xB000) + be16(7) + be32(4) + Array("0100".utf8)
      tiff += be16(0xB001) + be16(4) + be32(1) + be32(2)
      tiff += be16(0xB002) + be16(7) + be32(32) + be32(entriesOffset)
      tiff += be32(0)
      tiff += be32(0x2003_0000) + be32(primaryLength) + be32(0) + be16(0) + be16(0)
      tiff += be32(secondaryType) + be32(UInt32(secondary.count)) + be32(secondaryOffset) + be16(0) + be16(0)
      return JPEGBuilder.segment(0xE2, Array("MPF".utf8) + [0] + tiff)
    }
    let length = app2(primaryLength: 0, secondaryOffset: 0).count
    let primaryLength = primary.count + length
    // Offsets count from the MPF TIFF header: SOI (2) + APP2 marker and length (4) + "MPF\0" (4).
    let base = 2 + 4 + 4
    let mpfSegment = app2(primaryLength: UInt32(primaryLength), secondaryOffset: UInt32(primaryLength - base))
    return inserting(mpfSegment, into: primary) + secondary
  }
}

/// Builds ISOBMFF boxes for crafted HEIF and movie files.
enum BoxBuilder {
  static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
  }

  static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
    box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + payload)
  }

  /// A minimal HEIC: one `hvc1` primary item (bogus coded data), `ispe`, optional `irot`/`imir`, and an
  /// optional Exif item, all data in `mdat`. Enough for metadata readers (not for decoders).
  static func heif(
    width: UInt32 = 640, height: UInt32 = 480, transforms: [[UInt8]] = [], exif: [UInt8]? = nil,
    mutateIloc: ((inout [UInt8]) -> Void)? = nil
  ) -> [UInt8] {
    let ftyp = box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8))
    let coded: [UInt8] = [0, 0, 0, 4, 0x26, 0x01, 0xAF, 0x00]
    let exifItem = exif.map { be32(6) + Array("Exif".utf8) + [0, 0] + $0 }
    func meta(mdatPayloadStart: Int) -> [UInt8] {
      let hdlr = fullBox("hdlr", be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 12) + [0])
      let pitm = fullBox("pitm", be16(1))
      var infes = fullBox("infe", version: 2, be16(1) + be16(0) + Array("hvc1".utf8) + [0])
      var count: UInt16 = 1
      if exifItem != nil {
        infes += fullBox("infe", version: 2, be16(2) + be16(0) + Array("Exif".utf8) + [0])
        count = 2
      }
      let iinf = fullBox("iinf", be16(count) + infes)
      var ilocItems = be16(1) + be16(0) + be16(1) + be32(UInt32(mdatPayloadStart)) + be32(UInt32(coded.count))
      if let exifItem {
        ilocItems +=
          be16(2) + be16(0) + be16(1) + be32(UInt32(mdatPayloadStart + coded.count))
          + be32(UInt32(exifItem.count))
      }
      var iloc = fullBox("iloc", [0x44, 0x00] + be16(count) + ilocItems)
      mutateIloc?(&iloc)
      let ispe = fullBox("ispe", be32(width) + be32(height))
      let ipco = box("ipco", ispe + transforms.joined())
      let indices: [UInt8] = [0x81] + (0..<transforms.count).map { UInt8(0x82 + $0) }
      let ipma = fullBox("ipma", be32(1) + be16(1) + [UInt8(indices.count)] + indices)
      let iprp = box("iprp", ipco + ipma)
      let iref = exifItem == nil ? [] : fullBox("iref", box("cdsc", be16(2) + be16(1) + be16(1)))
      return fullBox("meta", hdlr + pitm + iinf + iloc + iprp + iref)
    }
    let metaLength = meta(mdatPayloadStart: 0).count
    let mdatPayloadStart = ftyp.count + metaLength + 8
    return ftyp + meta(mdatPayloadStart: mdatPayloadStart) + box("mdat", coded + (exifItem ?? []))
  }

  static func irot(_ angle: UInt8) -> [UInt8] { box("irot", [angle]) }
  static func imir(_ axis: UInt8) -> [UInt8] { box("imir", [axis]) }
}
