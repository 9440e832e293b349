import Testing

@testable import PhotoIntakeAudit

/// `ASCII.contains` and `ASCII.ends(of:in:)` anchor their `memchr` on the needle's least common byte, not
/// its first: they must still find every occurrence, the first one first, at both ends of the buffer.
struct ASCIITests {
  /// Where `needle` occurs in `bytes` without overlapping, read byte by byte: what the searches must agree with.
  static func naiveEnds(of needle: [UInt8], in bytes: [UInt8]) -> [Int] {
    var found: [Int] = []
    var start = 0
    while start + needle.count <= bytes.count {
      if Array(bytes[start..<(start + needle.count)]) == needle {
        found.append(start + needle.count)
        start += needle.count
      } else {
        start += 1
      }
    }
    return found
  }

  @Test func findsWhatAByteLoopFinds() {
    // Needles whose least common byte is first, in the middle, last, or repeated; haystacks of the same few
    // bytes, so matches, near misses and overlaps are frequent.
    let needles: [StaticString] = [".raw", "regular", "aaZ", "Zaa", "aZa", "url_", "e", "w1280", "ee.e"]
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("e.rawZgul_1280 ".utf8)
    for _ in 0..<300 {
      let count = Int.random(in: 0..<60, using: &generator)
      let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
      for needle in needles {
        let text = needle.withUTF8Buffer { Array($0) }
        let expected = Self.naiveEnds(of: text, in: bytes)
        #expect(ASCII.ends(of: needle, in: bytes) == expected, "\(needle) in \(bytes)")
        #expect(ASCII.contains(bytes, needle) == !expected.isEmpty, "\(needle) in \(bytes)")
      }
    }
  }

  @Test func matchesAtTheEdges() {
    let bytes = Array("raw.raw".utf8)
    #expect(ASCII.ends(of: ".raw", in: bytes) == [7])
    #expect(ASCII.contains(bytes, "raw.raw"))
    #expect(!ASCII.contains(bytes, "raw.raw."))
    #expect(ASCII.ends(of: "raw", in: bytes) == [3, 7])
    #expect(!ASCII.contains([], "a"))
  }
}
