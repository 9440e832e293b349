import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// `ExifCarryOver`: the EXIF block a converted copy takes along, read back by our reader, for both byte
/// orders, with and without GPS, and on damaged blocks.
struct ExifCarryOverTests {
  let folder = TemporaryDirectory()

  /// A JPEG whose EXIF is `tiff`, written to the test's folder.
  func jpeg(_ tiff: [UInt8]) throws -> String {
    try folder.write(
      "photo.jpg",
      JPEGBuilder.inserting(JPEGBuilder.exifSegment(tiff), into: try TestSupport.bytes("jpeg-plain.jpg")))
  }

  @Test(arguments: [true, false], [true, false])
  func theBlockIsPatchedInPlace(bigEndian: Bool, removeLocation: Bool) throws {
    let note = AppleMakerNoteBuilder.note(contentIdentifier: "5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D")
    let tiff = TIFFBuilder.camera(orientation: 6, makerNote: note, bigEndian: bigEndian)
    let path = try jpeg(tiff)
    let payload = try #require(
      try ExifCarryOver.app1Payload(fileAt: path, width: 300, height: 200, removeLocation: removeLocation))
    #expect(payload.count == tiff.count + 6, "nothing moves: the block keeps its length")
    // Read back as the EXIF of a JPEG made with it.
    let copy = JPEGBuilder.inserting(
      JPEGBuilder.segment(0xE1, payload), into: try TestSupport.bytes("jpeg-plain.jpg"))
    let metadata = try MetadataReader.read(bytes: copy)
    #expect(metadata.orientation == .up)
    #expect(metadata.captureDate?.local == "2023-09-22T08:30:00")
    #expect(metadata.make == "Apple" && metadata.model == "iPhone 15 Pro")
    #expect(metadata.livePhotoID == "5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D")
    #expect((metadata.location == nil) == removeLocation)
  }

  @Test func aFileWithoutEXIFHasNothingToCarry() throws {
    let path = try folder.write("plain.jpg", try TestSupport.bytes("jpeg-plain.jpg"))
    #expect(try ExifCarryOver.app1Payload(fileAt: path, width: 1, height: 1, removeLocation: true) == nil)
  }

  @Test func aDamagedBlockIsAnError() throws {
    var tiff = TIFFBuilder.camera(orientation: 6)
    // IFD0's offset points past the end of the block.
    tiff.replaceSubrange(4..<8, with: [0x7F, 0, 0, 0])
    let path = try jpeg(tiff)
    #expect(throws: MetadataError.self) {
      try ExifCarryOver.app1Payload(fileAt: path, width: 1, height: 1, removeLocation: false)
    }
  }
}
