#if canImport(CVips)
  import Testing

  @testable import PhotoIntake
  import PhotoIntakeTesting

  /// PNG, WebP, GIF and HEIC inputs decode to upright 8-bit sRGB JPEG without metadata.
  struct FormatTests {
    let thumbnailer = VipsThumbnailer()

    struct Case: Sendable, CustomStringConvertible {
      var file: String
      var width: Int
      var height: Int
      /// The fraction of each side taken by a transparent border in the input.
      var inset: (x: Double, y: Double) = (0, 0)
      var description: String { file }
    }

    static let cases: [Case] = [
      Case(file: "scene.png", width: 48, height: 37, inset: (8.0 / 144, 8.0 / 112)),
      Case(file: "scene.webp", width: 48, height: 36),
      Case(file: "scene.gif", width: 48, height: 36),
      Case(file: "scene.heic", width: 48, height: 36),
      Case(file: "orientation-1.jpg", width: 48, height: 32),
    ]

    @Test(arguments: cases)
    func decodesUprightSRGB(_ input: Case) throws {
      let thumbnail = try thumbnailer.thumbnail(
        ofFileAt: ImagingFixture.path(input.file), request: ThumbnailRequest(maxPixelSize: 48))
      #expect(thumbnail.width == input.width && thumbnail.height == input.height)
      let picture = try Picture(encoded: thumbnail.jpegData)
      #expect(picture.bands == 3 && picture.width == input.width && picture.height == input.height)
      #expect(sceneMismatches(picture, inset: input.inset) == [])
      #expect(!hasAPP1(thumbnail.jpegData), "renditions carry no EXIF or XMP")
    }

    /// Transparent areas become white, not black (vips_flatten's default).
    @Test func alphaIsFlattenedOntoWhite() throws {
      let thumbnail = try thumbnailer.thumbnail(
        ofFileAt: ImagingFixture.path("scene.png"), request: ThumbnailRequest(maxPixelSize: 48))
      let corner = try Picture(encoded: thumbnail.jpegData).colour(x: 0, y: 0)
      #expect(corner.isClose(to: .white), "corner is \(corner)")
    }

    /// An animated GIF shows its first frame (the second is the negative).
    @Test func gifShowsFirstFrame() throws {
      let thumbnail = try thumbnailer.thumbnail(
        ofFileAt: ImagingFixture.path("scene.gif"), request: ThumbnailRequest(maxPixelSize: 48))
      #expect(try Picture(encoded: thumbnail.jpegData).colour(x: 0.25, y: 0.25).isClose(to: .red))
    }

    /// 16-bit greyscale becomes 8-bit, 3-band sRGB with the scene's brightness order kept.
    @Test func sixteenBitGreyBecomesEightBitSRGB() throws {
      let thumbnail = try thumbnailer.thumbnail(
        ofFileAt: ImagingFixture.path("scene-grey16.png"), request: ThumbnailRequest(maxPixelSize: 48))
      let picture = try Picture(encoded: thumbnail.jpegData)
      #expect(picture.bands == 3)
      // Red is darker than yellow in grey.
      #expect(picture.colour(x: 0.25, y: 0.25).g + 60 < picture.colour(x: 0.75, y: 0.75).g)
    }

    /// Small images are never enlarged.
    @Test func neverEnlarges() throws {
      let thumbnail = try thumbnailer.thumbnail(
        ofFileAt: ImagingFixture.path("reference.png"), request: ThumbnailRequest(maxPixelSize: 1024))
      #expect(thumbnail.width == 96 && thumbnail.height == 64)
    }

    /// Several sizes from one call match single calls, and the source is decoded once.
    @Test func severalSizesDecodeOnce() throws {
      let (thumbnails, decodes) = try recordingDecodes {
        try thumbnailer.thumbnails(
          ofFileAt: ImagingFixture.path("orientation-6.jpg"), sizes: [24, 80, 48],
          request: ThumbnailRequest(maxPixelSize: 1))
      }
      #expect(thumbnails.map(\.width) == [24, 80, 48])
      #expect(decodes == [.primaryImage])
      for thumbnail in thumbnails {
        #expect(sceneMismatches(try Picture(encoded: thumbnail.jpegData)) == [])
      }
    }
  }
#endif
