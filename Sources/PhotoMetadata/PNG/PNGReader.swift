/// Reads PNG files: IHDR for the size, iCCP, `eXIf` (PNG 3rd ed. §11.3.6) and XMP in iTXt
/// "XML:com.adobe.xmp" (XMP Part 3 §1.1.5).
enum PNGReader {
  static let xmpKeyword = "XML:com.adobe.xmp"

  static func read(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> MediaMetadata {
    let walk = try PNGChunks.walk(input, limits: limits, toleratingCut: true)
    let chunks = walk.chunks
    var metadata = MediaMetadata(type: .png)
    if let cut = walk.cutAt {
      metadata.warnings.append(
        MetadataWarning(
          part: .remainder,
          reason: "\(walk.cutReason) \(cut), and has no IEND"))
    }
    var exifFacts: ExifFacts?
    var xmpFacts: ExifFacts?
    for chunk in chunks {
      switch chunk.type {
      case "IHDR" where metadata.width == nil:
        // Only the first IHDR is the header (PNG 3rd ed. §5.6: it must appear first, once); a later one is
        // damage that decoders ignore or reject, and it does not change the facts of the first.
        guard chunk.data.count >= 8 else { throw .corrupt("IHDR shorter than 13 bytes") }
        let data = try input.read(at: chunk.data.lowerBound, count: min(10, chunk.data.count))
        metadata.width = Int(data.u32(at: 0, bigEndian: true))
        metadata.height = Int(data.u32(at: 4, bigEndian: true))
        // Colour types 4 and 6 (grey and truecolour with alpha) carry alpha (PNG spec §11.2.2).
        if data.count >= 10, data[9] == 4 || data[9] == 6 { metadata.hasAlpha = true }
      case "tRNS":
        metadata.hasAlpha = true
      case "iCCP":
        metadata.hasICCProfile = true
      case "eXIf" where exifFacts == nil:
        guard
          let facts = try metadata.tolerating(
            .exif,
            { () throws(MetadataError) in
              guard chunk.data.count <= limits.maxValueBytes else {
                throw .limitExceeded("a \(chunk.data.count)-byte eXIf")
              }
              let data = try input.read(at: chunk.data.lowerBound, count: chunk.data.count)
              return try ExifFacts.read(Input(bytes: data), base: 0, limits: limits)
            })
        else { continue }
        exifFacts = facts
        metadata.merge(facts)
      case "iTXt" where xmpFacts == nil:
        let head = try input.read(at: chunk.data.lowerBound, count: min(chunk.data.count, 18))
        guard head.matches(Array(xmpKeyword.utf8) + [0], at: 0) else { continue }
        guard chunk.data.count <= limits.maxValueBytes else {
          throw .limitExceeded("a \(chunk.data.count)-byte XMP")
        }
        let data = try input.read(at: chunk.data.lowerBound, count: chunk.data.count)
        guard let text = PNGChunks.internationalText(data, keyword: xmpKeyword).text else { continue }
        let xmp = XMPPacket(bytes: Array(data[text]))
        metadata.noteGainMap(xmp.gainMapKind)
        xmpFacts = xmp.facts
      default:
        continue
      }
    }
    if let xmpFacts { metadata.merge(xmpFacts) }
    metadata.orientation = exifFacts?.orientation ?? xmpFacts?.orientation ?? .up
    return metadata
  }
}
