import PhotoMetadata

/// Reads a HEIF/AVIF file's primary image size, its transformations and its thumbnail items from the `meta`
/// box (ISO/IEC 23008-12 §9; boxes of ISO/IEC 14496-12). Only `meta` is read, never the coded data in `mdat`.
enum HEIFHeaders {
  /// A `meta` box larger than this is refused: iPhone files carry about 4 KiB, grids of 48 MP photos a few
  /// tens of KiB.
  static let maximumMetaSize = 4 << 20

  static func read(_ file: some HeaderBytes, into metadata: inout MediaMetadata) throws(ImagingError) {
    let meta = try findMeta(file)
    // `meta` is a FullBox: version and flags come before its children.
    let boxes = children(meta, from: 4)
    var primary: Int?
    var types: [Int: String] = [:]
    var thumbnailsOf: [Int: [Int]] = [:]
    var properties: [(type: String, payload: ByteView)] = []
    var associations: [Int: [Int]] = [:]
    for box in boxes {
      switch box.type {
      case "pitm":
        primary = box.payload.u8(0) == 0 ? box.payload.u16(4) : box.payload.u32(4)
      case "iinf":
        let version = box.payload.u8(0) ?? 0
        for entry in children(box.payload, from: version == 0 ? 6 : 8) where entry.type == "infe" {
          let infe = entry.payload
          guard let infeVersion = infe.u8(0), infeVersion >= 2 else { continue }
          let idSize = infeVersion == 2 ? 2 : 4
          guard let id = idSize == 2 ? infe.u16(4) : infe.u32(4), let type = infe.fourCC(4 + idSize + 2)
          else {
            continue
          }
          types[id] = type
        }
      case "iref":
        let wide = box.payload.u8(0) != 0
        for reference in children(box.payload, from: 4) where reference.type == "thmb" {
          let view = reference.payload
          guard let from = wide ? view.u32(0) : view.u16(0) else { continue }
          let start = wide ? 4 : 2
          guard let count = view.u16(start) else { continue }
          for index in 0..<count {
            let at = start + 2 + index * (wide ? 4 : 2)
            if let to = wide ? view.u32(at) : view.u16(at) { thumbnailsOf[to, default: []].append(from) }
          }
        }
      case "iprp":
        for child in children(box.payload, from: 0) {
          if child.type == "ipco" {
            properties = children(child.payload, from: 0).map { ($0.type, $0.payload) }
          } else if child.type == "ipma" {
            associations = self.associations(child.payload)
          }
        }
      default:
        break
      }
    }
    guard let primary else { throw .malformed(reason: "the HEIF file names no primary image (pitm)") }
    func property(_ index: Int) -> (type: String, payload: ByteView)? {
      index >= 1 && index <= properties.count ? properties[index - 1] : nil
    }
    func extent(of item: Int) -> (width: Int, height: Int)? {
      for index in associations[item] ?? [] {
        guard let found = property(index), found.type == "ispe" else { continue }
        if let width = found.payload.u32(4), let height = found.payload.u32(8) { return (width, height) }
      }
      return nil
    }
    guard let size = extent(of: primary), size.width > 0, size.height > 0 else {
      throw .malformed(reason: "the HEIF primary image has no size (ispe)")
    }
    metadata.width = size.width
    metadata.height = size.height
    metadata.orientation = orientation(
      (associations[primary] ?? []).compactMap { property($0) }.map { ($0.type, $0.payload.u8(0) ?? 0) })
    // libheif (and so libvips) loads the first thumbnail of the primary image; list only that one.
    if let thumbnail = thumbnailsOf[primary]?.first, let thumbSize = extent(of: thumbnail) {
      let type: MediaType =
        switch types[thumbnail] {
        case "av01": .avif
        case "jpeg": .jpeg
        default: .heic
        }
      metadata.previews = [
        EmbeddedPreview(kind: .heifThumbnail, type: type, width: thumbSize.width, height: thumbSize.height)
      ]
    }
  }

