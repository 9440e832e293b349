import Testing

@testable import PhotoMetadata

struct SniffingTests {
  static let cases: [(String, [UInt8], MediaType?)] = [
    ("jpeg", [0xFF, 0xD8, 0xFF, 0xE1, 0, 0], .jpeg),
    ("png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], .png),
    ("gif", Array("GIF89a".utf8) + [1, 0], .gif),
    ("webp", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
    ("tiff le", [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0], .tiff),
    ("tiff be", [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0], .tiff),
    ("cr2", [0x49, 0x49, 0x2A, 0x00, 16, 0, 0, 0, 0x43, 0x52, 0x02, 0x00], .cr2),
    ("heic", ftyp("heic", ["mif1", "heic"]), .heic),
    ("mif1 major, heic compatible", ftyp("mif1", ["mif1", "heic"]), .heic),
    ("plain heif", ftyp("mif1", ["mif1"]), .heif),
    ("avif", ftyp("avif", ["mif1", "avif", "miaf"]), .avif),
    ("cr3", ftyp("crx ", ["crx ", "isom"]), .cr3),
    ("mov", ftyp("qt  ", ["qt  "]), .mov),
    ("mp4", ftyp("isom", ["isom", "iso2", "avc1", "mp41"]), .mp4),
    ("m4v", ftyp("M4V ", ["M4V ", "M4A ", "mp42", "isom"]), .m4v),
    ("text", Array("hello, world".utf8), nil),
    ("too short", [0xFF, 0xD8], nil),
    ("empty", [], nil),
    ("pdf", Array("%PDF-1.7\n".utf8), nil),
  ]

  static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
    let size = 16 + 4 * compatible.count
    var bytes: [UInt8] = [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
    for brand in compatible { bytes += Array(brand.utf8) }
    return bytes
  }

  @Test(arguments: cases)
  func sniffsFromBytes(_ name: String, _ bytes: [UInt8], _ expected: MediaType?) {
    #expect(MediaType.sniff(bytes) == expected, "\(name)")
  }

  @Test func hintsAreParsedButNeverDecide() {
    #expect(MediaType(hint: ".JPG") == .jpeg)
    #expect(MediaType(hint: "public.heic") == .heic)
    #expect(MediaType(hint: "txt") == nil)
    // A PNG named .jpg is still a PNG.
    #expect(MediaType.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
  }
}
