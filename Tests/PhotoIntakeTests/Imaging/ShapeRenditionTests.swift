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

    /// `export --as jpeg` of a sequence or burst (issue 26 item 2) gives its first frame, as the rendition
    /// does, at full size and reduced; it failed as "cannot be decoded here".
    @Test func sequenceExportsItsFirstFrameAsJPEG() throws {
      for (size, expected) in [(nil, (64, 48)), (32, (32, 24))] as [(Int?, (Int, Int))] {
        let options = ExportOptions(format: .jpeg, maxPixelSize: size)
        let bytes = try #require(
          try CompatibleJPEG.make(fileAt: Self.shape("shape-sequence.heics"), options: options))
        let picture = try Picture(encoded: bytes)
        #expect(picture.width == expected.0 && picture.height == expected.1 && picture.bands == 3)
        #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]))
      }
    }
  }
#endif
