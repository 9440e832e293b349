/// One marker segment of a JPEG stream (ITU T.81 §B.1.1.4): the marker and its payload after the length.
struct JPEGSegment {
  let marker: UInt8
  /// Absolute position of the 0xFF that starts the marker.
  let position: Int
  /// Absolute range of the payload (after the 2-byte length).
  let payload: Range<Int>

  /// SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) (ITU T.81 Table B.1).
  var isStartOfFrame: Bool { JPEGSegments.isStartOfFrame(marker) }
}

enum JPEGSegments {
  static let startOfScan: UInt8 = 0xDA
  static let endOfImage: UInt8 = 0xD9

  /// Bytes skipped at most, over the whole stream, between segments that do not follow one another.
  static let maxExtraneousBytes = 64 << 10
  /// Runs of extraneous bytes skipped at most in one stream.
  static let maxResyncs = 8

  /// The segments before the image data, and the runs of extraneous bytes skipped between them.
  struct Walk {
    var segments: [JPEGSegment] = []
    /// Absolute ranges of bytes that belonged to no segment, each followed by a confirmed marker.
    var extraneous: [Range<Int>] = []
    /// Where the file ends inside a segment, or before the next one, after the frame header (a download cut
    /// in its scan header or image data); nil when the walk reached the scan header whole.
    var cutAt: Int?
    /// Whether the walk stopped at ``cutAt`` on bytes that lead to no marker, rather than at the end of the file.
    var cutIsDamage = false
    /// What the damage at ``cutAt`` is, when it is not bytes that lead to no marker.
    var cutReason: String?
  }

  static func isStartOfFrame(_ marker: UInt8) -> Bool {
    marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
  }

  /// The segments of the JPEG stream starting at `start`, up to and including the first SOS; the
  /// entropy-coded data after it is never read.
  ///
  /// - Throws: `.corrupt` without SOI or with a length below 2, `.truncated` when a segment runs past the
  ///   end, `.limitExceeded` after `maxSegments` segments.
  static func read(_ input: Input, from start: Int = 0, limits: MetadataReader.Limits) throws(MetadataError)
    -> [JPEGSegment]
  {
    try walk(input, from: start, limits: limits).segments
  }

