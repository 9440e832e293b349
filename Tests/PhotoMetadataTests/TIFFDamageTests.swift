import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// TIFF shapes that failed on real files (issue 26): BigTIFF, and a damaged Exif or GPS IFD pointer. The
/// fixtures are made by `Scripts/make-metadata-fixtures.sh` from our own CC0 TIFF fixtures
/// (`Scripts/tiff-to-bigtiff.py`, `Scripts/tiff-break-pointer.py`).
struct TIFFDamageTests {
  // MARK: BigTIFF

  @Test(arguments: ["bigtiff-little-endian.tif", "bigtiff-big-endian.tif"])
  func bigTIFFGivesTheFactsOfItsClassicTwin(_ name: String) throws {
    let metadata = try MetadataReader.read(fileAt: TestSupport.fixture(name).path)
    let twin = try MetadataReader.read(
      fileAt: TestSupport.fixture(name.replacingOccurrences(of: "bigtiff", with: "tiff")).path)
    #expect(metadata.type == .tiff)
    #expect(metadata.width == 64 && metadata.height == 48)
    #expect(metadata.orientation == .right)
    #expect(metadata.make == "Nikon" && metadata.model == "D850")
    #expect(metadata.captureDate?.local == "2019-05-06T07:08:09")
    #expect(metadata.captureDate?.offsetString == "+05:30")
    #expect(abs((metadata.location?.latitude ?? 0) - 28.6139) < 1e-6)
    #expect(metadata.warnings.isEmpty)
    #expect(metadata == twin)
    // The canvas scan walks the same directories.
    let canvas = try CanvasScanner.largestCanvas(fileAt: TestSupport.fixture(name).path)
    #expect(canvas == PixelSize(width: 64, height: 48))
  }

  @Test func bigTIFFAgreesWithExiftool() throws {
    let names = ["bigtiff-little-endian.tif", "bigtiff-big-endian.tif"]
    let oracle = try TestSupport.exiftool(names.map { TestSupport.fixture($0).path })
    #expect(oracle.count == 2)
    for (name, facts) in zip(names, oracle) {
      let metadata = try MetadataReader.read(fileAt: TestSupport.fixture(name).path)
      #expect(facts["File:FileType"] as? String == "BTF", "\(name)")
      #expect(facts["EXIF:ImageWidth"] as? Int == metadata.width, "\(name)")
      #expect(facts["EXIF:ImageHeight"] as? Int == metadata.height, "\(name)")
      #expect(facts["EXIF:Orientation"] as? Int == metadata.orientation.rawValue, "\(name)")
      #expect(facts["EXIF:Make"] as? String == metadata.make, "\(name)")
      #expect(facts["EXIF:DateTimeOriginal"] as? String == "2019:05:06 07:08:09", "\(name)")
    }
  }

  /// BigTIFF as the realfiles set had it: a LONG8 ImageWidth, an IFD8 SubIFDs pointer to the full-size
  /// image, an entry count of 8 bytes, a value of up to 8 bytes inline.
  @Test func bigTIFFReadsLong8AndIFD8Pointers() throws {
    for bigEndian in [false, true] {
      let file = BigTIFFBuilder(bigEndian: bigEndian).reducedWithSubIFD()
      let metadata = try MetadataReader.read(bytes: file)
      #expect(metadata.type == .tiff)
      #expect(metadata.width == 4000 && metadata.height == 3000, "full-size SubIFD, bigEndian \(bigEndian)")
      #expect(metadata.make == "Scanner")
      #expect(try CanvasScanner.largestCanvas(bytes: file) == PixelSize(width: 4000, height: 3000))
    }
  }

