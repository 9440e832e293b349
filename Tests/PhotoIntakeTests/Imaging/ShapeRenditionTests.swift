#if canImport(CVips)
  import Foundation
  import Testing

  @testable import PhotoIntake
  import PhotoIntakeTesting

  /// Issue 26: a damaged optional part never costs the rendition, and an image sequence renders its first
  /// frame (FFmpeg's HEVC decoder reads the `pict` track libheif cannot). Fixtures from
  /// Scripts/make-shape-fixtures.sh, shared with the PhotoMetadata tests.
  struct ShapeRenditionTests {
    static func shape(_ name: String) -> String {
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("PhotoMetadataTests/Fixtures/\(name)").path
    }

    @Test(arguments: ["shape-exif-empty.heic", "shape-exif-no-offset.heic", "shape-sequence.heics"])
    func renders(_ name: String) throws {
      let thumbnail = try VipsThumbnailer().thumbnail(
        ofFileAt: Self.shape(name), request: ThumbnailRequest(maxPixelSize: 32))
      #expect(thumbnail.width == 32 && thumbnail.height == 24)
      let picture = try Picture(encoded: thumbnail.jpegData)
      #expect(picture.width == 32 && picture.height == 24 && picture.bands == 3)
    }

    @Test func sequenceHeadersAreAPhoto() throws {
      let headers = try ImageHeaders.read(fileAt: Self.shape("shape-sequence.heics"))
      #expect(headers.type == .heics)
      #expect(headers.largestCanvas?.width == 64 && headers.largestCanvas?.height == 48)
    }
  }
#endif
