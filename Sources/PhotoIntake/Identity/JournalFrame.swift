/// One group of identity records as the journal stores it: a sequence number and a payload, framed so that a torn or
/// altered frame is told apart from a whole one, and so that the last frame of a segment is found from its end.
///
/// ```
/// "PIJ1" | sequence (UInt64 LE) | payload length (UInt32 LE) | payload | CRC-32C (UInt32 LE) | payload length | "PIJ."
///   4           8                        4                    length        4                      4            4
/// ```
///
/// The CRC covers the sequence, the length and the payload (CRC-32C, the Castagnoli polynomial iSCSI and ext4
/// use: RFC 3720 §B.4). The trailing length lets ``IdentityJournal`` read the newest frame with two reads,
/// whatever the segment's size; the leading magic lets a reader find the next frame after a damaged one.
struct JournalFrame: Sendable, Equatable {
  /// The manifest transaction this frame records (1, 2, 3…; one per transaction that changed identity).
  var sequence: UInt64
  var payload: [UInt8]

  static let headerMagic: [UInt8] = Array("PIJ1".utf8)
  static let footerMagic: [UInt8] = Array("PIJ.".utf8)
  static let headerSize = 16
  static let footerSize = 12
  /// A frame larger than this is not believed (a damaged length field); a snapshot of a million assets fits.
  static let maximumPayload = 1 << 30

  /// The frame's bytes.
  var bytes: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(Self.headerSize + payload.count + Self.footerSize)
    out += Self.headerMagic
    out += Self.littleEndian(sequence, count: 8)
    out += Self.littleEndian(UInt64(payload.count), count: 4)
    out += payload
    out += Self.littleEndian(UInt64(checksum), count: 4)
    out += Self.littleEndian(UInt64(payload.count), count: 4)
    out += Self.footerMagic
    return out
  }

  var checksum: UInt32 {
    var crc = CRC32C()
    crc.update(Self.littleEndian(sequence, count: 8))
    crc.update(Self.littleEndian(UInt64(payload.count), count: 4))
    crc.update(payload)
    return crc.value
  }

  /// The whole frame that starts at `offset` in `bytes`, if one is there and its checksum holds.
  static func parse(_ bytes: ArraySlice<UInt8>, at offset: Int) -> JournalFrame? {
    let start = bytes.startIndex + offset
    guard start >= bytes.startIndex, bytes.endIndex - start >= headerSize + footerSize,
      bytes[start..<start + 4].elementsEqual(headerMagic)
    else { return nil }
    let length = Int(readLittleEndian(bytes, at: start + 12, count: 4))
    guard length <= maximumPayload, bytes.endIndex - start >= headerSize + length + footerSize else {
      return nil
    }
    let payloadStart = start + headerSize
    let footer = payloadStart + length
    guard Int(readLittleEndian(bytes, at: footer + 4, count: 4)) == length,
      bytes[footer + 8..<footer + 12].elementsEqual(footerMagic)
    else { return nil }
    let frame = JournalFrame(
      sequence: readLittleEndian(bytes, at: start + 4, count: 8), payload: Array(bytes[payloadStart..<footer])
    )
    guard UInt32(readLittleEndian(bytes, at: footer, count: 4)) == frame.checksum else { return nil }
    return frame
  }

  /// The size of the frame whose footer ends at `end`, read from that footer; nil when no footer is there.
  static func sizeOfFrame(endingAt end: Int, in bytes: ArraySlice<UInt8>) -> Int? {
    let footer = bytes.startIndex + end - footerSize
    guard footer >= bytes.startIndex, bytes[footer + 8..<footer + 12].elementsEqual(footerMagic) else {
      return nil
    }
    let length = Int(readLittleEndian(bytes, at: footer + 4, count: 4))
    guard length <= maximumPayload else { return nil }
    return headerSize + length + footerSize
  }

  static func littleEndian(_ value: UInt64, count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
  }

  static func readLittleEndian(_ bytes: ArraySlice<UInt8>, at offset: Int, count: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in (0..<count).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
    return value
  }
}

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), table-driven.
struct CRC32C {
  private static let table: [UInt32] = (0..<256).map { index in
    var crc = UInt32(index)
    for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
    return crc
  }

  private var state: UInt32 = 0xFFFF_FFFF

  mutating func update(_ bytes: [UInt8]) {
    let table = Self.table
    for byte in bytes { state = table[Int((state ^ UInt32(byte)) & 0xFF)] ^ (state >> 8) }
  }

  var value: UInt32 { state ^ 0xFFFF_FFFF }
}