  /// The segments, as ``read(_:from:limits:)``, with extraneous bytes between segments skipped.
  ///
  /// libjpeg skips any bytes up to the next 0xFF with a warning ("Corrupt JPEG data: N extraneous bytes
  /// before marker") and decodes the image, and so do the decoders behind renditions. Skipping to any 0xFF
  /// would, on random bytes, find spurious segments and a bogus frame header; so a run is skipped only to a
  /// marker that is confirmed: a marker code that may stand between segments (T.81 Table B.1: SOFn, DHT, DAC,
  /// SOS, DQT, DRI, APPn, COM, …), fill bytes before it (§B.1.1.2), a length that ends inside the file on the
  /// next marker, and, for a frame or scan header, a header whose fields fit its length and T.81's ranges
  /// (§B.2.2, §B.2.3). At most ``maxResyncs`` runs and ``maxExtraneousBytes`` bytes in all are skipped;
  /// past that, or with no confirmed marker, the stream is damaged as before ("no marker at offset N").
  ///
  /// With `toleratingCut`, once a frame header has been read, a file that ends inside a segment or before the
  /// next one, or whose bytes lead to no confirmed marker (or to a segment with a length below 2) after a
  /// frame header that is no chance find (``frameHeaderIsAnchored(_:_:)``, ``Walk/cutIsDamage``), gives the
  /// segments before the cut and its position (``Walk/cutAt``) instead of ``MetadataError/truncated`` or
  /// `.corrupt`: the size and the metadata segments are all there, as exiftool and libjpeg read them. Readers
  /// pass true; the location stripper passes false, as it must copy a whole file.
  static func walk(
    _ input: Input, from start: Int = 0, limits: MetadataReader.Limits, toleratingCut: Bool = false
  ) throws(MetadataError) -> Walk {
    let soi = try input.read(at: start, count: 2)
    guard soi == [0xFF, 0xD8] else { throw .corrupt("no JPEG start-of-image marker") }
    var walk = Walk()
    var skippedBytes = 0
    var position = start + 2
    let tolerates = { (walk: Walk) in toleratingCut && walk.segments.contains(where: \.isStartOfFrame) }
    while true {
      guard walk.segments.count < limits.maxSegments else {
        throw .limitExceeded("\(limits.maxSegments) JPEG segments")
      }
      if position + 4 > input.size, tolerates(walk) {
        walk.cutAt = position
        return walk
      }
      let head = try input.read(at: position, count: 2)
      // A byte other than 0xFF where a marker should be, or 0xFF 0x00 (a stuffed zero, which belongs in
      // entropy-coded data only): libjpeg's next_marker discards both and reads on to the next marker.
      guard head[0] == 0xFF, head[1] != 0x00 else {
        guard walk.extraneous.count < maxResyncs,
          let next = try confirmedMarker(input, after: position, within: maxExtraneousBytes - skippedBytes)
        else {
          // After a frame header that is no chance find (``frameHeaderIsAnchored(_:_:)``), what leads to no
          // marker is damage to the tables or the image data, not to the size and metadata read before it:
          // those are kept (as exiftool keeps them), and the decoder decides what it can show. Before the
          // frame header, the file has no size; after a resync to a marker confirmed by its length alone, the
          // frame header may be a chance find in random bytes: damaged.
          guard tolerates(walk), try frameHeaderIsAnchored(input, walk) else {
            throw .corrupt("no marker at offset \(position)")
          }
          walk.cutAt = position
          walk.cutIsDamage = true
          return walk
        }
        walk.extraneous.append(position..<next)
        skippedBytes += next - position
        position = next
        continue
      }
      let marker = head[1]
      // Fill bytes: any number of 0xFF may precede a marker (ITU T.81 §B.1.1.2).
      if marker == 0xFF {
        position += 1
        continue
      }
      // Markers without a length: TEM and RSTn (ITU T.81 §B.1.1.3).
      if marker == 0x01 || (0xD0...0xD7).contains(marker) {
        position += 2
        continue
      }
      if marker == endOfImage || marker == 0xD8 {
        throw .corrupt("marker 0x\(String(marker, radix: 16)) before the image data")
      }
      let lengthBytes = try input.read(at: position + 2, count: 2)
      let length = Int(lengthBytes.u16(at: 0, bigEndian: true))
      if length < 2 {
        // The length counts itself (T.81 §B.1.1.4), so 0 and 1 are impossible. For APPn and COM, libjpeg reads
        // the length, skips nothing (jdmarker.c skip_variable, get_interesting_appn) and reads on to the next
        // marker: the bytes from this marker on are extraneous, skipped only to a confirmed marker as above.
        if (0xE0...0xEF).contains(marker) || marker == 0xFE, walk.extraneous.count < maxResyncs,
          let next = try confirmedMarker(
            input, after: position + 4, within: maxExtraneousBytes - skippedBytes - 4)
        {
          walk.extraneous.append(position..<next)
          skippedBytes += next - position
          position = next
          continue
        }
        // Any other segment (libjpeg fails on it): exiftool stops there and keeps what it read. After a frame
        // header that is no chance find, so do we; before it, the file has no size.
        let reason = "segment 0x\(String(marker, radix: 16)) has length \(length)"
        guard tolerates(walk), try frameHeaderIsAnchored(input, walk) else { throw .corrupt(reason) }
        walk.cutAt = position
        walk.cutIsDamage = true
        walk.cutReason = "\(reason) at offset \(position), after the frame header"
        return walk
      }
      let payloadStart = position + 4
      let end = position + 2 + length
      guard end <= input.size else {
        guard tolerates(walk) else { throw .truncated }
        walk.cutAt = position
        return walk
      }
      walk.segments.append(JPEGSegment(marker: marker, position: position, payload: payloadStart..<end))
      if marker == startOfScan { return walk }
      position = end
    }
  }

  /// Whether the walk's frame header is no chance find, so that damage after it costs only what follows: no
  /// run of extraneous bytes was skipped before it, or the walk reached it from the last such run through
  /// whole segments of which one is a table segment that fills its length exactly
  /// (``isWholeTableSegment(_:_:)``).
  ///
  /// A resync confirms the marker it lands on by its length alone (``isConfirmed(_:markerAt:)``), which
  /// random bytes do now and then; a frame header reached from there may be a chance find. Tables that
  /// libjpeg's marker reader takes whole are not found by chance: a DHT's 16 counts sum to at most 256
  /// (random counts sum to about 2,000), and a DQT's or DHT's tables add up to its length exactly. libjpeg
  /// resynchronises on the same marker and reads the same tables (ImageTestSuite's `c8bc97….jpg`: "19
  /// extraneous bytes before marker 0xc4", then the frame header after that DHT).
  static func frameHeaderIsAnchored(_ input: Input, _ walk: Walk) throws(MetadataError) -> Bool {
    guard let frame = walk.segments.first(where: \.isStartOfFrame) else { return false }
    guard let run = walk.extraneous.last(where: { $0.upperBound <= frame.position }) else { return true }
    for segment in walk.segments where (run.upperBound..<frame.position).contains(segment.position) {
      if try isWholeTableSegment(input, segment) { return true }
    }
    return false
  }

