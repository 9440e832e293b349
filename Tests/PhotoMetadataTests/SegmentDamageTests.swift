import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// Damage inside one structure of a HEIF `meta` box or of a JPEG's headers, as in fuzzed files of public sets
/// (metadata-extractor-images' `NegativeArraySizeException.ItemInfoBox.init.heif`; issue 26): the entries or
/// segments read before it are kept with a warning, and the image's size is read as exiftool reads it. The
/// damaged files are made here from our own fixtures.
struct SegmentDamageTests {
  /// `heic-exif-thumbnail.heic` with the high bit of its first `infe` entry's size set: the entry overruns
  /// `iinf`, so no entry can be delimited (exiftool: "Truncated 'infe' data").
  static func heifWithOverrunningItemInfo() throws -> [UInt8] {
    var bytes = try TestSupport.bytes("heic-exif-thumbnail.heic")
    let iinf = try #require(bytes.firstRange(of: Array("iinf".utf8))).lowerBound
    let infe = try #require(bytes[iinf...].firstRange(of: Array("infe".utf8))).lowerBound
    bytes[infe - 4] |= 0x80
    return bytes
  }

  @Test func anItemInfoEntryOverrunningItsBoxCostsOnlyTheItemEntries() throws {
    let original = try MetadataReader.read(fileAt: TestSupport.fixture("heic-exif-thumbnail.heic").path)
    let damaged = try Self.heifWithOverrunningItemInfo()
    let metadata = try MetadataReader.read(bytes: damaged)
    #expect(metadata.type == original.type)
    #expect(metadata.width == original.width && metadata.height == original.height)
    #expect(metadata.orientation == original.orientation)
    #expect(metadata.warnings.contains { $0.part == .boxes && $0.reason.contains("in 'iinf'") })
    // The decode survey still sees the primary image, whose entry was lost.
    let whole = try CanvasScanner.survey(bytes: try TestSupport.bytes("heic-exif-thumbnail.heic"))
    #expect(try CanvasScanner.survey(bytes: damaged).largestCanvas == whole.largestCanvas)
    // The stripper must see every item: it refuses.
    #expect(throws: MetadataError.self) { try LocationStripper.strip(bytes: damaged) }
    // exiftool reads the same size from the same bytes.
    let folder = TemporaryDirectory()
    let path = try folder.write("damaged-iinf.heic", damaged)
    let oracle = try TestSupport.exiftool([path], extra: ["-ImageSize"])
    #expect(
      oracle.first?["Composite:ImageSize"] as? String == "\(original.width ?? 0) \(original.height ?? 0)")
  }

  /// An APPn or COM segment whose length is 0 or 1 (less than the 2 bytes of the length itself; the shape of
  /// ImageTestSuite's `a7326ba8….jpg`): libjpeg reads the length, skips nothing and reads on to the next
  /// marker, and libvips shows the picture; the bytes up to the next confirmed marker are extraneous, with a
  /// warning. exiftool stops at such a segment, so before the frame header it reads no size at all.
  static let impossibleLengths: [(marker: UInt8, length: UInt8)] = [(0xE0, 1), (0xE0, 0), (0xFE, 1)]

  @Test(arguments: impossibleLengths)
  func anApplicationSegmentWithAnImpossibleLengthIsSkipped(marker: UInt8, length: UInt8) throws {
    let plain = try TestSupport.bytes("jpeg-orientation-6.jpg")
    let twin = try MetadataReader.read(bytes: plain)
    let bogus: [UInt8] = [0xFF, marker, 0x00, length] + Array("JFIF".utf8) + [0x00]
    let file = Array(plain[..<0x210]) + bogus + Array(plain[0x210...])
    let metadata = try MetadataReader.read(bytes: file)
    #expect(metadata.width == 64 && metadata.height == 48)
    #expect(metadata.orientation == twin.orientation && metadata.captureDate == twin.captureDate)
    #expect(metadata.warnings.map(\.part) == [.extraneousBytes])
    #expect(metadata.warnings.first?.reason.hasPrefix("\(bogus.count) bytes at offset 528") == true)
    let folder = TemporaryDirectory()
    let path = try folder.write("app-length.jpg", file)
    let width = try TestSupport.run("vipsheader", ["-f", "width", path]).output
    #expect(String(decoding: width, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "64")
  }

  /// Any other segment with a length below 2 (libjpeg fails on it): after a frame header reached through whole
  /// segments, exiftool stops there and keeps the size and the metadata before it, and so does the reader,
  /// with a `remainder` warning; before the frame header the file has no size and is damaged.
  @Test func aTableSegmentWithAnImpossibleLengthAfterTheFrameHeaderKeepsTheFacts() throws {
    let plain = try TestSupport.bytes("jpeg-orientation-6.jpg")
    let twin = try MetadataReader.read(bytes: plain)
    let bogus: [UInt8] = [0xFF, 0xDB, 0x00, 0x01]
    // 0x2C7: the second DHT. (exiftool reads each segment's successor's length before the segment itself, so
    // right after the frame header it would lose the frame header too; the reader keeps it either way.)
    let late = Array(plain[..<0x2C7]) + bogus + Array(plain[0x2C7...])
    let metadata = try MetadataReader.read(bytes: late)
    #expect(metadata.width == 64 && metadata.height == 48)
    #expect(metadata.make == twin.make && metadata.captureDate == twin.captureDate)
    #expect(metadata.orientation == twin.orientation)
    #expect(metadata.warnings.map(\.part) == [.remainder])
    #expect(
      metadata.warnings.first?.reason == "segment 0xdb has length 1 at offset 711, after the frame header")
    let folder = TemporaryDirectory()
    let path = try folder.write("dqt-length.jpg", late)
    let oracle = try TestSupport.exiftool([path], extra: ["-ImageSize"])
    #expect(oracle.first?["Composite:ImageSize"] as? String == "64 48")
    let early = Array(plain[..<0x210]) + bogus + Array(plain[0x210...])
    #expect(throws: MetadataError.corrupt("segment 0xdb has length 1")) {
      try MetadataReader.read(bytes: early)
    }
    // The location stripper copies whole files: it still refuses the damaged one.
    #expect(throws: MetadataError.self) { try LocationStripper.strip(bytes: late) }
  }
}
