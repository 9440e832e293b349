import PhotoIntake
import PhotoIntakeTesting
import PhotoMetadata
import Testing

struct FixturesTests {
  static let builders: [(String, MediaType, @Sendable (String) -> [UInt8])] = [
    ("jpeg", .jpeg, { Fixtures.jpeg(width: 20, height: 13, seed: $0) }),
    ("png", .png, { Fixtures.png(width: 20, height: 13, seed: $0) }),
    ("heic", .heic, { Fixtures.heic(width: 640, height: 480, seed: $0) }),
    ("mov", .mov, { Fixtures.quickTimeMovie(seed: $0) }),
    ("mp4", .mp4, { Fixtures.mpeg4Movie(seed: $0) }),
  ]

  @Test(arguments: builders.map { ($0.0, $0.1) })
  func bytesSniffAsTheirFormat(_ name: String, _ type: MediaType) {
    let build = Self.builders.first { $0.0 == name }!.2
    #expect(MediaType.sniff(build("one")) == type)
  }

  @Test(arguments: builders.map(\.0))
  func seedsMakeDistinctButReproducibleBytes(_ name: String) {
    let build = Self.builders.first { $0.0 == name }!.2
    #expect(build("one") == build("one"))
    #expect(build("one") != build("two"))
  }

  @Test func jpegDeclaresItsSizeInTheFrameHeader() {
    let bytes = Fixtures.jpeg(width: 300, height: 200)
    let sof = bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }!
    #expect(Int(bytes[sof + 5]) << 8 | Int(bytes[sof + 6]) == 200)
    #expect(Int(bytes[sof + 7]) << 8 | Int(bytes[sof + 8]) == 300)
    #expect(bytes.suffix(2) == [0xFF, 0xD9])
  }

  @Test func pngChunksCarryValidCRCs() {
    let bytes = Fixtures.png(width: 4, height: 3, seed: "crc")
    var offset = 8
    var types: [String] = []
    while offset + 8 <= bytes.count {
      let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
      let body = Array(bytes[(offset + 4)..<(offset + 8 + length)])
      let stored = bytes[(offset + 8 + length)..<(offset + 12 + length)].reduce(UInt32(0)) {
        $0 << 8 | UInt32($1)
      }
      #expect(crc(body) == stored)
      types.append(String(decoding: body.prefix(4), as: UTF8.self))
      offset += 12 + length
    }
    #expect(types == ["IHDR", "tEXt", "IDAT", "IEND"])
  }

  @Test func heicNamesItsSizeInAnIspeBox() {
    let bytes = Fixtures.heic(width: 4032, height: 3024)
    let ispe = Array("ispe".utf8)
    let at = bytes.indices.first { Array(bytes[$0..<min($0 + 4, bytes.count)]) == ispe }!
    let width = bytes[(at + 8)..<(at + 12)].reduce(0) { $0 << 8 | Int($1) }
    let height = bytes[(at + 12)..<(at + 16)].reduce(0) { $0 << 8 | Int($1) }
    #expect(width == 4032 && height == 3024)
  }

  /// CRC-32 (ISO 3309), written independently of the fixture builder's.
  private func crc(_ bytes: [UInt8]) -> UInt32 {
    let table: [UInt32] = (0..<256).map { n in
      (0..<8).reduce(UInt32(n)) { c, _ in c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return ~bytes.reduce(0xFFFF_FFFF) { table[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
  }
}
