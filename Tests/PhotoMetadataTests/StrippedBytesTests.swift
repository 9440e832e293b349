import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// Stripping must erase a location, not merely make it unreachable: a copy whose GPS IFD pointer is gone but
/// whose latitude rationals are still in the file passes exiftool's tag check yet leaks the place to anyone
/// with a hex editor. So the needles here are the value bytes themselves, as exiftool (an oracle that shares
/// no code with the stripper) dumps them from the original: EXIF GPS rationals, XMP `exif:GPS*` text and
/// QuickTime `©xyz` / `location.ISO6709` strings.
struct StrippedBytesTests {
  /// Every fixture with a location, and the number of location values exiftool must find in it, so that a
  /// change in exiftool's output cannot turn the test into one that checks nothing.
  static let cases: [(name: String, values: Int)] = [
    ("jpeg-orientation-1.jpg", 2),  // EXIF GPS IFD, big-endian
    ("jpeg-orientation-6.jpg", 2),
    ("jpeg-xmp-gps.jpg", 2),  // XMP APP1 only
    ("heic-exif-thumbnail.heic", 4),  // Exif item through iloc, and an XMP item
    ("png-exif.png", 2),  // eXIf chunk
    ("png-xmp.png", 2),  // XMP in iTXt
    ("webp-lossy-exif.webp", 4),  // EXIF and "XMP " chunks
    ("gif-xmp.gif", 2),
    ("tiff-little-endian.tif", 2),
    ("tiff-big-endian.tif", 2),
    ("mov-location.mov", 1),  // ©xyz user data
    ("mov-apple-keys.mov", 1),  // com.apple.quicktime.location.ISO6709
  ]

  @Test(arguments: cases)
  func locationValueBytesAreGoneFromTheCopy(name: String, values: Int) throws {
    let original = try TestSupport.bytes(name)
    let needles = try Self.locationValues(TestSupport.fixture(name))
    #expect(needles.count == values, "exiftool found \(needles.map(\.label)) in \(name)")
    let stripped = try LocationStripper.strip(bytes: original).bytes
    for needle in needles {
      // The needle is really in the original, so its absence below means something.
      #expect(original.firstRange(of: needle.bytes) != nil, "\(name): \(needle.label) not in the original")
      #expect(
        stripped.firstRange(of: needle.bytes) == nil,
        "\(name): the bytes of \(needle.label) are still in the stripped copy")
    }
  }

  @Test func mpfSecondaryImageLosesItsGPSValueBytes() throws {
    // The second image of an MPF file (CIPA DC-007) has its own EXIF; exiftool -ee dumps its GPS values.
    let folder = TemporaryDirectory()
    let bytes = try #require(try CraftedFiles.all().first { $0.name == "crafted-mpf.jpg" }).bytes
    let path = try folder.write("crafted-mpf.jpg", bytes)
    let needles = try Self.locationValues(URL(fileURLWithPath: path), extra: ["-ee"])
    #expect(!needles.isEmpty)
    let stripped = try LocationStripper.strip(bytes: bytes).bytes
    for needle in needles {
      #expect(bytes.firstRange(of: needle.bytes) != nil, "\(needle.label) not in the original")
      #expect(stripped.firstRange(of: needle.bytes) == nil, "\(needle.label) still in the stripped copy")
    }
  }

  struct Needle {
    var label: String
    var bytes: [UInt8]
  }

  /// The stored bytes of every GPSLatitude, GPSLongitude and GPSCoordinates value, from `exiftool -v3`.
  ///
  /// For binary tags exiftool prints `- Tag 0x0002 (24 bytes, rational64u[3]):` followed by a hex dump of the
  /// value as stored; for XMP it prints `- Tag 'x:xmpmeta/…'` and the value line holds the property text.
  static func locationValues(_ url: URL, extra: [String] = []) throws -> [Needle] {
    let result = try TestSupport.run("exiftool", ["-v3"] + extra + [url.path])
    let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map {
      String($0.drop { $0 == "|" || $0 == " " })
    }
    let names = ["GPSLatitude", "GPSLongitude", "GPSCoordinates"]
    var needles: [Needle] = []
    for (index, line) in lines.enumerated() where index + 1 < lines.count {
      // "2)  GPSLatitude = 48 51 30.132 (48/1 51/1 7533/250)" or "GPSLatitude = 40,45.48N".
      let body = line.drop { $0.isNumber || $0 == ")" || $0 == " " }
      guard let name = names.first(where: { body.hasPrefix($0 + " = ") }) else { continue }
      let tag = lines[index + 1]
      guard tag.hasPrefix("- Tag ") else { continue }
      if tag.contains("x:xmpmeta") {
        needles.append(Needle(label: "XMP \(name)", bytes: Array(body.dropFirst(name.count + 3).utf8)))
        continue
      }
      var bytes: [UInt8] = []
      for dump in lines[(index + 2)...] {
        // "01b4: 00 00 00 30 … [...0.......3....]": 16 hex columns, 48 characters, then the ASCII column.
        guard let colon = dump.firstIndex(of: ":"), dump[..<colon].allSatisfy(\.isHexDigit),
          !dump[..<colon].isEmpty
        else { break }
        let hex = dump[dump.index(colon, offsetBy: 2)...].prefix(48)
        bytes += hex.split(separator: " ").compactMap { UInt8($0, radix: 16) }
      }
      guard !bytes.isEmpty, !lines[(index + 2)...].prefix(4).contains(where: { $0.contains("[snip") }) else {
        continue
      }
      needles.append(Needle(label: "\(name) \(tag.dropFirst(6).prefix { $0 != " " })", bytes: bytes))
    }
    return needles
  }
}