  @Test func bigTIFFHeaderAndTablesAreChecked() throws {
    let good = BigTIFFBuilder(bigEndian: false).reducedWithSubIFD()
    var offsetSize = good
    offsetSize[4] = 4
    #expect(throws: MetadataError.corrupt("BigTIFF header declares 4-byte offsets")) {
      try MetadataReader.read(bytes: offsetSize)
    }
    // A first IFD inside the 16-byte header.
    var inHeader = good
    inHeader.replaceSubrange(8..<16, with: BigTIFFBuilder.le64(12))
    #expect(throws: MetadataError.corrupt("IFD offset 12 points into the TIFF header")) {
      try MetadataReader.read(bytes: inHeader)
    }
    // An 8-byte entry count beyond the limit, and one near 2^64, are never allocated: the stripper refuses
    // them, and readers read the entries the file holds, at most the limit, with a warning (issue 26).
    for count: UInt64 in [5000, .max] {
      var many = good
      let ifd0 = Int(BigTIFFBuilder.readLE64(good, at: 8))
      many.replaceSubrange(ifd0..<(ifd0 + 8), with: BigTIFFBuilder.le64(count))
      #expect(throws: MetadataError.limitExceeded("\(count) entries in one IFD")) {
        try LocationStripper.strip(bytes: many)
      }
      let metadata = try MetadataReader.read(bytes: many)
      #expect(
        metadata.warnings.contains { $0.part == .tiffDirectory && $0.reason.contains("\(count) entries") })
    }
    // An offset near 2^64 is past the file, not an overflow.
    var far = good
    far.replaceSubrange(8..<16, with: BigTIFFBuilder.le64(.max - 3))
    #expect(throws: MetadataError.truncated) { try MetadataReader.read(bytes: far) }
    // Cut anywhere: a typed error or facts, never a crash.
    for length in stride(from: 0, to: good.count, by: 3) {
      _ = try? MetadataReader.read(bytes: Array(good.prefix(length)))
    }
  }

  /// Seeded random mutations of both BigTIFF fixtures: every read ends in facts or a `MetadataError`, fast.
  @Test func mutatedBigTIFFNeverCrashes() throws {
    var generator = SeededGenerator(seed: 43)
    for name in ["bigtiff-little-endian.tif", "bigtiff-big-endian.tif"] {
      let original = try TestSupport.bytes(name)
      // The header and the tables matter: tiff-to-bigtiff.py writes the pixels first, then values and IFDs.
      let tables = original.count - 600
      for _ in 0..<300 {
        var bytes = original
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
          let at =
            Bool.random(using: &generator)
            ? Int.random(in: 0..<16, using: &generator)
            : Int.random(in: tables..<bytes.count, using: &generator)
          bytes[at] = UInt8.random(in: 0...255, using: &generator)
        }
        let clock = ContinuousClock()
        let start = clock.now
        _ = try? MetadataReader.read(bytes: bytes)
        _ = try? CanvasScanner.survey(bytes: bytes)
        _ = try? LocationStripper.strip(bytes: bytes)
        #expect(clock.now - start < .milliseconds(200))
      }
    }
  }

  /// The GPS IFD of a BigTIFF goes as a TIFF's does: IFD0's 20-byte entry dropped, the GPS table zeroed,
  /// nothing moved (StripTests then checks with exiftool and libvips that location is gone, pixels equal).
  @Test(arguments: ["bigtiff-little-endian.tif", "bigtiff-big-endian.tif"])
  func bigTIFFLocationIsStrippedInPlace(_ name: String) throws {
    let original = try TestSupport.bytes(name)
    let (stripped, report) = try LocationStripper.strip(bytes: original)
    #expect(report.removedLocation)
    #expect(stripped.count == original.count)
    let after = try MetadataReader.read(bytes: stripped)
    #expect(after.location == nil)
    #expect(after.make == "Nikon" && after.orientation == .right)
    #expect(after.captureDate?.local == "2019-05-06T07:08:09")
    // The pixels (the strip right after the 16-byte header) are untouched.
    #expect(stripped[16..<(16 + 64 * 48 * 6)] == original[16..<(16 + 64 * 48 * 6)])
  }

  // MARK: A damaged Exif or GPS IFD

  @Test func damagedExifPointerCostsOnlyTheExifIFD() throws {
    let path = TestSupport.fixture("tiff-bad-exif-pointer.tif").path
    let metadata = try MetadataReader.read(fileAt: path)
    #expect(metadata.width == 64 && metadata.height == 48)
    #expect(metadata.orientation == .right && metadata.make == "Nikon")
    #expect(abs((metadata.location?.latitude ?? 0) - 28.6139) < 1e-6)
    #expect(metadata.captureDate == nil)
    #expect(metadata.warnings.map(\.part) == [.exif])
    #expect(metadata.warnings.first?.reason == "the Exif IFD: it ends past the end of the file")
    // exiftool agrees: it warns about the Exif IFD and reads the rest.
    let oracle = try TestSupport.exiftool([path])
    #expect(oracle.first?["ExifTool:Warning"] as? String == "Bad ExifIFD directory")
    #expect(oracle.first?["EXIF:Make"] as? String == "Nikon")
    #expect(oracle.first?["EXIF:DateTimeOriginal"] == nil)
    // Location is not removed blindly: the stripper still reads the whole structure, and refuses.
    #expect(throws: MetadataError.truncated) {
      try LocationStripper.strip(bytes: TestSupport.bytes("tiff-bad-exif-pointer.tif"))
    }
  }

  @Test(arguments: [(UInt16(0x8769), "Exif"), (UInt16(0x8825), "GPS")])
  func damagedSubIFDInAJPEGKeepsIFD0(_ tag: UInt16, _ name: String) throws {
    // IFD0 of a camera EXIF block with the pointer aimed into the header, then past the end.
    for target: UInt32 in [2, 60_000] {
      var builder = TIFFBuilder()
      builder.directories = [
        [(0x010F, .ascii("Maker")), (0x0112, .short([6])), (tag, .raw(type: 4, count: 1, field: target))]
      ]
      let file = JPEGBuilder.inserting(
        JPEGBuilder.exifSegment(builder.build()), into: try TestSupport.bytes("jpeg-plain.jpg"))
      let metadata = try MetadataReader.read(bytes: file)
      #expect(metadata.make == "Maker" && metadata.orientation == .right, "\(name) → \(target)")
      #expect(metadata.warnings.map(\.part) == [.exif])
      #expect(metadata.warnings.first?.reason.hasPrefix("the \(name) IFD: ") == true)
    }
  }
}

