/// Reads WebP files: the canvas size from VP8X, or the frame size from VP8 / VP8L, and the ICCP, EXIF and
/// "XMP " chunks (WebP Container Specification; RFC 6386 §9.1 for the VP8 frame header; WebP Lossless
/// Bitstream §2 for VP8L).
enum WebPReader {
  static func read(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> MediaMetadata {
    var metadata = MediaMetadata(type: .webp)
    var canvas: (Int, Int)?
    var frame: (Int, Int)?
    var exifFacts: ExifFacts?
    var xmpFacts: ExifFacts?
    for chunk in try RIFFChunks.read(input, limits: limits) {
      switch chunk.fourCC {
      case "VP8X":
        let data = try read(input, chunk, atLeast: 10)
        var reader = ByteReader(data, at: 4, bigEndian: false)
        canvas = (Int(try reader.u24()) + 1, Int(try reader.u24()) + 1)
        // VP8X flags: bit 4 (0x10) is "alpha" (WebP Container Specification, "Extended file format").
        if data[0] & 0x10 != 0 { metadata.hasAlpha = true }
      case "VP8 " where frame == nil, "VP8L" where frame == nil:
        let data = try read(input, chunk, atLeast: chunk.fourCC == "VP8 " ? 10 : 5)
        if let size = try bitstreamSize(chunk.fourCC, data) { frame = (size.width, size.height) }
      case "ICCP":
        metadata.hasICCProfile = true
      case "EXIF" where exifFacts == nil:
        guard
          let facts = try metadata.tolerating(
            .exif,
            { () throws(MetadataError) in
              let data = try read(input, chunk, atLeast: 8, whole: true, limits: limits)
              // Some writers keep the JPEG APP1 "Exif\0\0" prefix; the container specification does not.
              let base = data.matches(JPEGLayout.exifSignature, at: 0) ? 6 : 0
              return try ExifFacts.read(Input(bytes: data), base: base, limits: limits)
            })
        else { continue }
        exifFacts = facts
        metadata.merge(facts)
      case "XMP " where xmpFacts == nil:
        let xmp = XMPPacket(bytes: try read(input, chunk, atLeast: 0, whole: true, limits: limits))
        metadata.noteGainMap(xmp.gainMapKind)
        xmpFacts = xmp.facts
      default:
        continue
      }
    }
    if let xmpFacts { metadata.merge(xmpFacts) }
    metadata.orientation = exifFacts?.orientation ?? xmpFacts?.orientation ?? .up
    let size = canvas ?? frame
    metadata.width = size?.0
    metadata.height = size?.1
    return metadata
  }

  /// The frame size a VP8 or VP8L bitstream declares, from its first bytes; nil for other chunks.
  static func bitstreamSize(_ fourCC: String, _ data: [UInt8]) throws(MetadataError) -> PixelSize? {
    switch fourCC {
    case "VP8 ":
      guard data.count >= 10 else { throw .corrupt("chunk 'VP8 ' is too short") }
      guard data.matches([0x9D, 0x01, 0x2A], at: 3) else {
        throw .corrupt("VP8 key frame start code missing")
      }
      return PixelSize(
        width: Int(data.u16(at: 6, bigEndian: false) & 0x3FFF),
        height: Int(data.u16(at: 8, bigEndian: false) & 0x3FFF))
    case "VP8L":
      guard data.count >= 5 else { throw .corrupt("chunk 'VP8L' is too short") }
      guard data[0] == 0x2F else { throw .corrupt("VP8L signature missing") }
      let bits = data.u32(at: 1, bigEndian: false)
      return PixelSize(width: Int(bits & 0x3FFF) + 1, height: Int(bits >> 14 & 0x3FFF) + 1)
    default:
      return nil
    }
  }

  private static func read(
    _ input: Input, _ chunk: RIFFChunk, atLeast minimum: Int, whole: Bool = false,
    limits: MetadataReader.Limits = .default
  ) throws(MetadataError) -> [UInt8] {
    guard chunk.data.count >= minimum else { throw .corrupt("chunk '\(chunk.fourCC)' is too short") }
    if whole {
      guard chunk.data.count <= limits.maxValueBytes else {
        throw .limitExceeded("a \(chunk.data.count)-byte '\(chunk.fourCC)' chunk")
      }
      return try input.read(at: chunk.data.lowerBound, count: chunk.data.count)
    }
    return try input.read(at: chunk.data.lowerBound, count: minimum)
  }
}
