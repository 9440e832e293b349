import PhotoIntakeTesting
import PhotoMetadata
import Testing

@testable import PhotoIntake

/// Images declaring too many pixels are refused from their headers, before any decoder sees them.
struct BombGuardTests {
  #if canImport(CVips)
    let thumbnailer = VipsThumbnailer()

    /// Headers declaring 65535×65535 (HEIC 60000×60000, WebP 16384×16384) with almost no data behind them.
    /// A decode attempt would fail differently (`decodeFailed`), and the probe would see it.
    @Test(arguments: [
      ("bomb.png", 65535 * 65535), ("bomb.jpg", 65535 * 65535), ("bomb.gif", 65535 * 65535),
      ("bomb.webp", 16384 * 16384), ("bomb.heic", 60000 * 60000),
    ])
    func bombsAreRefusedBeforeDecode(file: String, declared: Int) {
      let clock = ContinuousClock()
      let start = clock.now
      let (result, decodes) = recordingDecodes {
        Result { () throws(ImagingError) in
          try thumbnailer.thumbnail(
            ofFileAt: ImagingFixture.path(file), request: ThumbnailRequest(maxPixelSize: 320))
        }
      }
      let elapsed = clock.now - start
      #expect(decodes == [], "the decoder never saw the file")
      #expect(elapsed < .milliseconds(200), "refused in \(elapsed)")
      guard case .failure(let error) = result else {
        Issue.record("a bomb was rendered")
        return
      }
      #expect(error == .tooManyPixels(declared: declared, limit: 200_000_000))
    }

    /// Files declaring a 16×16 image whose later frame, page or chunk asks for a canvas over the limit: the
    /// guard walks every frame from the headers and refuses them before the decoder sees the file. (Before,
    /// the 20000×20000 GIF frame took 1.7 GB to thumbnail and the 40000×40000 one aborted the process.)
    @Test(arguments: [
      ("frame-20000.gif", 20000 * 20000), ("frame-40000.gif", 40000 * 40000),
      ("offset-frame.gif", 30016 * 30016), ("second-frame.gif", 20000 * 20000),
      ("fctl-20000.png", 20000 * 20000), ("anmf-16384.webp", 16384 * 16384),
      ("page-2-20000.tif", 20000 * 20000),
    ])
    func framesLargerThanTheDeclaredImageAreRefusedBeforeDecode(name: String, canvas: Int) throws {
      let bytes =
        switch name {
        case "frame-20000.gif": CanvasBombs.gif(frames: [(0, 0, 20000, 20000)])
        case "frame-40000.gif": CanvasBombs.gif(frames: [(0, 0, 40000, 40000)])
        // A small frame placed far outside the screen: decoders grow the screen to reach it.
        case "offset-frame.gif": CanvasBombs.gif(frames: [(30000, 30000, 16, 16)])
        // The first frame is honest; the walk must get past its data to the second.
        case "second-frame.gif": CanvasBombs.gif(frames: [(0, 0, 16, 16), (0, 0, 20000, 20000)])
        case "fctl-20000.png": CanvasBombs.apng(width: 20000, height: 20000)
        case "anmf-16384.webp": CanvasBombs.animatedWebP(width: 16384, height: 16384)
        default: CanvasBombs.twoPageTIFF(width: 20000, height: 20000)
        }
      let folder = TemporaryDirectory()
      let path = try folder.write(name, bytes)
      let clock = ContinuousClock()
      let start = clock.now
      let (result, decodes) = recordingDecodes {
        Result { () throws(ImagingError) in
          try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320))
        }
      }
      let elapsed = clock.now - start
      #expect(decodes == [], "the decoder never saw the file")
      #expect(elapsed < .milliseconds(200), "refused in \(elapsed)")
      #expect(throws: ImagingError.tooManyPixels(declared: canvas, limit: 200_000_000)) { try result.get() }
    }

    /// The crafted files are otherwise sound: with honest frames, the same bytes make a thumbnail.
    @Test func honestCraftedFramesAreThumbnailed() throws {
      let folder = TemporaryDirectory()
      for (name, bytes) in [
        ("honest.gif", CanvasBombs.gif(frames: [(0, 0, 16, 16), (4, 4, 8, 8)])),
        ("honest.png", CanvasBombs.apng(width: 16, height: 16)),
      ] {
        let path = try folder.write(name, bytes)
        let thumbnail = try thumbnailer.thumbnail(
          ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320))
        #expect(thumbnail.width == 16 && thumbnail.height == 16, Comment(rawValue: name))
      }
    }

    /// A perfectly decodable image over a lowered limit is refused too, even when a small embedded preview
    /// could have served: the limit is about the file, not the preview.
    @Test(arguments: [120, 320])
    func limitIsConfigurable(size: Int) throws {
      let request = ThumbnailRequest(maxPixelSize: size, maximumPixelCount: 640 * 480 - 1)
      let (_, decodes) = recordingDecodes {
        #expect(throws: ImagingError.tooManyPixels(declared: 640 * 480, limit: 640 * 480 - 1)) {
          try thumbnailer.thumbnail(ofFileAt: ImagingFixture.path("exif-thumbnail.jpg"), request: request)
        }
      }
      #expect(decodes == [])
      // At the limit exactly, it is made.
      var atLimit = request
      atLimit.maximumPixelCount = 640 * 480
      #expect(
        try thumbnailer.thumbnail(ofFileAt: ImagingFixture.path("exif-thumbnail.jpg"), request: atLimit).width
          == size)
    }
  #endif

  /// The plan's arithmetic: the limit is inclusive, products that overflow are refused.
  @Test(arguments: [
    (20_000, 10_000, true), (20_000, 10_001, false), (Int.max, 2, false), (1, 1, true),
    (65_535, 65_535, false),
  ])
  func planChecksDeclaredPixels(width: Int, height: Int, allowed: Bool) {
    let metadata = MediaMetadata(type: .png, width: width, height: height)
    let result = Result { () throws(ImagingError) in
      try ThumbnailPlan.make(metadata, request: ThumbnailRequest(maxPixelSize: 320))
    }
    switch result {
    case .success: #expect(allowed)
    case .failure(let error):
      #expect(!allowed)
      if case .tooManyPixels(let declared, let limit) = error {
        #expect(limit == 200_000_000 && declared > limit)
      } else {
        Issue.record("unexpected \(error)")
      }
    }
  }
}
