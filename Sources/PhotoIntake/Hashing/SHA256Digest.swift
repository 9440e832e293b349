/// A SHA-256 digest: the identity of an object in the library (`objects/ab/<hex>`).
public struct SHA256Digest: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
  /// Lower-case hexadecimal, 64 characters.
  public let hex: String

  /// Accepts 64 hexadecimal characters (either case); nil otherwise.
  public init?(hex: String) {
    guard hex.utf8.count == 64, hex.utf8.allSatisfy({ $0.isHexDigit }) else { return nil }
    self.hex = hex.lowercased()
  }

  init(bytes: some Sequence<UInt8>) {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(64)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    hex = String(decoding: text, as: UTF8.self)
  }

  public var description: String { hex }

  public static func < (lhs: SHA256Digest, rhs: SHA256Digest) -> Bool { lhs.hex < rhs.hex }
}

extension UInt8 {
  fileprivate var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}

extension SHA256Digest {
  /// The digest of a byte array (for small data and tests; files are hashed as they stream).
  public static func of(_ bytes: [UInt8]) -> SHA256Digest {
    let hasher = SHA256Hasher()
    bytes.withUnsafeBytes { hasher.update($0) }
    return hasher.finalize()
  }
}
