import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// The real-camera shapes of issue 26 (fixtures by Scripts/make-shape-fixtures.sh): both Exif item forms, an
/// empty Exif item, image sequences, gain maps, depth, stereo pairs and alpha, each checked against exiftool.
struct ShapeTests {
  static func read(_ name: String) throws -> MediaMetadata {
    try MetadataReader.read(fileAt: TestSupport.fixture(name).path)
  }

  static func exiftool(_ name: String) throws -> [String: Any] {
    try TestSupport.exiftool([TestSupport.fixture(name).path]).first ?? [:]
  }

  @Test func exifItemWithoutOffsetPrefixIsRead() throws {
    let ours = try Self.read("shape-exif-no-offset.heic")
    let tags = try Self.exiftool("shape-exif-no-offset.heic")
    #expect(ours.make == tags["EXIF:Make"] as? String)
    #expect(ours.make == "Shape")
    #expect(ours.captureDate?.local == "2024-05-06T07:08:09")
    #expect(ours.width == tags["File:ImageWidth"] as? Int ?? 64)
    #expect(ours.warnings.isEmpty)
  }

  @Test func emptyExifItemCostsOnlyTheExifFacts() throws {
    let ours = try Self.read("shape-exif-empty.heic")
    let tags = try Self.exiftool("shape-exif-empty.heic")
    #expect(tags["EXIF:Make"] == nil)
    #expect(ours.make == nil)
    #expect(ours.width == 64 && ours.height == 48)
    #expect(ours.warnings.map(\.part) == [.exif])
    #expect(ours.warnings.first?.reason == "the Exif item is empty")
  }

  @Test func bothExifItemFormsGiveTheSameTIFFHeader() throws {
    let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0]
    #expect(try HEIFReader.tiffBase(ofExifItem: [0, 0, 0, 6] + Array("Exif".utf8) + [0, 0] + tiff) == 10)
    #expect(try HEIFReader.tiffBase(ofExifItem: tiff) == 0)
    #expect(try HEIFReader.tiffBase(ofExifItem: Array("Exif".utf8) + [0, 0] + tiff) == 6)
    #expect(throws: MetadataError.self) { try HEIFReader.tiffBase(ofExifItem: []) }
    #expect(throws: MetadataError.self) { try HEIFReader.tiffBase(ofExifItem: [0, 0, 0, 99, 1, 2, 3]) }
  }

  @Test func damagedExifInJPEGIsAWarningNotAFailure() throws {
    // A real JPEG whose APP1 EXIF payload is cut to a TIFF header pointing past its end.
    var bytes = try TestSupport.bytes("jpeg-orientation-6.jpg")
    let signature = Array("Exif".utf8) + [0, 0]
    let at = try #require(bytes.firstRange(of: signature)).upperBound
    bytes.replaceSubrange((at + 4)..<(at + 8), with: [0x7F, 0xFF, 0xFF, 0xFF])
    let ours = try MetadataReader.read(bytes: bytes)
    #expect(ours.width != nil)
    #expect(ours.warnings.map(\.part) == [.exif])
  }

  @Test func gifXMPWithoutTrailerIsAWarningButIsNeverStrippedBlindly() throws {
    // Screen 4×4, no colour table; an XMP extension cut before its magic trailer; one image; trailer.
    let screen: [UInt8] = Array("GIF89a".utf8) + [4, 0, 4, 0, 0, 0, 0]
    let xmp: [UInt8] = [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + [3] + Array("abc".utf8) + [0]
    let image: [UInt8] = [0x2C, 0, 0, 0, 0, 4, 0, 4, 0, 0, 2, 0, 0x3B]
    let bytes = screen + xmp + image
    let ours = try MetadataReader.read(bytes: bytes)
    #expect(ours.width == 4 && ours.height == 4)
    #expect(ours.warnings.map(\.part) == [.xmp])
    #expect(throws: MetadataError.self) { try LocationStripper.strip(bytes: bytes) }
  }

  @Test func imageSequenceIsAPhotoWithFrames() throws {
    let ours = try Self.read("shape-sequence.heics")
    let tags = try Self.exiftool("shape-sequence.heics")
    #expect(ours.type == .heics)
    #expect(ours.type.isImage)
    #expect(ours.width == tags["QuickTime:ImageWidth"] as? Int)
    #expect(ours.height == tags["QuickTime:ImageHeight"] as? Int)
    #expect(ours.frameCount == 3)
    let duration = try #require(tags["QuickTime:Duration"] as? Double)
    #expect(abs((ours.duration ?? 0) - duration) < 0.01)
  }

  @Test(arguments: [
    ("shape-alpha.heic", HDRGainMap.none, false, false, true),
    ("shape-gainmap-apple.heic", .apple, false, false, false),
    ("shape-gainmap-iso.heic", .iso, false, false, false),
    ("shape-depth.heic", .none, true, false, false),
    ("shape-stereo.heic", .none, false, true, true),
    ("shape-exif-no-offset.heic", .none, false, false, false),
  ])
  func auxiliaryFacts(name: String, gainMap: HDRGainMap, depth: Bool, stereo: Bool, alpha: Bool) throws {
    let ours = try Self.read(name)
    #expect(ours.hdrGainMap == gainMap)
    #expect(ours.hasGainMap == (gainMap != .none))
    #expect(ours.hasDepth == depth)
    #expect(ours.isStereoPair == stereo)
    #expect(ours.hasAlpha == alpha)
    // exiftool names the auxiliary image's type; ours must agree on which kind it is.
    let tags = try Self.exiftool(name)
    let aux = tags["QuickTime:AuxiliaryImageType"] as? String
    #expect((aux?.contains("hdrgainmap") ?? false) == (gainMap != .none))
    #expect((aux == "urn:mpeg:hevc:2015:auxid:2") == depth)
  }

  @Test func factsStoredBeforeTheNewFieldsStillDecode() throws {
    let old =
      #"{"type":"heic","width":4,"height":3,"orientation":1,"hasICCProfile":false,"hasGainMap":true,"previews":[]}"#
    let decoded = try JSONDecoder().decode(MediaMetadata.self, from: Data(old.utf8))
    #expect(decoded.width == 4 && decoded.hasGainMap)
    #expect(decoded.hdrGainMap == nil)
    #expect(decoded.warnings.isEmpty && !decoded.hasDepth && decoded.frameCount == nil)
    var current = try Self.read("shape-exif-empty.heic")
    current.frameCount = 2
    let again = try JSONDecoder().decode(MediaMetadata.self, from: try JSONEncoder().encode(current))
    #expect(again == current)
  }
}
