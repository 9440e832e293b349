import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// Damage inside one structure of a HEIF `meta` box, as in fuzzed files of public sets (metadata-extractor-images'
/// `NegativeArraySizeException.ItemInfoBox.init.heif`; issue 26): the entries read before it are kept with a
/// warning, and the image's size is read as exiftool reads it. The damaged files are made here from our own
/// fixtures.
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
}
