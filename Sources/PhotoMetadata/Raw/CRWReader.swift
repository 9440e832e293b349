/// Reads Canon CRW raws: the Camera Image File Format (CIFF 1.0 revision 4), a tree of heaps of records.
///
/// The header: the byte order (`II` or `MM`), the header's length, `HEAPCCDR`; the root heap runs from the
/// header's end to the end of the file. A heap's last 4 bytes give the offset of its table: a 16-bit count,
/// then records of a 16-bit tag, a 32-bit size and a 32-bit offset into the heap. Tag bits 14–15 say where
/// the value is (`0x4000`: in the record's 8 bytes of size and offset), bits 11–13 its kind (`0x2800` and
/// `0x3000`: a heap of its own). The records read, as exiftool (`CanonRaw.pm`) and libraw read them:
/// - `0x1810` ImageInfo: width, height, pixel aspect, rotation in degrees (exiftool's ImageSize);
/// - `0x080A` the make and model, two strings;
/// - `0x180E` TimeStamp: seconds on the camera's clock;
/// - `0x2007` JpgFromRaw, the camera's JPEG, shown as the raw's preview.
enum CRWReader {
  static func read(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> MediaMetadata {
    let header = try input.read(at: 0, count: 14)
    let bigEndian = header[0] == 0x4D
    let start = Int(header.u32(at: 2, bigEndian: bigEndian))
    guard start >= 14, start < input.size else { throw .corrupt("the CIFF header's length is wrong") }
    var walk = Walk(input: input, bigEndian: bigEndian, limits: limits)
    try walk.heap(start..<input.size, depth: 0)
    var metadata = MediaMetadata(type: .crw)
    guard let size = walk.size else { throw walk.damage ?? .corrupt("the CIFF heap states no image size") }
    if let damage = walk.damage {
      metadata.warnings.append(MetadataWarning(part: .makerNote, reason: damage.warningReason))
    }
    (metadata.width, metadata.height) = (size.width, size.height)
    // libraw's flip for CIFF: a camera turned 90° clockwise is shown turned back (EXIF orientation 6).
    metadata.orientation =
      switch (walk.rotation % 360 + 360) % 360 {
      case 90: .right
      case 180: .down
      case 270: .left
      default: .up
      }
    metadata.make = walk.make
    metadata.model = walk.model
    metadata.captureDate = walk.seconds.flatMap(DateParsing.cameraClock)
    if let jpeg = walk.jpeg,
      let preview = RawPreviews.jpeg(at: jpeg.lowerBound, length: jpeg.count, input, limits)
    {
      metadata.previews.append(preview)
    }
    return metadata
  }

  private struct Walk {
    let input: Input
    let bigEndian: Bool
    let limits: MetadataReader.Limits
    var records = 0
    var size: PixelSize?
    var rotation = 0
    var make: String?
    var model: String?
    var seconds: Int?
    var jpeg: Range<Int>?
    /// The first damage found in a nested heap.
    var damage: MetadataError?

    mutating func heap(_ range: Range<Int>, depth: Int) throws(MetadataError) {
      guard depth < 8 else { throw .limitExceeded("CIFF heaps nested more than 8 deep") }
      guard range.count >= 6 else { throw .truncated }
      let tableAt =
        range.lowerBound
        + Int(try input.read(at: range.upperBound - 4, count: 4).u32(at: 0, bigEndian: bigEndian))
      guard tableAt < range.upperBound - 6 else { throw .corrupt("a CIFF heap's table lies outside it") }
      let count = Int(try input.read(at: tableAt, count: 2).u16(at: 0, bigEndian: bigEndian))
      guard count <= (range.upperBound - tableAt - 2) / 10 else {
        throw .corrupt("a CIFF table overruns its heap")
      }
      records += count
      guard records <= limits.maxSegments else { throw .limitExceeded("\(limits.maxSegments) CIFF records") }
      let table = try input.read(at: tableAt + 2, count: count * 10)
      for index in 0..<count {
        let at = index * 10
        let tag = table.u16(at: at, bigEndian: bigEndian)
        let id = tag & 0x3FFF
        if tag & 0xC000 == 0x4000 {
          record(id, Array(table[(at + 2)..<(at + 10)]))
          continue
        }
        let length = Int(table.u32(at: at + 2, bigEndian: bigEndian))
        let offset = Int(table.u32(at: at + 6, bigEndian: bigEndian))
        guard offset <= range.count, length <= range.count - offset else { continue }
        let value = (range.lowerBound + offset)..<(range.lowerBound + offset + length)
        if [0x2800, 0x3000].contains(tag & 0x3800) {
          // A damaged heap costs only its own records; without ImageInfo the read fails below.
          do {
            try heap(value, depth: depth + 1)
          } catch {
            if case .io = error { throw error }
            damage = damage ?? error
          }
        } else if id == 0x2007 {
          jpeg = value
        } else if [0x1810, 0x080A, 0x180E].contains(id), length <= 256 {
          record(id, try input.read(at: value.lowerBound, count: length))
        }
      }
    }

    private mutating func record(_ id: UInt16, _ bytes: [UInt8]) {
      switch id {
      case 0x1810 where bytes.count >= 16:
        let width = Int(bytes.u32(at: 0, bigEndian: bigEndian))
        let height = Int(bytes.u32(at: 4, bigEndian: bigEndian))
        if width > 0, height > 0 { size = PixelSize(width: width, height: height) }
        rotation = Int(Int32(bitPattern: bytes.u32(at: 12, bigEndian: bigEndian)))
      case 0x080A:
        let strings = bytes.split(separator: 0, omittingEmptySubsequences: false)
          .map { String(decoding: $0, as: UTF8.self) }
        make = strings.first.flatMap { $0.isEmpty ? nil : $0 }
        model = strings.dropFirst().first.flatMap { $0.isEmpty ? nil : $0 }
      case 0x180E where bytes.count >= 4:
        seconds = Int(bytes.u32(at: 0, bigEndian: bigEndian))
      default: break
      }
    }
  }
}
