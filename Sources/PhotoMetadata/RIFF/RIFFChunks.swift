/// One chunk of a RIFF file (WebP Container Specification, "RIFF file format").
struct RIFFChunk {
  let fourCC: String
  /// Absolute position of the 8-byte chunk header.
  let position: Int
  /// Absolute range of the payload (without the pad byte).
  let data: Range<Int>
}

enum RIFFChunks {
  /// Bytes read at once when chunks follow one another closely (an animation of 100,000 tiny frames is
  /// 200,000 reads of a few bytes otherwise; measured 4–5 s of a debug build's refusal).
  static let windowSize = 64 << 10

  /// The top-level chunks of a RIFF "WEBP" file; payloads are not read.
  ///
  /// - Parameter heads: when given, receives the first `headLength` bytes of each chunk's payload (fewer for a
  ///   shorter chunk), read through the same window as the chunk headers.
  /// - Throws: `.truncated` when the RIFF size or a chunk runs past the end, `.limitExceeded` past `maxChunks`.
  static func read(
    _ input: Input, limits: MetadataReader.Limits, headLength: Int = 0,
    heads: ((RIFFChunk, [UInt8]) throws(MetadataError) -> Void)? = nil
  ) throws(MetadataError) -> [RIFFChunk] {
    let header = try input.read(at: 0, count: 12)
    guard header.matches(Array("RIFF".utf8), at: 0), header.matches(Array("WEBP".utf8), at: 8) else {
      throw .corrupt("no RIFF WEBP header")
    }
    let riffEnd = 8 + Int(header.u32(at: 4, bigEndian: false))
    guard riffEnd <= input.size else { throw .truncated }
    var window: [UInt8] = []
    var windowStart = 0
    // `count` bytes at `at` (all inside the RIFF), from the window when it holds them. A new window is read
    // only where chunks are small, so that a file of large chunks costs a few bytes per chunk, not a window.
    func bytes(at: Int, count: Int, previous: Int) throws(MetadataError) -> [UInt8] {
      if at >= windowStart, at + count <= windowStart + window.count {
        return Array(window[(at - windowStart)..<(at - windowStart + count)])
      }
      if at - previous < 4096 {
        window = try input.read(at: at, count: min(windowSize, riffEnd - at))
        windowStart = at
        return Array(window[0..<count])
      }
      return try input.read(at: at, count: count)
    }
    var chunks: [RIFFChunk] = []
    var position = 12
    var previous = 0
    while position + 8 <= riffEnd {
      guard chunks.count < limits.maxChunks else { throw .limitExceeded("\(limits.maxChunks) RIFF chunks") }
      let head = try bytes(at: position, count: 8, previous: previous)
      let size = Int(head.u32(at: 4, bigEndian: false))
      let start = position + 8
      guard size <= riffEnd - start else { throw .truncated }
      let chunk = RIFFChunk(
        fourCC: String(decoding: head.prefix(4), as: UTF8.self), position: position,
        data: start..<(start + size))
      chunks.append(chunk)
      if let heads {
        try heads(chunk, try bytes(at: start, count: min(headLength, size), previous: position))
      }
      previous = position
      // Payloads of odd size are followed by one pad byte.
      position = start + size + (size & 1)
    }
    return chunks
  }
}
