import PhotoMetadata

/// Reads a JPEG's frame size, EXIF (orientation, IFD1 thumbnail) and MPF previews by walking its marker
/// segments (ITU T.81 Annex B) up to the first scan. Only segment headers and the APP1/APP2 segments that
/// matter are read.
enum JPEGHeaders {
  /// The frame header (SOFn): size and number of components.
  struct Frame: Equatable {
    var width: Int
    var height: Int
    var components: Int
  }

  /// Markers read before giving up on a file that never reaches its frame header.
  static let maximumSegments = 4096

  static func read(_ file: some HeaderBytes, into metadata: inout MediaMetadata) throws(ImagingError) {
    var frame: Frame?
    var exifThumbnail: EmbeddedPreview?
    var mpfPreviews: [EmbeddedPreview] = []
    try walk(file, from: 0) { marker, payloadStart, payloadLength throws(ImagingError) in
      switch marker {
      case 0xE1 where payloadLength > 6 && frame == nil:
        let payload = try file.bytes(at: payloadStart, length: payloadLength)
        guard payload.starts(with: Array("Exif\0\0".utf8)) else { return true }
        let tiff = Array(payload.dropFirst(6))
        let exif = ExifReader.read(tiff)
        metadata.orientation = exif.orientation ?? metadata.orientation
        metadata.make = metadata.make ?? exif.make
        metadata.model = metadata.model ?? exif.model
        metadata.captureDate = metadata.captureDate ?? exif.captureDate
        if let range = exif.thumbnail, let thumb = try? self.frame(of: MemoryBytes(storage: tiff[range])) {
          exifThumbnail = EmbeddedPreview(
            kind: .exifThumbnail, type: .jpeg, width: thumb.width, height: thumb.height,
            offset: payloadStart + 6 + range.lowerBound, length: range.count)
        }
      case 0xE2 where payloadLength > 8 && frame == nil:
        let payload = try file.bytes(at: payloadStart, length: payloadLength)
        guard payload.starts(with: Array("MPF\0".utf8)) else { return true }
        mpfPreviews = try self.mpfPreviews(Array(payload.dropFirst(4)), base: payloadStart + 4, in: file)
      case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
        frame = try self.frame(header: file.bytes(at: payloadStart, length: 6))
        return true
      case 0xDA:
        return false
      default:
        break
      }
      return true
    }
    guard let frame else { throw .malformed(reason: "no JPEG frame header before the image data") }
    metadata.width = frame.width
    metadata.height = frame.height
    metadata.previews = mpfPreviews + (exifThumbnail.map { [$0] } ?? [])
  }

  /// The frame size of the JPEG starting at offset 0 of `bytes`.
  static func frame(of bytes: some HeaderBytes, at start: Int = 0) throws(ImagingError) -> Frame {
    var found: Frame?
    try walk(bytes, from: start) { marker, payloadStart, _ throws(ImagingError) in
      switch marker {
      case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
        found = try self.frame(header: bytes.bytes(at: payloadStart, length: 6))
        return false
      case 0xDA: return false
      default: return true
      }
    }
    guard let found else { throw .malformed(reason: "no JPEG frame header before the image data") }
    return found
  }

  /// Calls `visit(marker, payloadStart, payloadLength)` for each segment from SOI at `start` until it
  /// returns false, the end of the image, or the end of the data.
  private static func walk(
    _ bytes: some HeaderBytes, from start: Int,
    _ visit: (Int, Int, Int) throws(ImagingError) -> Bool
  ) throws(ImagingError) {
    guard try bytes.bytes(at: start, length: 2) == [0xFF, 0xD8] else {
      throw .malformed(reason: "the JPEG start-of-image marker is missing")
    }
    var offset = start + 2
    for _ in 0..<maximumSegments {
      let head = try bytes.bytes(at: offset, length: 4)
      guard head.count >= 2, head[0] == 0xFF else {
        throw .malformed(reason: "a JPEG marker is missing where one must be")
      }
      let marker = Int(head[1])
      switch marker {
      case 0xFF:  // fill byte (T.81 B.1.1.2)
        offset += 1
        continue
      case 0x01, 0xD0...0xD8:  // TEM, RSTn, SOI: no length
        offset += 2
        continue
      case 0xD9:
        return
      default:
        break
      }
      guard head.count == 4 else { throw .malformed(reason: "a JPEG segment is cut short") }
      let length = Int(head[2]) << 8 | Int(head[3])
      guard length >= 2 else { throw .malformed(reason: "a JPEG segment has an impossible length") }
      guard try visit(marker, offset + 4, length - 2) else { return }
      offset += 2 + length
    }
    throw .malformed(reason: "too many JPEG segments before the image data")
  }

  /// SOFn: P (8), Y (16), X (16), Nf (8) (T.81 B.2.2).
  private static func frame(header: [UInt8]) throws(ImagingError) -> Frame {
    let view = ByteView(header)
    guard let height = view.u16(1), let width = view.u16(3), let components = view.u8(5) else {
      throw .malformed(reason: "the JPEG frame header is cut short")
    }
    // Y = 0 defers the height to a DNL marker after the first scan, which no camera writes; refusing it keeps
    // the bomb guard's arithmetic honest.
    guard width > 0, height > 0, components > 0 else {
      throw .malformed(reason: "the JPEG frame header declares a size of \(width)×\(height)")
    }
    return Frame(width: width, height: height, components: components)
  }

  /// The large thumbnails listed in an MPF index (CIPA DC-007-2021 §5.2.3): MP Entry type codes 0x010001
  /// (VGA) and 0x010002 (Full HD). Other entries (disparity, panorama frames, gain maps with type 0) are not
  /// pictures of the whole scene and must never be shown in its place.
  private static func mpfPreviews(_ tiff: [UInt8], base: Int, in file: some HeaderBytes) throws(ImagingError)
    -> [EmbeddedPreview]
  {
    guard tiff.count >= 8, tiff[0] == tiff[1], tiff[0] == 0x49 || tiff[0] == 0x4D else { return [] }
    let view = ByteView(tiff, littleEndian: tiff[0] == 0x49)
    guard view.u16(2) == 42, let ifd = view.u32(4) else { return [] }
    guard let entry = ExifReader.entries(view, at: ifd).first(where: { $0.tag == 0xB002 }) else { return [] }
    var previews: [EmbeddedPreview] = []
    for index in 0..<min(entry.count / 16, 64) {
      let at = entry.valueOffset + index * 16
      guard let attribute = view.u32(at), let size = view.u32(at + 4), let offset = view.u32(at + 8) else {
        break
      }
      let typeCode = attribute & 0x00FF_FFFF
      guard typeCode == 0x01_0001 || typeCode == 0x01_0002, offset > 0, size > 0,
        base + offset + size <= file.count
      else { continue }
      // Offsets are relative to the MPF TIFF header (CIPA DC-007 §5.2.3.3.3).
      guard let frame = try? self.frame(of: file, at: base + offset) else { continue }
      previews.append(
        EmbeddedPreview(
          kind: .mpfImage, type: .jpeg, width: frame.width, height: frame.height, offset: base + offset,
          length: size))
    }
    return previews
  }
}
