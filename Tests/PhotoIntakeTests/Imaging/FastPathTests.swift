#if canImport(CVips)
  import PhotoMetadata
  import Testing

  @testable import PhotoIntake
  import PhotoIntakeTesting

  /// An embedded preview is decoded instead of the image exactly when it is at least as large as the request
  /// and is a picture of the whole scene. The fixtures' previews are drawn in another colour, so the pixels
  /// show which image was decoded, and the decode probe shows the primary image was never touched.
  struct FastPathTests {
    let thumbnailer = VipsThumbnailer()

    struct Case: Sendable, CustomStringConvertible {
      var file: String
      var size: Int
      var source: Thumbnail.Source
      /// The colour of the decoded image's top-left area.
      var colour: RGB
      var allowsPreview = true
      var description: String { "\(file) @ \(size)\(allowsPreview ? "" : " (previews off)")" }
    }

    static let cases: [Case] = [
      // EXIF IFD1 thumbnail, 160×120 (magenta).
      Case(file: "exif-thumbnail.jpg", size: 120, source: .embeddedPreview(.exifThumbnail), colour: .magenta),
      Case(file: "exif-thumbnail.jpg", size: 160, source: .embeddedPreview(.exifThumbnail), colour: .magenta),
      Case(file: "exif-thumbnail.jpg", size: 161, source: .primaryImage, colour: .red),
      // MPF large thumbnail, 640×480 (cyan), in a 1280×960 file.
      Case(file: "mpf-preview.jpg", size: 320, source: .embeddedPreview(.mpfImage), colour: .cyan),
      Case(file: "mpf-preview.jpg", size: 640, source: .embeddedPreview(.mpfImage), colour: .cyan),
      Case(file: "mpf-preview.jpg", size: 641, source: .primaryImage, colour: .red),
      Case(file: "mpf-preview.jpg", size: 320, source: .primaryImage, colour: .red, allowsPreview: false),
      // An MPF image typed 0 (as gain maps are) is not a preview.
      Case(file: "mpf-gainmap.jpg", size: 320, source: .primaryImage, colour: .red),
      // A 160×120 thumbnail of a 3:2 photo has black bars: not used.
      Case(file: "letterbox-thumbnail.jpg", size: 100, source: .primaryImage, colour: .red),
      // HEIF thumbnail item, 48×36.
      Case(file: "scene.heic", size: 48, source: .embeddedPreview(.heifThumbnail), colour: .red),
      Case(file: "scene.heic", size: 49, source: .primaryImage, colour: .red),
    ]

    @Test(arguments: cases)
    func previewIsUsedOnlyWhenLargeEnough(_ input: Case) throws {
      let request = ThumbnailRequest(maxPixelSize: input.size, allowsEmbeddedPreview: input.allowsPreview)
      let (thumbnail, decodes) = try recordingDecodes {
        try thumbnailer.thumbnail(ofFileAt: ImagingFixture.path(input.file), request: request)
      }
      #expect(thumbnail.source == input.source)
      #expect(decodes == [input.source], "only the chosen source reaches the decoder")
      let colour = try Picture(encoded: thumbnail.jpegData).colour(x: 0.2, y: 0.2)
      #expect(colour.isClose(to: input.colour), "top-left is \(colour)")
      #expect(max(thumbnail.width, thumbnail.height) == input.size)
    }

    /// Sizes are grouped by source: the preview serves the small one, the primary the large one.
    @Test func mixedSizesUseEachSource() throws {
      let (thumbnails, decodes) = try recordingDecodes {
        try thumbnailer.thumbnails(
          ofFileAt: ImagingFixture.path("mpf-preview.jpg"), sizes: [1024, 320],
          request: ThumbnailRequest(maxPixelSize: 1))
      }
      #expect(thumbnails.map(\.source) == [.primaryImage, .embeddedPreview(.mpfImage)])
      #expect(thumbnails.map(\.width) == [1024, 320])
      #expect(Set(decodes) == [.primaryImage, .embeddedPreview(.mpfImage)] && decodes.count == 2)
    }

    /// The header reader finds the previews the plan relies on.
    @Test func headersListPreviews() throws {
      let exif = try ImageHeaders.read(fileAt: ImagingFixture.path("exif-thumbnail.jpg"))
      #expect(exif.previews.map(\.kind) == [.exifThumbnail])
      #expect(exif.previews.first?.width == 160 && exif.previews.first?.height == 120)
      let mpf = try ImageHeaders.read(fileAt: ImagingFixture.path("mpf-preview.jpg"))
      #expect(mpf.previews.map(\.kind) == [.mpfImage] && mpf.previews.first?.width == 640)
      #expect(try ImageHeaders.read(fileAt: ImagingFixture.path("mpf-gainmap.jpg")).previews == [])
      let heif = try ImageHeaders.read(fileAt: ImagingFixture.path("scene.heic"))
      #expect(heif.previews.map(\.kind) == [.heifThumbnail] && heif.previews.first?.width == 48)
    }
  }
#endif
