/// Reads GIF files: the logical screen size and XMP from the "XMP DataXMP" application extension
/// (GIF89a §18, §26; XMP Part 3 §1.1.2).
///
/// Reading stops at the first image descriptor: everything PhotoMetadata reads precedes it in the files
/// writers make, and animated GIFs can be large. The location stripper walks the whole file instead.
enum GIFReader {
  static let xmpApplication: [UInt8] = Array("XMP DataXMP".utf8)
  /// The "magic trailer" after XMP data: 0x01, 0xFF, 0xFE … 0x00, then the block terminator.
  static let xmpTrailerLength = 257

  struct Block {
    /// Absolute range of the XMP text in the file.
    var xmp: Range<Int>?
    var isImage = false
    /// Why an XMP extension could not be delimited; the blocks after it are still read.
    var xmpDamage: String?
  }

  static func read(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> MediaMetadata {
    let header = try input.read(at: 0, count: 13)
    var metadata = MediaMetadata(type: .gif)
    metadata.width = Int(header.u16(at: 6, bigEndian: false))
    metadata.height = Int(header.u16(at: 8, bigEndian: false))
    var cursor = BufferedCursor(input, at: 13)
    if header[10] & 0x80 != 0 { try cursor.skip(3 << (Int(header[10] & 0x07) + 1)) }
    var count = 0
    while true {
      count += 1
      guard count <= limits.maxChunks else { throw .limitExceeded("\(limits.maxChunks) GIF blocks") }
      // The logical screen is read: damage in the blocks after it (a file cut short, a stray byte where a
      // block should start) costs only what those blocks hold, as decoders show the frames before it.
      let next: Block?
      do {
        next = try nextBlock(&cursor, limits: limits)
      } catch {
        if case .io = error { throw error }
        let reason =
          if case .truncated = error { "the file ends inside the block at offset \(cursor.position)" } else {
            "\(error.warningReason), at offset \(cursor.position)"
          }
        metadata.warnings.append(MetadataWarning(part: .remainder, reason: reason))
        break
      }
      guard let block = next else { break }
      if let damage = block.xmpDamage {
        metadata.warnings.append(MetadataWarning(part: .xmp, reason: damage))
      }
      // XMP is optional: a damaged or oversized packet costs only its own facts.
      if let range = block.xmp,
        let bytes = try metadata.tolerating(
          .xmp,
          { () throws(MetadataError) in
            guard range.count <= limits.maxValueBytes else {
              throw .limitExceeded("a \(range.count)-byte XMP")
            }
            return try input.read(at: range.lowerBound, count: range.count)
          })
      {
        let xmp = XMPPacket(bytes: bytes)
        metadata.merge(xmp.facts)
        metadata.orientation = xmp.facts.orientation ?? .up
      }
      if block.isImage { break }
    }
    return metadata
  }

  /// Reads the block at the cursor; nil at the trailer (0x3B).
  static func nextBlock(_ cursor: inout BufferedCursor, limits: MetadataReader.Limits) throws(MetadataError)
    -> Block?
  {
    switch try cursor.u8() {
    case 0x3B:
      return nil
    case 0x2C:
      // Image descriptor (§20): 9 bytes, optional local colour table, LZW minimum code size, sub-blocks.
      let descriptor = try cursor.bytes(9)
      if descriptor[8] & 0x80 != 0 { try cursor.skip(3 << (Int(descriptor[8] & 0x07) + 1)) }
      _ = try cursor.u8()
      try skipSubBlocks(&cursor)
      return Block(isImage: true)
    case 0x21:
      let label = try cursor.u8()
      if label == 0xFF {
        let size = Int(try cursor.u8())
        let identifier = try cursor.bytes(size)
        if size == 11, identifier == xmpApplication {
          // XMP data is written raw: its bytes act as sub-block lengths that all land in the magic trailer.
          let start = cursor.position
          try skipSubBlocks(&cursor)
          let end = cursor.position - 1 - xmpTrailerLength
          guard end >= start else { return Block(xmpDamage: "XMP application extension without its trailer") }
          return Block(xmp: start..<end)
        }
      }
      try skipSubBlocks(&cursor)
      return Block()
    case let byte:
      throw .corrupt("unknown GIF block 0x\(String(byte, radix: 16))")
    }
  }

  static func skipSubBlocks(_ cursor: inout BufferedCursor) throws(MetadataError) {
    while true {
      let length = Int(try cursor.u8())
      if length == 0 { return }
      try cursor.skip(length)
    }
  }
}
