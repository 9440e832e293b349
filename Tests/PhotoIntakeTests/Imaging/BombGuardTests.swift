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
