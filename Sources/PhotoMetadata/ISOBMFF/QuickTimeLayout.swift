/// The atoms of a QuickTime or MPEG-4 movie that hold its facts (QuickTime File Format, "Movie atoms" and
/// "Metadata"; ISO/IEC 14496-12 §8.2–8.4). Sample tables and media data are never visited.
struct QuickTimeLayout {
  /// A `keys`/`ilst` metadata item (QTFF "Metadata item list atom").
  struct MetadataItem {
    var key: String
    /// Absolute range of the key's name in the `keys` atom.
    var keyRange: Range<Int>
    /// The `ilst` item atom holding the value, and the value's absolute range inside its `data` atom.
    var item: Box
    var value: Range<Int>
    /// The `data` atom's well-known type (1: UTF-8).
    var dataType: UInt32
  }

  var timescale: Int?
  var duration: UInt64?
  var creationTime: UInt64?
  /// The first video track's `tkhd` size (16.16 fixed point, rounded) and matrix.
  var videoSize: (Int, Int)?
  var videoTransform: ImageTransform?
  /// The handler of the track ``videoSize`` came from: `vide` for movies, `pict` for HEIF image sequences
  /// (ISO/IEC 23008-12 §7.2).
  var videoHandler: String?
  /// That track's sample count (`stsz`/`stz2`, ISO/IEC 14496-12 §8.7.3): its frames.
  var videoFrameCount: Int?
  /// That track's first sample entry type (`hvc1`, `av01`, …).
  var videoCodec: String?
  /// The size of that track's coded pictures, from its codec configuration (``VideoParameterSets``); nil
  /// for codecs read nowhere here.
  var codedSize: PixelSize?
  /// Children of every `udta` atom in the movie and its tracks.
  var userData: [Box] = []
  var metadataItems: [MetadataItem] = []
  /// Canon CR3 `CMT1`…`CMT4` boxes: TIFF structures for IFD0, Exif, maker notes and GPS.
  var canon: [String: Box] = [:]

  static let canonUUID: [UInt8] = [
    0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
  ]

  /// Why the top-level walk stopped early, when it was read with `toleratingCut` (a movie cut inside its
  /// media data after a whole `moov`), and the last atom it kept.
  var cut: (damage: MetadataError, last: Box)?

  /// Reads the movie's atoms.
  ///
  /// - Parameter toleratingCut: when true, a file that ends inside a top-level atom, or whose top-level atoms
  ///   stop making sense, after a whole `moov`, is read from that `moov` and the damage kept in ``cut``.
  ///   Readers pass true; the location stripper passes false, as it must copy a whole file.
  init(_ input: Input, limits: MetadataReader.Limits, toleratingCut: Bool = false) throws(MetadataError) {
    var budget = BoxBudget(limits)
    let top: [Box]
    if toleratingCut {
      let walk = try Boxes.childrenTolerating(
        of: 0..<input.size, in: input, isFile: true, depth: 1, budget: &budget)
      top = walk.boxes
      if let damage = walk.damage, let last = top.last {
        // A `moov` that is itself cut is no layout to read.
        if case .truncated = damage, last.type == "moov" { throw damage }
        cut = (damage, last)
      }
      guard top.contains(where: { $0.type == "moov" }) else {
        throw walk.damage ?? .corrupt("no 'moov' atom")
      }
    } else {
      top = try Boxes.children(of: 0..<input.size, in: input, isFile: true, depth: 1, budget: &budget)
    }
    guard let moov = top.first(where: { $0.type == "moov" }) else { throw .corrupt("no 'moov' atom") }
    for child in try Boxes.children(of: moov.payload, in: input, isFile: false, depth: 2, budget: &budget) {
      switch child.type {
      case "mvhd": try readMovieHeader(child, input)
      case "trak": try readTrack(child, input, &budget)
      case "udta": try readUserData(child, input, &budget, depth: 3)
      case "meta": try readMetadata(child, input, &budget)
      case "uuid":
        let uuid = try input.read(at: child.position + child.headerSize - 16, count: 16)
        guard uuid == Self.canonUUID else { continue }
        for box in try Boxes.children(of: child.payload, in: input, isFile: false, depth: 3, budget: &budget)
        where box.type.hasPrefix("CMT") {
          canon[box.type] = box
        }
      default: continue
      }
    }
  }

