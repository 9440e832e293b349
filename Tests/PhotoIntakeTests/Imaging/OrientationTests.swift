#if canImport(CVips)
  import PhotoMetadata
  import Testing

  @testable import PhotoIntake
  import PhotoIntakeTesting

  /// Each EXIF orientation, and HEIF irot, gives the upright picture: the fixtures store the scene turned or
  /// mirrored by the inverse of their tag, and renditions are compared with the upright reference.
  struct OrientationTests {
    let thumbnailer = VipsThumbnailer()

    @Test(arguments: Orientation.allCases)
    func exifOrientationIsApplied(_ orientation: Orientation) throws {
      let path = ImagingFixture.path("orientation-\(orientation.rawValue).jpg")
      #expect(try ImageHeaders.read(fileAt: path).orientation == orientation)
      let thumbnail = try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 48))
      // The reference is 96×64: upright, every orientation gives a landscape 48×32.
      #expect(thumbnail.width == 48 && thumbnail.height == 32)
      #expect(sceneMismatches(try Picture(encoded: thumbnail.jpegData)) == [])
    }

    /// irot (angle 1: 90° anti-clockwise) on the primary image and on its thumbnail item; 48 px comes from the
    /// thumbnail, 100 px from the primary image.
    @Test(arguments: [(48, Thumbnail.Source.embeddedPreview(.heifThumbnail)), (100, .primaryImage)])
    func heifIrotIsApplied(size: Int, source: Thumbnail.Source) throws {
      let path = ImagingFixture.path("irot.heic")
      let headers = try ImageHeaders.read(fileAt: path)
      #expect(headers.width == 96 && headers.height == 128 && headers.orientation == .left)
      let thumbnail = try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: size))
      #expect(thumbnail.source == source)
      #expect(thumbnail.width == size && thumbnail.height == size * 3 / 4)
      #expect(sceneMismatches(try Picture(encoded: thumbnail.jpegData)) == [])
    }

    /// The orientation is applied to embedded previews too (they are stored like the primary image).
    @Test func previewTakesThePrimaryOrientation() throws {
      let plan = try ThumbnailPlan.make(
        MediaMetadata(
          type: .jpeg, width: 4000, height: 3000, orientation: .right,
          previews: [
            EmbeddedPreview(kind: .mpfImage, type: .jpeg, width: 1600, height: 1200, offset: 10, length: 10)
          ]),
        request: ThumbnailRequest(maxPixelSize: 320))
      #expect(plan.source != .primaryImage && plan.orientation == .right)
    }
  }
#endif
