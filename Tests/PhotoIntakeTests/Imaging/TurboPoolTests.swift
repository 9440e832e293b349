#if canImport(CVips)
  import Dispatch
  import Testing

  @testable import PhotoIntake
  import PhotoIntakeTesting

  /// JPEG renditions reuse TurboJPEG handles and buffers from a small pool (turbo_thumbnail.c). A photo rendered
  /// after larger and smaller ones, after a decode that failed, and beside other renditions on other threads,
  /// comes out byte for byte as it did first.
  struct TurboPoolTests {
    let thumbnailer = VipsThumbnailer()
    let request = ThumbnailRequest(maxPixelSize: 200, allowsEmbeddedPreview: false)
    /// Different sizes (1280×960, 640×480 turned, 640×480), all decoded by TurboJPEG.
    let files = ["mpf-preview.jpg", "orientation-6.jpg", "exif-thumbnail.jpg"]

    @Test func pooledDecodersGiveTheSameRenditions() throws {
      let first = try files.map {
        try thumbnailer.thumbnail(ofFileAt: ImagingFixture.path($0), request: request).jpegData
      }
      let rounds = 8
      let results = Protected([[UInt8]?](repeating: nil, count: rounds * files.count))
      DispatchQueue.concurrentPerform(iterations: rounds * files.count) { index in
        // A truncated JPEG first: TurboJPEG fails on it and its handle is dropped, not reused.
        _ = try? thumbnailer.thumbnail(ofFileAt: ImagingFixture.path("truncated.jpg"), request: request)
        let made = try? thumbnailer.thumbnail(
          ofFileAt: ImagingFixture.path(files[index % files.count]), request: request)
        results.withLock { $0[index] = made?.jpegData }
      }
      for (index, data) in results.current.enumerated() {
        #expect(
          data == first[index % files.count], "\(files[index % files.count]), round \(index / files.count)")
      }
    }
  }
#endif
