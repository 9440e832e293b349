/// Reads Konica Minolta MRW raws: a list of blocks of Minolta's own, big-endian, before the sensor data.
///
/// The layout, as exiftool (`MinoltaRaw.pm`) and libraw read it: `\0MRM` and the length of the block list, then
/// blocks of a 4-byte name and a 32-bit length. `\0PRD` (picture dimensions) holds the sensor's height and
/// width at bytes 8 and 10 and the image's at 12 and 14 (exiftool's ImageSize); `\0TTW` a whole TIFF structure
/// (IFD0 and the Exif IFD) whose offsets count from the block's start. A damaged `\0TTW` costs only the EXIF.
enum MRWReader {
  static func read(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> MediaMetadata {
    let header = try input.read(at: 0, count: 8)
    let (listEnd, overflow) = Int(header.u32(at: 4, bigEndian: true)).addingReportingOverflow(8)
    let end = overflow ? input.size : min(input.size, listEnd)
    var metadata = MediaMetadata(type: .mrw)
    var at = 8
    var blocks = 0
    while at <= end - 8, blocks < limits.maxChunks {
      blocks += 1
      let block = try input.read(at: at, count: 8)
      let length = Int(block.u32(at: 4, bigEndian: true))
      let data = at + 8
      switch Array(block[0..<4]) {
      case [0, 0x50, 0x52, 0x44]:  // "\0PRD"
        let prd = try input.read(at: data, count: 16)
        let (height, width) = (Int(prd.u16(at: 12, bigEndian: true)), Int(prd.u16(at: 14, bigEndian: true)))
        if width > 0, height > 0 { (metadata.width, metadata.height) = (width, height) }
      case [0, 0x54, 0x54, 0x57]:  // "\0TTW"
        let facts = try metadata.tolerating(.exif) { () throws(MetadataError) in
          try ExifFacts.read(input, base: data, limits: limits)
        }
        if let facts {
          metadata.merge(facts)
          metadata.orientation = facts.orientation ?? .up
        }
      default: break
      }
      guard length <= end - data else { break }
      at = data + length
    }
    guard metadata.width != nil, metadata.height != nil else {
      throw .corrupt("the MRW header states no image size")
    }
    return metadata
  }
}
