/// One chunk of a RIFF file (WebP Container Specification, "RIFF file format").
struct RIFFChunk {
  let fourCC: String
  /// Absolute position of the 8-byte chunk header.
  let position: Int
  /// Absolute range of the payload (without the pad byte).
  let data: Range<Int>
}

enum RIFFChunks {
  /// The top-level chunks of a RIFF "WEBP" file; payloads are not read.
  ///
  /// - Throws: `.truncated` when the RIFF size or a chunk runs past the end, `.limitExceeded` past `maxChunks`.
  static func read(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> [RIFFChunk] {
    let header = try input.read(at: 0, count: 12)
    guard header.matches(Array("RIFF".utf8), at: 0), header.matches(Array("WEBP".utf8), at: 8) else {
      throw .corrupt("no RIFF WEBP header")
    }
    let riffEnd = 8 + Int(header.u32(at: 4, bigEndian: false))
    guard riffEnd <= input.size else { throw .truncated }
    var chunks: [RIFFChunk] = []
    var position = 12
    while position + 8 <= riffEnd {
      guard chunks.count < limits.maxChunks else { throw .limitExceeded("\(limits.maxChunks) RIFF chunks") }
      let head = try input.read(at: position, count: 8)
      let size = Int(head.u32(at: 4, bigEndian: false))
      let start = position + 8
      guard size <= riffEnd - start else { throw .truncated }
      chunks.append(
        RIFFChunk(
          fourCC: String(decoding: head[0..<4], as: UTF8.self), position: position,
          data: start..<(start + size)))
      // Payloads of odd size are followed by one pad byte.
      position = start + size + (size & 1)
    }
    return chunks
  }
}
