import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// Camera raws (issue 26): sniffed by their own magic or IFD0, sized as exiftool sizes them, and their
/// embedded previews found — never their sensor data. The fixtures are made by `Scripts/raw-fixtures.py`
/// (JPEGs by libvips, a lossless JPEG by FFmpeg, the containers as the formats lay them out), except two
/// cut-down camera files from ExifTool's test images (RawFixtures/README.md).
struct RawTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("RawFixtures")

  static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  struct Expected: Sendable, CustomTestStringConvertible {
    var file: String
    var type: MediaType
    var size: (Int, Int)
    var orientation: Orientation
    var make: String
    /// The previews' sizes and coded types, largest first.
    var previews: [(Int, Int, MediaType)]

    var testDescription: String { file }
  }

  static let expected: [Expected] = [
    Expected(
      file: "raw-nef.nef", type: .nef, size: (198, 132), orientation: .right, make: "NIKON CORPORATION",
      previews: [(192, 128, .jpeg), (24, 16, .tiff)]),
    // The sensor data is a lossless JPEG (SOF3) in a JPEG-compressed directory: not a preview.
    Expected(
      file: "raw-dng.dng", type: .dng, size: (198, 132), orientation: .left, make: "Google",
      previews: [(192, 128, .jpeg), (48, 32, .tiff)]),
    Expected(
      file: "raw-rw2.rw2", type: .rw2, size: (192, 128), orientation: .down, make: "Panasonic",
      previews: [(192, 128, .jpeg)]),
    Expected(
      file: "raw-orf.orf", type: .orf, size: (96, 64), orientation: .up, make: "OLYMPUS IMAGING CORP.",
      previews: []),
    // RawImageCroppedSize (192×128), not RawImageFullSize (200×136); the EXIF is the embedded JPEG's.
    Expected(
      file: "raw-raf.raf", type: .raf, size: (192, 128), orientation: .right, make: "FUJIFILM",
      previews: [(192, 128, .jpeg)]),
    // CIFF: ImageInfo's size and rotation (270°: shown turned back, as libraw turns it), JpgFromRaw the preview.
    Expected(
      file: "raw-crw.crw", type: .crw, size: (192, 128), orientation: .left, make: "Canon",
      previews: [(192, 128, .jpeg)]),
    // PRD's image size (not the sensor's 3272×2456); the EXIF is the TTW block's TIFF structure.
    Expected(
      file: "exiftool-minolta.mrw", type: .mrw, size: (3264, 2448), orientation: .up,
      make: "Konica Minolta Camera, Inc.", previews: []),
    // The header's size (version 2.x); make and model from the properties (UTF-16).
    Expected(
      file: "exiftool-sigma.x3f", type: .x3f, size: (2268, 1512), orientation: .up, make: "SIGMA",
      previews: []),
  ]

  @Test(arguments: expected) func readsRaw(_ expected: Expected) throws {
    let metadata = try MetadataReader.read(fileAt: Self.path(expected.file))
    #expect(metadata.type == expected.type)
    #expect(metadata.type.isRaw)
    #expect(metadata.width == expected.size.0 && metadata.height == expected.size.1)
    #expect(metadata.orientation == expected.orientation)
    #expect(metadata.make == expected.make)
    #expect(metadata.hintedType == nil)
    #expect(metadata.warnings.isEmpty)
    let previews = metadata.previews.filter { $0.kind == .rawPreview }
    #expect(previews.map { [$0.width ?? 0, $0.height ?? 0] } == expected.previews.map { [$0.0, $0.1] })
    #expect(previews.map(\.type) == expected.previews.map(\.2))
    #expect(previews.allSatisfy { $0.isDisplayPreview })
    // Each preview's bytes are what they claim: a JPEG from SOI, or exactly width × height × 3 samples.
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.path(expected.file))))
    for preview in previews {
      let offset = try #require(preview.offset), length = try #require(preview.length)
      #expect(offset + length <= bytes.count)
      if preview.type == .jpeg {
        #expect(Array(bytes[offset..<(offset + 2)]) == [0xFF, 0xD8])
        let embedded = try MetadataReader.read(bytes: Array(bytes[offset..<(offset + length)]))
        #expect(embedded.width == preview.width && embedded.height == preview.height)
      } else {
        #expect(length == (preview.width ?? 0) * (preview.height ?? 0) * 3)
      }
    }
  }

  /// exiftool's ImageSize (its Composite tag: the sensor's image area, RW2's borders, RAF's cropped size) is
  /// ours for every fixture, and exiftool calls each file what we do.
  @Test func sizesAgreeWithExiftool() throws {
    let paths = Self.expected.map { Self.path($0.file) }
    let reports = try TestSupport.exiftool(paths)
    #expect(reports.count == paths.count)
    for (expected, tags) in zip(Self.expected, reports) {
      let size = (tags["Composite:ImageSize"] as? String)?.split(separator: " ").compactMap { Int($0) }
      #expect(size == [expected.size.0, expected.size.1], Comment(rawValue: expected.file))
      let fileType = tags["File:FileType"] as? String
      let named = expected.type == .rw2 ? ["RW2", "RAW"] : [expected.type.rawValue.uppercased()]
      #expect(fileType.map(named.contains) == true, Comment(rawValue: "\(expected.file): \(fileType ?? "?")"))
    }
  }

  @Test func sniffsRawMagics() {
    #expect(MediaType.sniff(Array("IIRO".utf8) + [8, 0, 0, 0]) == .orf)
    #expect(MediaType.sniff(Array("IIRS".utf8) + [8, 0, 0, 0]) == .orf)
    #expect(MediaType.sniff(Array("MMOR".utf8) + [0, 0, 0, 8]) == .orf)
    #expect(MediaType.sniff([0x49, 0x49, 0x55, 0x00, 8, 0, 0, 0]) == .rw2)
    #expect(MediaType.sniff(Array("FUJIFILMCCD-RAW 0201".utf8)) == .raf)
    #expect(MediaType(hint: "RWL") == .rw2)
    #expect(MediaType(hint: "nrw") == .nef)
    #expect(MediaType.sniff(Array("II".utf8) + [26, 0, 0, 0] + Array("HEAPCCDR".utf8)) == .crw)
    #expect(MediaType.sniff(Array("MM".utf8) + [0, 0, 0, 26] + Array("HEAPCCDR".utf8)) == .crw)
    #expect(MediaType.sniff([0, 0x4D, 0x52, 0x4D, 0, 0, 0, 8]) == .mrw)
    #expect(MediaType.sniff(Array("FOVb".utf8) + [0, 0, 2, 0]) == .x3f)
    #expect(
      MediaType.allCases.filter(\.isRaw) == [
        .dng, .cr2, .nef, .arw, .cr3, .orf, .rw2, .pef, .raf, .srw, .crw, .mrw, .x3f,
      ])
  }

  /// Raws that keep their date outside EXIF: CIFF's TimeStamp and X3F's TIME are seconds on the camera's
  /// clock, shown as they are (no zone), as exiftool shows them; MRW's is its TTW block's EXIF.
  @Test(arguments: [
    ("raw-crw.crw", "2021-02-03T04:05:06", "Canon EOS D30"),
    ("exiftool-sigma.x3f", "2001-01-01T00:36:35", "SIGMA SD10"),
    ("exiftool-minolta.mrw", "2004-11-18T23:14:58", "DiMAGE A2"),
  ])
  func datesAndModelsOutsideEXIF(_ file: String, _ date: String, _ model: String) throws {
    let metadata = try MetadataReader.read(fileAt: Self.path(file))
    #expect(metadata.captureDate?.local == date)
    #expect(metadata.captureDate?.offsetSeconds == nil)
    #expect(metadata.model == model)
  }

  /// A NEF whose Make lies past the first 4 KiB sniffs as a TIFF; the reader decides from the whole of IFD0.
  @Test func nefWithLateMakeIsStillANEF() throws {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.path("raw-nef.nef"))))
    #expect(MediaType.sniff(bytes) == .tiff)
    #expect(try MetadataReader.read(bytes: bytes).type == .nef)
  }

  /// A raw cut anywhere reads as damaged or with fewer previews, never with a preview past the end, and never
  /// crashes.
  @Test(arguments: expected.map(\.file)) func cutRawsStayBounded(_ file: String) throws {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.path(file))))
    for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
      let prefix = Array(bytes.prefix(cut))
      guard let metadata = try? MetadataReader.read(bytes: prefix) else { continue }
      for preview in metadata.previews {
        #expect((preview.offset ?? 0) + (preview.length ?? 0) <= cut, "\(file) cut at \(cut)")
      }
    }
  }

  /// A raw's GPS is stripped like a TIFF's (the same in-place erase), except where it lies in blocks PhotoIntake
  /// does not rewrite (RAF's embedded JPEG, CIFF, MRW, X3F): those are refused, never passed on as stripped.
  @Test func stripsTIFFBasedRawsAndRefusesRAF() throws {
    for file in ["raw-nef.nef", "raw-dng.dng", "raw-rw2.rw2", "raw-orf.orf"] {
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.path(file))))
      let stripped = try LocationStripper.strip(bytes: bytes)
      #expect(stripped.bytes.count == bytes.count, Comment(rawValue: file))
    }
    for file in ["raw-raf.raf", "raw-crw.crw", "exiftool-minolta.mrw", "exiftool-sigma.x3f"] {
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.path(file))))
      #expect(throws: MetadataError.self, Comment(rawValue: file)) {
        try LocationStripper.strip(bytes: bytes)
      }
    }
  }
}