  /// Whether `segment` is a DQT or DHT whose tables fill its length exactly, each as libjpeg's marker reader
  /// takes it (jdmarker.c `get_dqt`, `get_dht`; T.81 §B.2.4.1, §B.2.4.2): a DQT table is a selector byte
  /// (precision Pq 0 or 1, destination Tq 0–3) and 64 values of 1 or 2 bytes; a DHT table is a selector byte
  /// (class Tc 0 or 1, destination Th 0–3), 16 counts summing to at most 256, and that many values.
  static func isWholeTableSegment(_ input: Input, _ segment: JPEGSegment) throws(MetadataError) -> Bool {
    guard segment.marker == 0xDB || segment.marker == 0xC4, !segment.payload.isEmpty else { return false }
    let body = try input.read(at: segment.payload.lowerBound, count: segment.payload.count)
    var at = 0
    while at < body.count {
      let selector = body[at]
      guard selector >> 4 <= 1, selector & 0x0F <= 3 else { return false }
      if segment.marker == 0xDB {
        at += 1 + 64 * (1 + Int(selector >> 4))
      } else {
        guard at + 17 <= body.count else { return false }
        let count = body[(at + 1)..<(at + 17)].reduce(0) { $0 + Int($1) }
        guard count <= 256 else { return false }
        at += 17 + count
      }
    }
    return at == body.count
  }

  /// Marker codes that may follow extraneous bytes: those of the segments before the image data (T.81
  /// Table B.1), not RSTn, SOI, EOI, TEM, the reserved JPGn/C8 or a stuffed zero.
  static func mayFollowExtraneousBytes(_ marker: UInt8) -> Bool {
    switch marker {
    case 0xC0...0xCF: marker != 0xC8
    case 0xDA...0xDF, 0xE0...0xEF, 0xFE: true
    default: false
    }
  }

  /// The position of the first confirmed marker after `position` (its first fill byte when 0xFF fill bytes
  /// precede it, since those belong to the marker), starting at most `within` bytes on; nil when there is
  /// none.
  static func confirmedMarker(_ input: Input, after position: Int, within: Int) throws(MetadataError) -> Int?
  {
    guard within > 0 else { return nil }
    let bytes = try input.readAvailable(at: position, count: within + 1)
    var index = 0
    while index + 1 < bytes.count {
      defer { index += 1 }
      guard bytes[index] == 0xFF, bytes[index + 1] != 0xFF, mayFollowExtraneousBytes(bytes[index + 1]) else {
        continue
      }
      if try isConfirmed(input, markerAt: position + index) {
        var first = index
        while first > 0, bytes[first - 1] == 0xFF { first -= 1 }
        return position + first
      }
    }
    return nil
  }

  /// Whether the marker at `at` (0xFF, code) heads a segment that fits: its length ends inside the file on
  /// another marker (or it is a scan header, after which the entropy-coded data follows), and a frame or
  /// scan header is well formed.
  static func isConfirmed(_ input: Input, markerAt at: Int) throws(MetadataError) -> Bool {
    let head = try input.readAvailable(at: at, count: 4)
    guard head.count == 4 else { return false }
    let marker = head[1]
    let length = Int(head.u16(at: 2, bigEndian: true))
    let end = at + 2 + length
    guard length >= 2, end <= input.size else { return false }
    if isStartOfFrame(marker) || marker == startOfScan {
      let header = try input.read(at: at + 4, count: length - 2)
      return marker == startOfScan ? isPlausibleScanHeader(header) : isPlausibleFrameHeader(marker, header)
    }
    let next = try input.readAvailable(at: end, count: 2)
    guard next.count == 2, next[0] == 0xFF else { return false }
    return next[1] == 0xFF || mayFollowExtraneousBytes(next[1])
  }

  /// A frame header (T.81 §B.2.2) whose fields are in range: precision 8 or 12 (2–16 for lossless), a
  /// width, 1 to 4 components (libjpeg's limit is 10; every writer seen uses at most 4), each with sampling
  /// factors 1–4 and a quantization table 0–3, and a length of exactly 8 + 3 × components.
  static func isPlausibleFrameHeader(_ marker: UInt8, _ body: [UInt8]) -> Bool {
    guard body.count >= 6 else { return false }
    let precision = body[0]
    let lossless = marker & 0x03 == 0x03
    guard lossless ? (2...16).contains(precision) : [8, 12].contains(precision) else { return false }
    let width = Int(body.u16(at: 3, bigEndian: true))
    let components = Int(body[5])
    guard width > 0, (1...4).contains(components), body.count == 6 + 3 * components else { return false }
    for index in 0..<components {
      let sampling = body[6 + 3 * index + 1], table = body[6 + 3 * index + 2]
      guard (1...4).contains(sampling >> 4), (1...4).contains(sampling & 0x0F), table <= 3 else {
        return false
      }
    }
    return true
  }

  /// A scan header (T.81 §B.2.3) whose fields are in range: 1 to 4 components, a length of exactly
  /// 6 + 2 × components, and table selectors 0–3.
  static func isPlausibleScanHeader(_ body: [UInt8]) -> Bool {
    guard let components = body.first.map(Int.init), (1...4).contains(components),
      body.count == 4 + 2 * components
    else { return false }
    for index in 0..<components {
      let tables = body[1 + 2 * index + 1]
      guard tables >> 4 <= 3, tables & 0x0F <= 3 else { return false }
    }
    return true
  }
}
