import Foundation
import PhotoIntakeTesting
import PhotoMetadata
import Testing

@testable import PhotoIntake

/// A raw's rendition is the preview its camera embedded, turned by the file's orientation; its sensor data is
/// never decoded, and an export never passes the preview off as the photo (issue 26). Fixtures:
/// `Scripts/raw-fixtures.py` (each preview's top-left quadrant is red, the rest white).
#if canImport(CVips)
  struct RawRenditionTests {
    static func path(_ name: String) -> String {
      Repository.path("Tests/PhotoMetadataTests/RawFixtures/" + name)
    }

    struct Case: Sendable, CustomTestStringConvertible {
      var file: String
      var size: Int
      /// The rendition's size, upright.
      var width: Int
      var height: Int
      /// Where the red quadrant lands once the orientation is applied (fractions of width and height).
      var red: (Double, Double)
      var testDescription: String { "\(file) at \(size) px" }
    }

    static let cases: [Case] = [
      // Orientation 6: the stored top-left goes to the top right.
      Case(file: "raw-nef.nef", size: 96, width: 64, height: 96, red: (0.75, 0.25)),
      // The 192×128 JPEG preview for 96 px; the 48×32 RGB thumbnail (two strips) for 40 px. Orientation 8:
      // the stored top-left goes to the bottom left.
      Case(file: "raw-dng.dng", size: 96, width: 64, height: 96, red: (0.25, 0.75)),
      Case(file: "raw-dng.dng", size: 40, width: 27, height: 40, red: (0.25, 0.75)),
      // Orientation 3: to the bottom right.
      Case(file: "raw-rw2.rw2", size: 96, width: 96, height: 64, red: (0.75, 0.75)),
      Case(file: "raw-raf.raf", size: 96, width: 64, height: 96, red: (0.75, 0.25)),
      // CIFF rotation 270 (orientation 8): to the bottom left.
      Case(file: "raw-crw.crw", size: 96, width: 64, height: 96, red: (0.25, 0.75)),
    ]

    @Test(arguments: cases) func rendersTheEmbeddedPreviewUpright(_ c: Case) throws {
      let (thumbnail, decoded) = try recordingDecodes {
        try VipsThumbnailer().thumbnail(
          ofFileAt: Self.path(c.file), request: ThumbnailRequest(maxPixelSize: c.size))
      }
      #expect(thumbnail.source == .embeddedPreview(.rawPreview))
      #expect(decoded == [.embeddedPreview(.rawPreview)])
      #expect(thumbnail.width == c.width && thumbnail.height == c.height)
      let picture = try Picture(encoded: thumbnail.jpegData)
      #expect(picture.colour(x: c.red.0, y: c.red.1).isClose(to: .red))
      // The opposite quadrant is white.
      #expect(picture.colour(x: 1 - c.red.0, y: 1 - c.red.1).isClose(to: .white))
      #expect(!hasAPP1(thumbnail.jpegData))
    }

    /// Several sizes at once: each from the preview the plan picks for it.
    @Test func severalSizesFromTheirOwnPreviews() throws {
      let made = try VipsThumbnailer().thumbnails(
        ofFileAt: Self.path("raw-dng.dng"), sizes: [96, 40], request: ThumbnailRequest(maxPixelSize: 96))
      #expect(made.map { [$0.width, $0.height] } == [[64, 96], [27, 40]])
    }

    @Test func aRawWithoutPreviewIsRefusedNotDeveloped() throws {
      #expect(throws: ImagingError.rawNotDeveloped(type: .orf, hasPreview: false)) {
        try VipsThumbnailer().thumbnail(
          ofFileAt: Self.path("raw-orf.orf"), request: ThumbnailRequest(maxPixelSize: 64))
      }
    }

    /// `--no-preview` asks for the primary image: for a raw that is the sensor data, never developed here.
    @Test func noPreviewMeansNoRendition() throws {
      var request = ThumbnailRequest(maxPixelSize: 64)
      request.allowsEmbeddedPreview = false
      #expect(throws: ImagingError.rawNotDeveloped(type: .nef, hasPreview: true)) {
        try VipsThumbnailer().thumbnail(ofFileAt: Self.path("raw-nef.nef"), request: request)
      }
    }

    /// The pixel limit applies to the preview that is decoded, not to the sensor, which is not.
    @Test func thePreviewIsWhatThePixelLimitChecks() throws {
      let small = ThumbnailRequest(maxPixelSize: 64, maximumPixelCount: 192 * 128)
      #expect(throws: Never.self) {
        try VipsThumbnailer().thumbnail(ofFileAt: Self.path("raw-nef.nef"), request: small)
      }
      // With the JPEG preview over the limit, the RGB thumbnail is the one left.
      let smaller = ThumbnailRequest(maxPixelSize: 64, maximumPixelCount: 192 * 128 - 1)
      let thumbnail = try VipsThumbnailer().thumbnail(ofFileAt: Self.path("raw-nef.nef"), request: smaller)
      #expect(thumbnail.width == 16 && thumbnail.height == 24)
    }

    /// `export --as jpeg` of a raw says what it is instead of passing the preview off as the photo.
    @Test(arguments: [
      "raw-nef.nef", "raw-dng.dng", "raw-rw2.rw2", "raw-raf.raf", "raw-crw.crw", "raw-orf.orf",
    ])
    func exportAsJPEGRefusesRaws(_ file: String) throws {
      var options = ExportOptions()
      options.format = .jpeg
      do {
        _ = try CompatibleJPEG.plan(fileAt: Self.path(file), options: options)
        Issue.record("a raw was planned as a JPEG")
      } catch {
        guard case .rawNotDeveloped(let type, let hasPreview) = error else {
          Issue.record("unexpected \(error)")
          return
        }
        #expect(type.isRaw)
        #expect(hasPreview == (file != "raw-orf.orf"))
        #expect(error.description.contains("raw"))
      }
    }
  }
#endif
