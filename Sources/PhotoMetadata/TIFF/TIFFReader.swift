/// Walks the image file directories (IFDs) of a TIFF structure: a TIFF or raw file, or an EXIF block
/// (EXIF 2.32 §4.5.2, "TIFF Structure"), whose offsets count from its header at `base`. BigTIFF (magic 43,
/// 8-byte counts and offsets, 20-byte entries) is read the same way, with the same limits.
///
/// Pointers to sub-directories are followed wherever they appear, each directory at most once: a pointer
/// back to a directory already seen is an ``MetadataError/corrupt(_:)`` "IFD loop".
struct TIFFReader {
  let input: Input
  /// Absolute position of the TIFF header ("II*\0" or "MM\0*") in `input`.
  let base: Int
  let bigEndian: Bool
  let limits: MetadataReader.Limits
  /// Offset of IFD0 from `base`.
  let firstIFDOffset: Int

  /// Whether this is a BigTIFF structure (magic 43): 8-byte offsets and counts, 20-byte entries.
  let isBig: Bool

  /// Bytes of the header: 8 for TIFF, 16 for BigTIFF.
  var headerLength: Int { isBig ? 16 : 8 }

  init(input: Input, base: Int, limits: MetadataReader.Limits) throws(MetadataError) {
    self.input = input
    self.base = base
    self.limits = limits
    let header = try input.read(at: base, count: 8)
    switch (header[0], header[1]) {
    case (0x49, 0x49): bigEndian = false
    case (0x4D, 0x4D): bigEndian = true
    default: throw .corrupt("TIFF header has no byte-order mark")
    }
    let magic = header.u16(at: 2, bigEndian: bigEndian)
    switch magic {
    // 42 is TIFF's; Olympus ORF writes "RO" or "RS" (0x4F52, 0x5352) and Panasonic RW2 0x55 in its place, with
    // TIFF's layout otherwise (libraw and exiftool read them so).
    case 42, 0x4F52, 0x5352, 0x55:
      isBig = false
      firstIFDOffset = Int(header.u32(at: 4, bigEndian: bigEndian))
    case 43:
      // BigTIFF (Aware Systems' BigTIFF design, adopted by libtiff 4): the byte size of offsets (always 8),
      // a zero word, then the 8-byte offset of the first IFD.
      isBig = true
      let offsetSize = header.u16(at: 4, bigEndian: bigEndian)
      let reserved = header.u16(at: 6, bigEndian: bigEndian)
      guard offsetSize == 8, reserved == 0 else {
        throw .corrupt("BigTIFF header declares \(offsetSize)-byte offsets")
      }
      let rest = try input.read(at: base + 8, count: 8)
      firstIFDOffset = Self.offset(rest.u64(at: 0, bigEndian: bigEndian))
    default:
      throw .corrupt("TIFF header magic is \(magic), not 42 or 43")
    }
  }

  /// A reader of directories whose offsets count from `base`, without a TIFF header there: the IFDs of a
  /// maker note, which some cameras write with a signature and byte order of their own instead (Olympus,
  /// Pentax).
  init(
    input: Input, base: Int, bigEndian: Bool, firstIFDOffset: Int, limits: MetadataReader.Limits
  ) {
    self.input = input
    self.base = base
    self.bigEndian = bigEndian
    self.firstIFDOffset = firstIFDOffset
    self.limits = limits
    isBig = false
  }

  /// An 8-byte offset as an `Int`, capped at 2^62 so that adding it to a file position cannot overflow; an
  /// offset that large lies past any file, and reading there fails as truncated.
  static func offset(_ value: UInt64) -> Int {
    Int(min(value, 1 << 62))
  }

