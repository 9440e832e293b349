/// Walks the image file directories (IFDs) of a TIFF structure: a TIFF or raw file, or an EXIF block
/// (EXIF 2.32 §4.5.2, "TIFF Structure"), whose offsets count from its header at `base`.
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
    // BigTIFF (43) uses 8-byte offsets; cameras do not write it.
    guard magic == 42 else {
      throw magic == 43 ? .unsupported : .corrupt("TIFF header magic is \(magic), not 42")
    }
    firstIFDOffset = Int(header.u32(at: 4, bigEndian: bigEndian))
  }

  /// Reads the directory at `offset` (relative to `base`).
  func directory(at offset: Int) throws(MetadataError) -> IFD {
    // An IFD inside the 8-byte header is impossible (TIFF 6.0 §2: "word boundary, after the header").
    guard offset >= 8 else { throw .corrupt("IFD offset \(offset) points into the TIFF header") }
    let position = base + offset
    let countBytes = try input.read(at: position, count: 2)
    let count = Int(countBytes.u16(at: 0, bigEndian: bigEndian))
    guard count <= limits.maxIFDEntries else { throw .limitExceeded("\(count) entries in one IFD") }
    let table = try input.read(at: position + 2, count: count * 12 + 4)
    var entries: [IFDEntry] = []
    entries.reserveCapacity(count)
    for index in 0..<count {
      let at = index * 12
      let tag = table.u16(at: at, bigEndian: bigEndian)
      let type = table.u16(at: at + 2, bigEndian: bigEndian)
      let valueCount = Int(table.u32(at: at + 4, bigEndian: bigEndian))
      // Types unknown to TIFF 6.0 / EXIF 2.32 §4.6.2 are skipped, as the specifications ask readers to.
      guard let unit = IFDEntry.unitSize(type) else { continue }
      let (byteCount, overflow) = valueCount.multipliedReportingOverflow(by: unit)
      // Offsets are 32-bit, so a value of 4 GiB or more cannot exist.
      guard !overflow, byteCount <= Int(UInt32.max) else {
        throw .corrupt("tag 0x\(String(tag, radix: 16)) declares \(valueCount) × \(unit) bytes")
      }
      let entryPosition = position + 2 + at
      let valuePosition =
        byteCount <= 4 ? entryPosition + 8 : base + Int(table.u32(at: at + 8, bigEndian: bigEndian))
      entries.append(
        IFDEntry(
          tag: tag, type: type, count: valueCount, entryPosition: entryPosition,
          valuePosition: valuePosition, byteCount: byteCount))
    }
    let next = Int(table.u32(at: count * 12, bigEndian: bigEndian))
    return IFD(position: position, entries: entries, nextOffset: next)
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

  /// The unsigned integers of a BYTE, SHORT, LONG or IFD value.
  func integers(_ entry: IFDEntry) throws(MetadataError) -> [Int] {
    let bytes = try bytes(entry)
    switch entry.type {
    case 1, 7: return bytes.map(Int.init)
    case 3:
      return stride(from: 0, to: bytes.count - 1, by: 2).map { Int(bytes.u16(at: $0, bigEndian: bigEndian)) }
    case 4, 13:
      return stride(from: 0, to: bytes.count - 3, by: 4).map { Int(bytes.u32(at: $0, bigEndian: bigEndian)) }
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

  subscript(tag: UInt16) -> IFDEntry? { entries.first { $0.tag == tag } }

  /// Bytes the directory itself occupies: count, entries and next pointer.
  var tableLength: Int { 2 + entries.count * 12 + 4 }
}

/// A 12-byte IFD entry, with its value's absolute position resolved.
struct IFDEntry {
  let tag: UInt16
  let type: UInt16
  let count: Int
  /// Absolute position of the 12-byte entry.
  let entryPosition: Int
  /// Absolute position of the value: inside the entry when it fits in 4 bytes, else where the offset points.
  let valuePosition: Int
  let byteCount: Int

  var isInline: Bool { byteCount <= 4 }

  /// Bytes per value for the field types of TIFF 6.0 §2 and EXIF 2.32 §4.6.2 (13 is the IFD type of TIFF-EP).
  static func unitSize(_ type: UInt16) -> Int? {
    switch type {
    case 1, 2, 6, 7: 1
    case 3, 8: 2
    case 4, 9, 11, 13: 4
    case 5, 10, 12: 8
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
