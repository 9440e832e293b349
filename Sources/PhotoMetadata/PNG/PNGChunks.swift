/// One PNG chunk (PNG Specification, 3rd ed., §5.3): length, type, data, CRC.
struct PNGChunk {
  let type: String
  /// Absolute position of the 4-byte length.
  let position: Int
  /// Absolute range of the data.
  let data: Range<Int>

  /// The whole chunk, length to CRC.
  var range: Range<Int> { position..<(data.upperBound + 4) }
}

enum PNGChunks {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// The chunk headers from IHDR to IEND; chunk data is not read.
  ///
  /// - Throws: `.corrupt` when IHDR is not first or a length exceeds 2^31−1 (§5.3), `.truncated` when a
  ///   chunk runs past the end or IEND is missing, `.limitExceeded` past `maxChunks`.
  static func read(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> [PNGChunk] {
    try walk(input, limits: limits, toleratingCut: false).chunks
  }

  /// The chunks of a file that may be cut short, and where it was cut.
  struct Walk {
    var chunks: [PNGChunk] = []
    /// Where the chunk the file ends in (or the missing one after the last whole chunk) starts; nil when the
    /// walk reached IEND.
    var cutAt: Int?
    /// Why the walk stopped at ``cutAt``: the file ends there, or a chunk there declares a length no PNG
    /// can have (§5.3), after which no chunk boundary can be trusted.
    var cutReason = "the file ends inside or before the chunk at offset"
  }

  /// The chunk headers, as ``read(_:limits:)``; with `toleratingCut`, a file that ends after a whole IHDR but
  /// before IEND, or whose chunk lengths stop making sense after it, gives the chunks before the cut and its
  /// position instead of ``MetadataError/truncated`` or ``MetadataError/corrupt(_:)``.
  /// Readers pass true: the header's facts are all there (exiftool and libpng read them too, and libpng
  /// decodes the rows the data holds). The stripper passes false, as it must copy a whole file.
  static func walk(_ input: Input, limits: MetadataReader.Limits, toleratingCut: Bool) throws(MetadataError)
    -> Walk
  {
    guard try input.read(at: 0, count: 8) == signature else { throw .corrupt("no PNG signature") }
    var walk = Walk()
    var position = 8
    while true {
      guard walk.chunks.count < limits.maxChunks else {
        throw .limitExceeded("\(limits.maxChunks) PNG chunks")
      }
      let cut = toleratingCut && !walk.chunks.isEmpty
      guard position + 8 <= input.size else {
        guard cut else { throw .truncated }
        walk.cutAt = position
        return walk
      }
      let header = try input.read(at: position, count: 8)
      let length = Int(header.u32(at: 0, bigEndian: true))
      let type = String(decoding: header[4..<8], as: UTF8.self)
      guard length <= 0x7FFF_FFFF else {
        guard cut else { throw .corrupt("chunk '\(type)' length \(length) exceeds 2^31-1") }
        walk.cutAt = position
        walk.cutReason = "a chunk declares a length over 2^31-1 (\(length)) at offset"
        return walk
      }
      let dataStart = position + 8
      guard dataStart + length + 4 <= input.size else {
        guard cut else { throw .truncated }
        walk.cutAt = position
        return walk
      }
      if walk.chunks.isEmpty, type != "IHDR" { throw .corrupt("first chunk is '\(type)', not IHDR") }
      let chunk = PNGChunk(type: type, position: position, data: dataStart..<(dataStart + length))
      walk.chunks.append(chunk)
      if type == "IEND" { return walk }
      position = chunk.range.upperBound
    }
  }

  /// The uncompressed text of an iTXt chunk whose keyword is `keyword` (§11.3.3.4), or nil.
  /// `compressed` is set when the keyword matches but the text is zlib-compressed.
  static func internationalText(_ data: [UInt8], keyword: String) -> (text: Range<Int>?, compressed: Bool) {
    let key = Array(keyword.utf8) + [0]
    guard data.matches(key, at: 0), data.count >= key.count + 2 else { return (nil, false) }
    if data[key.count] != 0 { return (nil, true) }
    var at = key.count + 2
    // Language tag and translated keyword, each NUL-terminated.
    for _ in 0..<2 {
      guard let nul = data[at...].firstIndex(of: 0) else { return (nil, false) }
      at = nul + 1
    }
    return (at..<data.count, false)
  }
}
