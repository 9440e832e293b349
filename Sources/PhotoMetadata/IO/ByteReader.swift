/// A cursor over bytes already in memory, reading big- or little-endian integers with bounds checks.
///
/// Running off the end throws `shortError`: ``MetadataError/truncated`` for the end of a file, or a
/// ``MetadataError/corrupt(_:)`` naming the structure when a box or segment is shorter than its fields.
struct ByteReader {
  let bytes: [UInt8]
  var position: Int
  var bigEndian: Bool
  var shortError: MetadataError

  init(_ bytes: [UInt8], at position: Int = 0, bigEndian: Bool = true, shortError: MetadataError = .truncated)
  {
    self.bytes = bytes
    self.position = position
    self.bigEndian = bigEndian
    self.shortError = shortError
  }

  var remaining: Int { max(0, bytes.count - position) }
  var isAtEnd: Bool { position >= bytes.count }

  private func check(_ count: Int) throws(MetadataError) {
    guard position >= 0, count >= 0, position <= bytes.count, count <= bytes.count - position else {
      throw shortError
    }
  }

  mutating func u8() throws(MetadataError) -> UInt8 {
    try check(1)
    defer { position += 1 }
    return bytes[position]
  }

  mutating func u16() throws(MetadataError) -> UInt16 {
    try check(2)
    defer { position += 2 }
    return bytes.u16(at: position, bigEndian: bigEndian)
  }

  mutating func u24() throws(MetadataError) -> UInt32 {
    try check(3)
    defer { position += 3 }
    let a = UInt32(bytes[position]), b = UInt32(bytes[position + 1]), c = UInt32(bytes[position + 2])
    return bigEndian ? a << 16 | b << 8 | c : c << 16 | b << 8 | a
  }

  mutating func u32() throws(MetadataError) -> UInt32 {
    try check(4)
    defer { position += 4 }
    return bytes.u32(at: position, bigEndian: bigEndian)
  }

  mutating func u64() throws(MetadataError) -> UInt64 {
    try check(8)
    let high = UInt64(bytes.u32(at: position, bigEndian: bigEndian))
    let low = UInt64(bytes.u32(at: position + 4, bigEndian: bigEndian))
    position += 8
    return bigEndian ? high << 32 | low : low << 32 | high
  }

  /// An unsigned integer of 0, 4 or 8 bytes (ISO/IEC 14496-12 `iloc` field sizes); other sizes are corrupt.
  mutating func uint(size: Int) throws(MetadataError) -> UInt64 {
    switch size {
    case 0: return 0
    case 4: return UInt64(try u32())
    case 8: return try u64()
    default: throw .corrupt("a field size of \(size) bytes is not allowed")
    }
  }

  mutating func take(_ count: Int) throws(MetadataError) -> ArraySlice<UInt8> {
    try check(count)
    defer { position += count }
    return bytes[position..<(position + count)]
  }

  mutating func skip(_ count: Int) throws(MetadataError) {
    try check(count)
    position += count
  }

  mutating func fourCC() throws(MetadataError) -> String {
    String(decoding: try take(4), as: UTF8.self)
  }

  /// A NUL-terminated string; without a terminator, the rest of the bytes.
  mutating func cString() -> String {
    let start = min(position, bytes.count)
    var end = start
    while end < bytes.count, bytes[end] != 0 { end += 1 }
    position = min(end + 1, bytes.count)
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}

extension Array where Element == UInt8 {
  /// Caller guarantees `at + 2 <= count`.
  func u16(at offset: Int, bigEndian: Bool) -> UInt16 {
    let a = UInt16(self[offset]), b = UInt16(self[offset + 1])
    return bigEndian ? a << 8 | b : b << 8 | a
  }

  /// Caller guarantees `at + 4 <= count`.
  func u32(at offset: Int, bigEndian: Bool) -> UInt32 {
    let a = UInt32(self[offset]), b = UInt32(self[offset + 1])
    let c = UInt32(self[offset + 2]), d = UInt32(self[offset + 3])
    return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
  }

  /// Caller guarantees `at + 8 <= count`.
  func u64(at offset: Int, bigEndian: Bool) -> UInt64 {
    let first = UInt64(u32(at: offset, bigEndian: bigEndian))
    let second = UInt64(u32(at: offset + 4, bigEndian: bigEndian))
    return bigEndian ? first << 32 | second : second << 32 | first
  }

  /// Whether `pattern` occurs at `offset`.
  func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
    guard offset >= 0, offset <= count, pattern.count <= count - offset else { return false }
    for index in pattern.indices where self[offset + index] != pattern[index] { return false }
    return true
  }

  /// The first index of `pattern` at or after `from`, starting at most `within` bytes after it.
  func firstRange(of pattern: [UInt8], from: Int = 0, within: Int = .max) -> Int? {
    guard let first = pattern.first, pattern.count <= count else { return nil }
    var index = Swift.max(0, from)
    let last = within >= count ? count - pattern.count : Swift.min(count - pattern.count, index + within)
    while index <= last {
      if self[index] == first, matches(pattern, at: index) { return index }
      index += 1
    }
    return nil
  }
}