  /// A `udta` list; a `meta` inside it (where ffmpeg puts `keys`/`ilst`) is read like one in `moov`.
  private mutating func readUserData(_ box: Box, _ input: Input, _ budget: inout BoxBudget, depth: Int)
    throws(MetadataError)
  {
    let children = try Boxes.children(
      of: box.payload, in: input, isFile: false, depth: depth, budget: &budget)
    userData += children
    for child in children where child.type == "meta" { try readMetadata(child, input, &budget) }
  }

  /// `mvhd` (ISO/IEC 14496-12 §8.2.2): creation time, timescale and duration; version 1 has 64-bit times.
  private mutating func readMovieHeader(_ box: Box, _ input: Input) throws(MetadataError) {
    var (version, reader) = try Boxes.fullBox(box, in: input, limit: 4096)
    if version == 1 {
      creationTime = try reader.u64()
      _ = try reader.u64()
      timescale = Int(try reader.u32())
      duration = try reader.u64()
    } else {
      creationTime = UInt64(try reader.u32())
      _ = try reader.u32()
      timescale = Int(try reader.u32())
      duration = UInt64(try reader.u32())
    }
  }

  private mutating func readTrack(_ box: Box, _ input: Input, _ budget: inout BoxBudget) throws(MetadataError)
  {
    var header: (Int, Int, ImageTransform?)?
    var handler: String?
    var samples: SampleFacts?
    for child in try Boxes.children(of: box.payload, in: input, isFile: false, depth: 3, budget: &budget) {
      switch child.type {
      case "tkhd": header = try Self.trackHeader(child, input)
      case "mdia":
        for media in try Boxes.children(
          of: child.payload, in: input, isFile: false, depth: 4, budget: &budget)
        {
          if media.type == "hdlr" {
            // HandlerBox: version/flags, pre_defined, handler_type (§8.4.3).
            var (_, reader) = try Boxes.fullBox(media, in: input, limit: 4096)
            _ = try reader.u32()
            handler = try reader.fourCC()
          } else if media.type == "minf" {
            samples = try Self.sampleFacts(media, input, &budget)
          }
        }
      case "udta": try readUserData(child, input, &budget, depth: 4)
      case "meta": try readMetadata(child, input, &budget)
      default: continue
      }
    }
    let isVideo = handler == "vide" || handler == "pict"
    if isVideo, videoSize == nil, let header {
      // A track header may leave the size 0 (§8.3.2.3: "for non-visual tracks"); the sample entry has it.
      let entrySize = samples?.width.flatMap { w in samples?.height.map { (w, $0) } }
      videoSize = header.0 > 0 && header.1 > 0 ? (header.0, header.1) : entrySize
      videoTransform = header.2
      videoHandler = handler
      videoFrameCount = samples?.count
      videoCodec = samples?.codec
      codedSize = samples?.codedSize
    }
  }

  /// What a track's sample table says about its pictures, without reading the samples.
  struct SampleFacts {
    var codec: String?
    var width: Int?
    var height: Int?
    var count: Int?
    /// From the entry's `avcC` or `hvcC`.
    var codedSize: PixelSize?
  }

  /// `minf/stbl`: the first `stsd` entry's type and size (VisualSampleEntry, §12.1.3), the `stsz`/`stz2`
  /// sample count.
  private static func sampleFacts(_ minf: Box, _ input: Input, _ budget: inout BoxBudget)
    throws(MetadataError)
    -> SampleFacts
  {
    var facts = SampleFacts()
    let children = try Boxes.children(of: minf.payload, in: input, isFile: false, depth: 5, budget: &budget)
    guard let stbl = children.first(where: { $0.type == "stbl" }) else { return facts }
    for table in try Boxes.children(of: stbl.payload, in: input, isFile: false, depth: 6, budget: &budget) {
      switch table.type {
      case "stsd" where table.payload.count >= 8:
        let entries = try Boxes.children(
          of: (table.payload.lowerBound + 8)..<table.end, in: input, isFile: false, depth: 7, budget: &budget)
        guard let entry = entries.first else { continue }
        facts.codec = entry.type
        // SampleEntry (6 reserved, data_reference_index), pre_defined/reserved (16), width, height.
        if entry.payload.count >= 28 {
          let head = try input.read(at: entry.payload.lowerBound, count: 28)
          facts.width = Int(head.u16(at: 24, bigEndian: true))
          facts.height = Int(head.u16(at: 26, bigEndian: true))
        }
        // The VisualSampleEntry's fields take 78 bytes; its boxes follow, the codec configuration among
        // them (ISO/IEC 14496-15 §5.4.2.1, §8.4.1.1). Damage there costs only the coded size.
        if entry.payload.count > 78,
          let boxes = try? Boxes.children(
            of: (entry.payload.lowerBound + 78)..<entry.end, in: input, isFile: false, depth: 8,
            budget: &budget),
          let configuration = boxes.first(where: { $0.type == "avcC" || $0.type == "hvcC" }),
          configuration.payload.count <= 64 << 10
        {
          let bytes = try input.read(at: configuration.payload.lowerBound, count: configuration.payload.count)
          facts.codedSize = VideoParameterSets.codedSize(configuration: configuration.type, bytes)
        }
      case "stsz" where table.payload.count >= 12, "stz2" where table.payload.count >= 12:
        // Version/flags, then stsz: sample_size, sample_count; stz2: reserved (24 bits), field_size,
        // sample_count. Only these 12 bytes are read, never the table of sizes after them.
        let head = try input.read(at: table.payload.lowerBound, count: 12)
        facts.count = Int(head.u32(at: 8, bigEndian: true))
      default: continue
      }
    }
    return facts
  }