  /// Reads the directory at `offset` (relative to `base`).
  ///
  /// - Parameter tolerating: when true, damage inside the directory costs only what it touches, as exiftool
  ///   and libtiff read such files: more entries than ``MetadataReader/Limits/maxIFDEntries`` are read up to
  ///   the limit, a table cut short by the end of the file gives the entries before the cut (and no next
  ///   directory), and an entry whose value is impossibly large or lies past the end is left out. Each is
  ///   recorded in ``IFD/damage``. Readers pass true; the location stripper and the MPF index pass false, as
  ///   they must account for every byte.
  func directory(at offset: Int, tolerating: Bool = false) throws(MetadataError) -> IFD {
    // An IFD inside the header is impossible (TIFF 6.0 §2: "word boundary, after the header").
    guard offset >= headerLength else { throw .corrupt("IFD offset \(offset) points into the TIFF header") }
    let position = base + offset
    // Entry count, entries, next-IFD offset: 2, 12 × n, 4 bytes in TIFF; 8, 20 × n, 8 in BigTIFF.
    let countSize = isBig ? 8 : 2, entrySize = isBig ? 20 : 12, offsetSize = isBig ? 8 : 4
    let countBytes = try input.read(at: position, count: countSize)
    let rawCount =
      isBig
      ? countBytes.u64(at: 0, bigEndian: bigEndian) : UInt64(countBytes.u16(at: 0, bigEndian: bigEndian))
    var damage: [String] = []
    var count: Int
    if rawCount <= UInt64(limits.maxIFDEntries) {
      count = Int(rawCount)
    } else {
      guard tolerating else { throw .limitExceeded("\(rawCount) entries in one IFD") }
      count = limits.maxIFDEntries
    }
    // The whole entries that the file holds, when the table is cut short.
    let available = max(0, (input.size - position - countSize) / entrySize)
    var hasNext = true
    if count * entrySize + offsetSize > input.size - position - countSize {
      guard tolerating else { throw .truncated }
      hasNext = false
      if available < count {
        damage.append("the file ends after \(available) of its \(rawCount) entries")
        count = available
      } else {
        damage.append("the file ends inside its pointer to the next directory")
      }
    }
    if damage.isEmpty, UInt64(count) < rawCount {
      damage.append(
        "a safety limit was reached: it declares \(rawCount) entries; the first \(count) were read")
    }
    let table = try input.read(
      at: position + countSize, count: count * entrySize + (hasNext ? offsetSize : 0))
    var entries: [IFDEntry] = []
    entries.reserveCapacity(count)
    for index in 0..<count {
      let at = index * entrySize
      let tag = table.u16(at: at, bigEndian: bigEndian)
      let type = table.u16(at: at + 2, bigEndian: bigEndian)
      let rawValueCount =
        isBig
        ? table.u64(at: at + 4, bigEndian: bigEndian) : UInt64(table.u32(at: at + 4, bigEndian: bigEndian))
      // Types unknown to TIFF 6.0 / EXIF 2.32 §4.6.2 / BigTIFF are skipped, as the specifications ask readers to.
      guard let unit = IFDEntry.unitSize(type) else { continue }
      // No value of 4 GiB or more exists in practice (classic offsets are 32-bit; a BigTIFF value that large
      // would be a table of half a billion strips), so larger counts are damage, checked before any product.
      let (byteCount, overflow) = rawValueCount.multipliedReportingOverflow(by: UInt64(unit))
      guard !overflow, byteCount <= UInt64(UInt32.max) else {
        let reason = "tag 0x\(String(tag, radix: 16)) declares \(rawValueCount) × \(unit) bytes"
        guard tolerating else { throw .corrupt(reason) }
        damage.append(reason)
        continue
      }
      let entryPosition = position + countSize + at
      let fieldAt = at + (isBig ? 12 : 8)
      let inline = Int(byteCount) <= offsetSize
      let valuePosition: Int
      if inline {
        valuePosition = entryPosition + (isBig ? 12 : 8)
      } else if isBig {
        valuePosition = base + Self.offset(table.u64(at: fieldAt, bigEndian: bigEndian))
      } else {
        valuePosition = base + Int(table.u32(at: fieldAt, bigEndian: bigEndian))
      }
      if tolerating, !inline, valuePosition > input.size || Int(byteCount) > input.size - valuePosition {
        damage.append("the value of tag 0x\(String(tag, radix: 16)) lies past the end of the file")
        continue
      }
      entries.append(
        IFDEntry(
          tag: tag, type: type, count: Int(rawValueCount), entryPosition: entryPosition,
          valuePosition: valuePosition, byteCount: Int(byteCount), isInline: inline))
    }
    let nextAt = count * entrySize
    var next = 0
    if hasNext {
      next =
        isBig
        ? Self.offset(table.u64(at: nextAt, bigEndian: bigEndian))
        : Int(table.u32(at: nextAt, bigEndian: bigEndian))
    }
    var ifd = IFD(
      position: position, entries: entries, nextOffset: next,
      tableLength: countSize + count * entrySize + (hasNext ? offsetSize : 0))
    ifd.damage = damage
    return ifd
  }

  /// The raw bytes of an entry's value.
  func bytes(_ entry: IFDEntry) throws(MetadataError) -> [UInt8] {
    guard entry.byteCount <= limits.maxValueBytes else {
      throw .limitExceeded("a \(entry.byteCount)-byte EXIF value")
    }
    return try input.read(at: entry.valuePosition, count: entry.byteCount)
  }

  /// An ASCII value without its NUL padding and surrounding spaces; nil when empty.
  func string(_ entry: IFDEntry) throws(MetadataError) -> String? {
    var bytes = try bytes(entry)
    if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
    let text = String(decoding: bytes, as: UTF8.self)
    let trimmed = text.trimmingSpaces()
    return trimmed.isEmpty ? nil : trimmed
  }

  /// The string of an optional entry (nil when absent); spelled out because `Optional.flatMap` rethrows
  /// untyped errors in older SDKs.
  func string(_ entry: IFDEntry?) throws(MetadataError) -> String? {
    guard let entry else { return nil }
    return try string(entry)
  }

