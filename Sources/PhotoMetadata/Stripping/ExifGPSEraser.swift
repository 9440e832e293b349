/// Removes the GPS IFD from a TIFF structure without moving a byte (EXIF 2.32 §4.6.3, §4.6.6).
///
/// Strategy: IFD0's GPSInfo entry (0x8825) is dropped by rewriting IFD0's table in place: count − 1, the
/// other entries shifted up (still in ascending tag order, TIFF 6.0 §2), the next-IFD offset after them, and
/// one entry's worth of zero bytes as slack (12 bytes; 20 in BigTIFF, whose counts and offsets are 8 bytes). The GPS IFD's table and its out-of-line values are then zeroed. Nothing changes
/// size, so every other offset — in EXIF, in JPEG segments, in HEIF `iloc` — stays valid, and no pixel
/// byte is touched. Values shared with a non-GPS entry (never seen in practice) are left as they are.
enum ExifGPSEraser {
  static func plan(_ reader: TIFFReader, _ structure: TIFFStructure) throws(MetadataError) -> StripPlan {
    var plan = StripPlan()
    let ifd0 = structure.ifd0
    let input = reader.input
    // TIFF: a 2-byte count, 12-byte entries, a 4-byte next offset; BigTIFF: 8, 20 and 8.
    let countSize = reader.isBig ? 8 : 2, entrySize = reader.isBig ? 20 : 12,
      offsetSize = reader.isBig ? 8 : 4
    let rawCount = try tableCount(reader, at: ifd0.position)
    let table = try input.read(at: ifd0.position + countSize, count: rawCount * entrySize + offsetSize)
    var kept: [UInt8] = []
    var dropped = 0
    for index in 0..<rawCount {
      let entry = Array(table[(index * entrySize)..<(index * entrySize + entrySize)])
      if entry.u16(at: 0, bigEndian: reader.bigEndian) == TIFFTag.gpsIFD {
        dropped += 1
      } else {
        kept += entry
      }
    }
    guard dropped > 0 else { return plan }
    let newCount = UInt64(rawCount - dropped)
    let countBytes = (0..<countSize).map { index in
      UInt8(truncatingIfNeeded: newCount >> (8 * UInt64(reader.bigEndian ? countSize - 1 - index : index)))
    }
    let rewritten =
      countBytes + kept + Array(table[(rawCount * entrySize)...])
      + [UInt8](repeating: 0, count: dropped * entrySize)
    plan.edits.append(.patch(at: ifd0.position, rewritten))

    guard let gps = structure.gps else {
      plan.removed.append("EXIF GPS pointer")
      return plan
    }
    // Ranges other directories use, which zeroing must not touch.
    var protected: [Range<Int>] = []
    for ifd in structure.all where ifd.position != gps.position {
      protected.append(ifd.position..<(ifd.position + ifd.tableLength))
      for entry in ifd.entries where !entry.isInline {
        protected.append(entry.valuePosition..<(entry.valuePosition + entry.byteCount))
      }
    }
    let gpsRawCount = try tableCount(reader, at: gps.position)
    var targets = [gps.position..<(gps.position + countSize + gpsRawCount * entrySize + offsetSize)]
    for entry in gps.entries where !entry.isInline {
      let end = entry.valuePosition + entry.byteCount
      guard entry.valuePosition >= 0, end <= input.size else { continue }
      targets.append(entry.valuePosition..<end)
    }
    for target in targets where !protected.contains(where: { $0.overlaps(target) }) {
      plan.edits.append(.fill(target, with: 0))
    }
    plan.removed.append("EXIF GPS IFD (\(gps.entries.count) tags)")
    return plan
  }

  /// The entry count of the directory at absolute `position`, every entry counted (known types or not); the
  /// reader has checked it against the limit.
  private static func tableCount(_ reader: TIFFReader, at position: Int) throws(MetadataError) -> Int {
    let bytes = try reader.input.read(at: position, count: reader.isBig ? 8 : 2)
    let count =
      reader.isBig
      ? bytes.u64(at: 0, bigEndian: reader.bigEndian) : UInt64(bytes.u16(at: 0, bigEndian: reader.bigEndian))
    guard count <= UInt64(reader.limits.maxIFDEntries) else {
      throw .limitExceeded("\(count) entries in one IFD")
    }
    return Int(count)
  }

  /// The plan for an EXIF block in memory whose TIFF header is at `base`.
  static func plan(exif bytes: [UInt8], base: Int, limits: MetadataReader.Limits) throws(MetadataError)
    -> StripPlan
  {
    let reader = try TIFFReader(input: Input(bytes: bytes), base: base, limits: limits)
    return try plan(reader, reader.structure())
  }
}

/// Blanks XMP GPS properties in place (XMP Specification Part 2 §3.3: `exif:GPS*`).
///
/// Each property — attribute `exif:GPSLatitude="…"` or element `<exif:GPSLatitude>…</exif:GPSLatitude>` — is
/// overwritten with spaces: whitespace between attributes or between property elements is insignificant in
/// RDF/XML, so the packet stays well-formed and keeps its length (XMP packets are padded with spaces anyway).
enum XMPGPSEraser {
  static func plan(_ bytes: [UInt8]) throws(MetadataError) -> StripPlan {
    let packet = XMPPacket(bytes: bytes)
    guard packet.isComplete || bytes.firstRange(of: Array(":GPS".utf8)) == nil else {
      throw .cannotStrip("XMP nested deeper than \(XMPPacket.maxDepth) levels")
    }
    var plan = StripPlan()
    for property in packet.properties(startingWith: "GPS") {
      plan.edits.append(.fill(property.range, with: 0x20))
      plan.removed.append("XMP \(property.prefix):\(property.name)")
    }
    return plan
  }
}