  /// The top-level `meta` box's payload, found by walking the top-level boxes (skipping `mdat` by its size).
  private static func findMeta(_ file: some HeaderBytes) throws(ImagingError) -> ByteView {
    var offset = 0
    for _ in 0..<64 {
      let head = ByteView(try file.bytes(at: offset, length: 16))
      guard let size32 = head.u32(0), let type = head.fourCC(4) else { break }
      var headerSize = 8
      var size = size32
      if size32 == 1 {
        guard let large = head.u64(8) else { break }
        size = large
        headerSize = 16
      } else if size32 == 0 {
        size = file.count - offset
      }
      guard size >= headerSize else { break }
      if type == "meta" {
        guard size <= maximumMetaSize else {
          throw .malformed(reason: "the HEIF meta box is implausibly large")
        }
        let payload = try file.bytes(at: offset + headerSize, length: size - headerSize)
        guard payload.count == size - headerSize else { break }
        return ByteView(payload)
      }
      offset += size
    }
    throw .malformed(reason: "the HEIF meta box is missing or cut short")
  }

  /// The boxes inside `view` from `start` on, each with its payload (the bytes after its header).
  private static func children(_ view: ByteView, from start: Int) -> [(type: String, payload: ByteView)] {
    var result: [(type: String, payload: ByteView)] = []
    var offset = start
    while result.count < 4096, let size32 = view.u32(offset), let type = view.fourCC(offset + 4) {
      var headerSize = 8
      var size = size32
      if size32 == 1 {
        guard let large = view.u64(offset + 8) else { break }
        size = large
        headerSize = 16
      } else if size32 == 0 {
        size = view.count - offset
      }
      guard size >= headerSize, offset + size <= view.count else { break }
      result.append((type, ByteView(view.slice(offset + headerSize, size - headerSize))))
      offset += size
    }
    return result
  }

  /// `ipma` (ISO/IEC 23008-12 §9.3.3): for each item, its property indices (1-based) in order.
  private static func associations(_ ipma: ByteView) -> [Int: [Int]] {
    guard let version = ipma.u8(0), let flags = ipma.u24(1), let count = ipma.u32(4) else { return [:] }
    var result: [Int: [Int]] = [:]
    var at = 8
    for _ in 0..<min(count, 65536) {
      guard let item = version < 1 ? ipma.u16(at) : ipma.u32(at) else { break }
      at += version < 1 ? 2 : 4
      guard let associationCount = ipma.u8(at) else { break }
      at += 1
      var indices: [Int] = []
      for _ in 0..<associationCount {
        if flags & 1 != 0 {
          guard let value = ipma.u16(at) else { break }
          indices.append(value & 0x7FFF)
          at += 2
        } else {
          guard let value = ipma.u8(at) else { break }
          indices.append(value & 0x7F)
          at += 1
        }
      }
      result[item] = indices
    }
    return result
  }

  /// The EXIF orientation equivalent to an item's `irot` and `imir` properties applied in association order
  /// (ISO/IEC 23008-12 §6.5.10–11: `irot` turns anti-clockwise by angle × 90°; `imir` axis 0 mirrors left to
  /// right, axis 1 top to bottom).
  static func orientation(_ transforms: [(type: String, value: Int)]) -> Orientation {
    // Track "turn clockwise by `quarters`, then mirror left-right if `mirrored`", the form of EXIF values.
    var quarters = 0
    var mirrored = false
    for (type, value) in transforms {
      switch type {
      case "irot":
        let clockwise = (4 - (value & 3)) % 4
        quarters += mirrored ? -clockwise : clockwise
      case "imir":
        if value & 1 == 1 { quarters += 2 }
        mirrored.toggle()
      default:
        continue
      }
    }
    let turn = ((quarters % 4) + 4) % 4
    let table: [[Orientation]] = [
      [.up, .right, .down, .left], [.upMirrored, .leftMirrored, .downMirrored, .rightMirrored],
    ]
    return table[mirrored ? 1 : 0][turn]
  }
}
