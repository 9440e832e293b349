import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// Real files damaged as files in public sets were (issue 26), made from our fixtures by
/// `Scripts/damage-fixture.py`: each read gives the image's own facts, as exiftool reads them, and a warning
/// naming the damaged part, instead of failing the whole file.
struct DamagedFileTests {
  struct Case: Sendable, CustomStringConvertible {
    /// The damaged fixture.
    var name: String
    /// The whole fixture it was made from.
    var original: String
    /// The part the damage must be reported as.
    var part: MetadataWarning.Part
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(name: "damaged-tiff-entries.tif", original: "tiff-little-endian.tif", part: .tiffDirectory),
    Case(name: "damaged-png-chunk-length.png", original: "png-exif.png", part: .remainder),
    Case(name: "damaged-gif-cut.gif", original: "gif-xmp.gif", part: .remainder),
    Case(name: "damaged-jpeg-soi-bytes.jpg", original: "jpeg-orientation-6.jpg", part: .extraneousBytes),
    Case(name: "damaged-jpeg-cut-scan.jpg", original: "jpeg-thumbnail-icc.jpg", part: .remainder),
    Case(name: "damaged-jpeg-stray-frame.jpg", original: "jpeg-orientation-6.jpg", part: .remainder),
    Case(name: "damaged-heic-cut.heic", original: "heic-exif-thumbnail.heic", part: .remainder),
    Case(name: "damaged-mov-cut.mov", original: "mov-apple-keys.mov", part: .remainder),
  ]

  @Test(arguments: cases)
  func theImageFactsSurviveWithAWarning(_ testCase: Case) throws {
    let metadata = try MetadataReader.read(fileAt: TestSupport.fixture(testCase.name).path)
    let original = try MetadataReader.read(fileAt: TestSupport.fixture(testCase.original).path)
    #expect(metadata.type == original.type)
    #expect(metadata.width == original.width && metadata.height == original.height)
    // The PNG's eXIf chunk lies past the impossible length, where no reader can find it.
    let orientation = testCase.name.hasSuffix(".png") ? .up : original.orientation
    #expect(metadata.orientation == orientation)
    #expect(metadata.warnings.contains { $0.part == testCase.part }, "\(metadata.warnings)")
    #expect(original.warnings.isEmpty)
    // What lay outside the damage is still read.
    switch testCase.name {
    case "damaged-tiff-entries.tif":
      // Make and Model were the damaged entries; the date and the GPS IFD are intact.
      #expect(metadata.make == nil && metadata.model == nil)
      #expect(metadata.captureDate == original.captureDate && metadata.location == original.location)
      #expect(metadata.warnings.contains { $0.part == .thumbnail && $0.reason.contains("IFD1") })
    case "damaged-gif-cut.gif", "damaged-mov-cut.mov", "damaged-jpeg-soi-bytes.jpg",
      "damaged-jpeg-stray-frame.jpg":
      #expect(metadata.location == original.location && metadata.captureDate == original.captureDate)
      #expect(metadata.livePhotoID == original.livePhotoID && metadata.make == original.make)
    case "damaged-jpeg-cut-scan.jpg":
      #expect(metadata.previews == original.previews && metadata.captureDate == original.captureDate)
    case "damaged-heic-cut.heic":
      // The items whose bytes were cut off are warnings of their own; the thumbnail item is still listed.
      #expect(metadata.previews.map(\.itemID) == original.previews.map(\.itemID))
      #expect(metadata.warnings.contains { $0.part == .exif })
    default:
      break
    }
  }

  /// exiftool reads the size of each (the realfiles measure): we read the same one.
  @Test func exiftoolReadsTheSameSize() throws {
    let names = Self.cases.map(\.name).filter { $0 != "damaged-jpeg-soi-bytes.jpg" }
    let oracle = try TestSupport.exiftool(names.map { TestSupport.fixture($0).path }, extra: ["-ImageSize"])
    #expect(oracle.count == names.count)
    for (name, facts) in zip(names, oracle) {
      let metadata = try MetadataReader.read(fileAt: TestSupport.fixture(name).path)
      let size = try #require(facts["Composite:ImageSize"] as? String, "\(name): \(facts)")
      #expect(size == "\(metadata.width ?? 0) \(metadata.height ?? 0)", "\(name)")
    }
  }

  /// libjpeg skips bytes after SOI and a stuffed zero between segments ("extraneous bytes before marker") and
  /// libvips decodes the picture; the bytes still say JPEG, and the reader finds the size libvips finds.
  @Test func strayBytesAfterStartOfImageStillMakeAJPEG() throws {
    let path = TestSupport.fixture("damaged-jpeg-soi-bytes.jpg").path
    #expect(MediaType.sniff(try TestSupport.bytes("damaged-jpeg-soi-bytes.jpg")) == .jpeg)
    let metadata = try MetadataReader.read(fileAt: path)
    #expect(metadata.warnings.filter { $0.part == .extraneousBytes }.count == 2)
    let header = try TestSupport.run("vipsheader", ["-f", "width", path])
    #expect(
      String(decoding: header.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "64")
    // Random bytes after FF D8 are no JPEG.
    #expect(MediaType.sniff([0xFF, 0xD8] + [UInt8](repeating: 0x41, count: 64)) == nil)
  }

  /// The stripper must copy a whole file and see every byte that may hold location: it refuses each damaged
  /// one, except stray bytes between JPEG segments, which it copies as they are, location removed.
  @Test(arguments: cases)
  func theStripperRefusesDamage(_ testCase: Case) throws {
    let bytes = try TestSupport.bytes(testCase.name)
    guard testCase.name != "damaged-jpeg-soi-bytes.jpg" else {
      let stripped = try LocationStripper.strip(bytes: bytes)
      #expect(try MetadataReader.read(bytes: stripped.bytes).location == nil)
      return
    }
    #expect(throws: MetadataError.self) { try LocationStripper.strip(bytes: bytes) }
  }
}