/// Crafted BigTIFF files (BigTIFF design, libtiff 4): a reduced IFD0 with a LONG8 size and an IFD8 SubIFDs
/// pointer to a full-size IFD.
struct BigTIFFBuilder {
  var bigEndian: Bool

  static func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(v >> (8 * UInt64($0)) & 0xFF) } }
  static func readLE64(_ bytes: [UInt8], at: Int) -> UInt64 {
    (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
  }

  func u16(_ v: UInt16) -> [UInt8] { bigEndian ? be16(v) : be16(v).reversed() }
  func u64(_ v: UInt64) -> [UInt8] { bigEndian ? be64(v) : Self.le64(v) }

  /// An entry: tag, type, count, then the 8-byte field (inline value or offset).
  func entry(_ tag: UInt16, _ type: UInt16, _ count: UInt64, _ field: [UInt8]) -> [UInt8] {
    u16(tag) + u16(type) + u64(count) + field + [UInt8](repeating: 0, count: 8 - field.count)
  }

  func reducedWithSubIFD() -> [UInt8] {
    let header: [UInt8] = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(43) + u16(8) + u16(0)
    // IFD0 at 16: 5 entries; full-size IFD right after it; "Scanner\0" inline (8 bytes fit the field).
    let ifd0At: UInt64 = 16
    let ifd0Length: UInt64 = 8 + 5 * 20 + 8
    let subAt = ifd0At + ifd0Length
    var ifd0 = u64(5)
    ifd0 += entry(0x00FE, 4, 1, bigEndian ? be32(1) : be32(1).reversed())  // NewSubfileType: reduced
    ifd0 += entry(0x0100, 16, 1, u64(400))  // ImageWidth, LONG8
    ifd0 += entry(0x0101, 3, 1, u16(300))  // ImageLength, SHORT
    ifd0 += entry(0x010F, 2, 8, Array("Scanner".utf8) + [0])  // Make, inline
    ifd0 += entry(0x014A, 18, 1, u64(subAt))  // SubIFDs, IFD8
    ifd0 += u64(0)
    var sub = u64(3)
    sub += entry(0x00FE, 4, 1, [0, 0, 0, 0])
    sub += entry(0x0100, 16, 1, u64(4000))
    sub += entry(0x0101, 16, 1, u64(3000))
    sub += u64(0)
    return header + u64(ifd0At) + ifd0 + sub
  }
}