  /// `tkhd` (§8.3.2): the matrix and the 16.16 width and height.
  private static func trackHeader(_ box: Box, _ input: Input) throws(MetadataError) -> (
    Int, Int, ImageTransform?
  ) {
    var (version, reader) = try Boxes.fullBox(box, in: input, limit: 4096)
    try reader.skip(version == 1 ? 32 : 20)
    try reader.skip(16)
    var matrix: [Int32] = []
    for _ in 0..<9 { matrix.append(Int32(bitPattern: try reader.u32())) }
    // 16.16 fixed point, rounded; computed in Int so that 0xFFFFFFFF cannot overflow.
    let width = (Int(try reader.u32()) + 0x8000) >> 16
    let height = (Int(try reader.u32()) + 0x8000) >> 16
    return (width, height, ImageTransform(matrix: matrix[0], matrix[1], matrix[3], matrix[4]))
  }

  /// A `meta` atom with `keys` and `ilst` (QTFF "Metadata"). QuickTime writes it as a plain atom, MPEG-4 as
  /// a full box; which one is told by whether `hdlr` follows at once.
  private mutating func readMetadata(_ box: Box, _ input: Input, _ budget: inout BoxBudget)
    throws(MetadataError)
  {
    guard box.payload.count >= 8 else { return }
    let peek = try input.read(at: box.payload.lowerBound + 4, count: 4)
    let start = box.payload.lowerBound + (peek == Array("hdlr".utf8) ? 0 : 4)
    let children = try Boxes.children(
      of: start..<box.end, in: input, isFile: false, depth: 4, budget: &budget)
    var keys: [Int: (String, Range<Int>)] = [:]
    if let keysBox = children.first(where: { $0.type == "keys" }) {
      var (_, reader) = try Boxes.fullBox(keysBox, in: input, limit: budget.limits.maxValueBytes)
      let count = Int(try reader.u32())
      guard count <= budget.limits.maxItems else { throw .limitExceeded("\(count) metadata keys") }
      for index in 1...max(1, count) where count > 0 {
        let size = Int(try reader.u32())
        guard size >= 8 else { throw .corrupt("metadata key \(index) has size \(size)") }
        _ = try reader.fourCC()
        let nameStart = reader.position
        let name = String(decoding: try reader.take(size - 8), as: UTF8.self)
        let absolute = keysBox.payload.lowerBound + nameStart
        keys[index] = (name, absolute..<(absolute + size - 8))
      }
    }
    guard let list = children.first(where: { $0.type == "ilst" }) else { return }
    for item in try Boxes.children(of: list.payload, in: input, isFile: false, depth: 5, budget: &budget) {
      // An ilst item's type is the 1-based index of its key.
      let typeBytes = item.type.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
      let index = typeBytes.count == 4 ? Int(typeBytes.u32(at: 0, bigEndian: true)) : 0
      guard let (key, keyRange) = keys[index] else { continue }
      for data in try Boxes.children(of: item.payload, in: input, isFile: false, depth: 6, budget: &budget)
      where data.type == "data" && data.payload.count >= 8 {
        let head = try input.read(at: data.payload.lowerBound, count: 4)
        let value = (data.payload.lowerBound + 8)..<data.end
        metadataItems.append(
          MetadataItem(
            key: key, keyRange: keyRange, item: item, value: value, dataType: head.u32(at: 0, bigEndian: true)
          ))
        break
      }
    }
  }
}
