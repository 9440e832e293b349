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

  /// Real EXIF blocks (JPEG, HEIC with a thumbnail IFD, PNG, WebP, AVIF, and built ones with GPS and an
  /// Apple MakerNote in both byte orders) mutated at random — bytes flipped, 16- and 32-bit fields (counts,
  /// types, offsets) set to edge values, IFD links turned into loops, the block cut short — and patched in
  /// place: each gives a block of the same length or a ``MetadataError``, never a trap. A block patched
  /// with `removeLocation` that reads back must read back without a location.
  @Test(arguments: [
    "jpeg-orientation-6.jpg", "jpeg-thumbnail-icc.jpg", "heic-exif-thumbnail.heic", "png-exif.png",
    "webp-lossy-exif.webp", "avif-exif.avif", "built-big-endian", "built-little-endian",
  ])
  func mutatedBlocksGiveABlockOrATypedError(_ source: String) throws {
    let original: [UInt8]
    if source.hasPrefix("built-") {
      let note = AppleMakerNoteBuilder.note(contentIdentifier: "5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D")
      let big = source.hasSuffix("big-endian")
      original = TIFFBuilder.camera(orientation: 6, makerNote: note, bigEndian: big)
    } else {
      let input = try Input(path: TestSupport.fixture(source).path, budget: .max)
      original = try #require(try ExifCarryOver.tiffBlock(input, limits: .default))
    }
    let edges: [UInt32] = [0, 1, 2, 7, 8, 0xFF, 0x7FFF, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]
    var generator = SeededGenerator(seed: UInt64(source.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }.magnitude))
    var outcomes = (patched: 0, refused: 0)
    for _ in 0..<600 {
      var block = original
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        let at = Int.random(in: 0..<block.count, using: &generator)
        switch Int.random(in: 0..<5, using: &generator) {
        case 0:
          block[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &generator))
        case 1, 2:
          // A field on an even offset, as TIFF lays them out: a count, a type, an offset.
          let field = at & ~1
          let value = edges.randomElement(using: &generator)!
          let width = Int.random(in: 0..<2, using: &generator) == 0 ? 2 : 4
          for index in 0..<width where field + index < block.count {
            block[field + index] = UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - index)))
          }
        case 3:
          // IFD0's next-IFD link (or any 32-bit word) pointed at IFD0 itself, or at the header.
          let field = at & ~3
          let target: UInt32 = Bool.random(using: &generator) ? 8 : 0
          let big = block.first == 0x4D
          for index in 0..<4 where field + index < block.count {
            block[field + index] = UInt8(truncatingIfNeeded: target >> (8 * (big ? 3 - index : index)))
          }
        default:
          block.removeLast(Int.random(in: 0...min(block.count - 1, 64), using: &generator))
        }
      }
      let removeLocation = Bool.random(using: &generator)
      var patched = block
      do throws(MetadataError) {
        try ExifCarryOver.patch(
          &patched, width: 4032, height: 3024, removeLocation: removeLocation, limits: .default)
      } catch {
        outcomes.refused += 1
        continue
      }
      outcomes.patched += 1
      #expect(patched.count == block.count, "nothing moves")
      if removeLocation, let metadata = try? MetadataReader.read(bytes: exifJPEG(patched)) {
        #expect(metadata.location == nil, "a location left in a block patched without it")
      }
    }
    #expect(outcomes.patched > 0 && outcomes.refused > 0, "\(outcomes)")
  }

  /// Whole files mutated around their EXIF (the container's boxes, chunks and segments that lead to it, the
  /// HEIF item's TIFF header offset): a payload or a ``MetadataError`` from `app1Payload`, never a trap.
  @Test(arguments: [
    "jpeg-thumbnail-icc.jpg", "heic-exif-thumbnail.heic", "png-exif.png", "webp-lossy-exif.webp",
    "avif-exif.avif",
  ])
  func mutatedFilesGiveAPayloadOrATypedError(_ source: String) throws {
    let original = try TestSupport.bytes(source)
    var generator = SeededGenerator(seed: UInt64(original.count))
    for round in 0..<150 {
      var file = original
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        // Half of the changes in the first 2 KB, where the boxes and chunks that lead to the EXIF are.
        let end = Bool.random(using: &generator) ? min(file.count, 2048) : file.count
        let at = Int.random(in: 0..<end, using: &generator)
        file[at] = Bool.random(using: &generator) ? UInt8.random(in: 0...255, using: &generator) : 0xFF
      }
      let path = try folder.write("mutated-\(round)", file)
      do throws(MetadataError) {
        let payload = try ExifCarryOver.app1Payload(
          fileAt: path, width: 64, height: 48, removeLocation: true)
        #expect((payload?.count ?? 0) <= ExifCarryOver.maximumPayload)
      } catch {
        continue
      }
    }
  }

  /// A JPEG made of SOI, the EXIF block as APP1 and the plain fixture's other segments.
  private func exifJPEG(_ tiff: [UInt8]) throws -> [UInt8] {
    JPEGBuilder.inserting(JPEGBuilder.exifSegment(tiff), into: try TestSupport.bytes("jpeg-plain.jpg"))
  }
}