  func integer(_ entry: IFDEntry?) throws(MetadataError) -> Int? {
    guard let entry else { return nil }
    return try integer(entry)
  }

  /// The integers of a BYTE, SHORT, LONG, IFD, LONG8 or IFD8 value; a signed value (SBYTE, SSHORT, SLONG,
  /// SLONG8) is read as libtiff reads it where an unsigned one is expected: its non-negative values.
  func integers(_ entry: IFDEntry) throws(MetadataError) -> [Int] {
    let bytes = try bytes(entry)
    switch entry.type {
    case 1, 7: return bytes.map(Int.init)
    case 6: return bytes.map { Int(Int8(bitPattern: $0)) }.filter { $0 >= 0 }
    case 3:
      return stride(from: 0, to: bytes.count - 1, by: 2).map { Int(bytes.u16(at: $0, bigEndian: bigEndian)) }
    case 8:
      return stride(from: 0, to: bytes.count - 1, by: 2).map {
        Int(Int16(bitPattern: bytes.u16(at: $0, bigEndian: bigEndian)))
      }.filter { $0 >= 0 }
    case 9:
      return stride(from: 0, to: bytes.count - 3, by: 4).map {
        Int(Int32(bitPattern: bytes.u32(at: $0, bigEndian: bigEndian)))
      }.filter { $0 >= 0 }
    case 4, 13:
      return stride(from: 0, to: bytes.count - 3, by: 4).map { Int(bytes.u32(at: $0, bigEndian: bigEndian)) }
    case 16, 18:
      // LONG8 and IFD8 (BigTIFF), capped as offsets are: no size or offset needs more than 62 bits.
      return stride(from: 0, to: bytes.count - 7, by: 8).map {
        Self.offset(bytes.u64(at: $0, bigEndian: bigEndian))
      }
    default: return []
    }
  }

  func integer(_ entry: IFDEntry) throws(MetadataError) -> Int? {
    try integers(entry).first
  }

  /// The values of a RATIONAL or SRATIONAL entry; a zero denominator gives nil for that value.
  func rationals(_ entry: IFDEntry) throws(MetadataError) -> [Double?] {
    guard entry.type == 5 || entry.type == 10 else { return [] }
    let bytes = try bytes(entry)
    return stride(from: 0, to: bytes.count - 7, by: 8).map { at in
      let numerator = bytes.u32(at: at, bigEndian: bigEndian)
      let denominator = bytes.u32(at: at + 4, bigEndian: bigEndian)
      guard denominator != 0 else { return nil }
      if entry.type == 10 {
        return Double(Int32(bitPattern: numerator)) / Double(Int32(bitPattern: denominator))
      }
      return Double(numerator) / Double(denominator)
    }
  }
}

/// One image file directory: its position and entries (TIFF 6.0 §2, EXIF 2.32 §4.6.2).
struct IFD {
  /// Absolute position of the 2-byte entry count.
  let position: Int
  let entries: [IFDEntry]
  /// Offset of the next IFD from the TIFF header, 0 for none.
  let nextOffset: Int

  /// Bytes the directory itself occupies: count, entries and next pointer (those of every entry read, known
  /// or not).
  let tableLength: Int

  /// What was left out of a directory read with `tolerating` (``TIFFReader/directory(at:tolerating:)``): a
  /// sentence per damaged entry or cut table; empty for a whole directory.
  var damage: [String] = []

  init(position: Int, entries: [IFDEntry], nextOffset: Int, tableLength: Int? = nil) {
    self.position = position
    self.entries = entries
    self.nextOffset = nextOffset
    self.tableLength = tableLength ?? 2 + entries.count * 12 + 4
  }

  subscript(tag: UInt16) -> IFDEntry? { entries.first { $0.tag == tag } }
}

/// A 12-byte IFD entry (20 bytes in BigTIFF), with its value's absolute position resolved.
struct IFDEntry {
  let tag: UInt16
  let type: UInt16
  let count: Int
  /// Absolute position of the entry.
  let entryPosition: Int
  /// Absolute position of the value: inside the entry when it fits in its 4-byte field (8 in BigTIFF), else
  /// where the offset points.
  let valuePosition: Int
  let byteCount: Int
  /// Whether the value is inside the entry itself.
  let isInline: Bool

  /// Bytes per value for the field types of TIFF 6.0 §2 and EXIF 2.32 §4.6.2 (13 is the IFD type of TIFF-EP;
  /// 16, 17 and 18 are BigTIFF's LONG8, SLONG8 and IFD8).
  static func unitSize(_ type: UInt16) -> Int? {
    switch type {
    case 1, 2, 6, 7: 1
    case 3, 8: 2
    case 4, 9, 11, 13: 4
    case 5, 10, 12, 16, 17, 18: 8
    default: nil
    }
  }
}

extension String {
  /// The string without leading and trailing spaces, tabs and line breaks (no Foundation).
  func trimmingSpaces() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
