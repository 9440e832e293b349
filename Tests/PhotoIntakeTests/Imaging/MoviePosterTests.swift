#if canImport(CVips)
  import Foundation
  import PhotoMetadata
  import Testing

  @testable import PhotoIntake
  import PhotoIntakeTesting

  /// Movie posters through the FFmpeg libraries: upright by the display matrix, not black, bounded, and a typed
  /// error for damaged movies. The fixtures (`Scripts/make-movie-fixtures.sh`) show the imaging fixtures' scene,
  /// so a poster is compared with reference.png like a photo rendition.
  struct MoviePosterTests {
    let thumbnailer = VipsThumbnailer()

    /// The frames are stored turned by the inverse of the track's matrix (exiftool's QuickTime:Rotation); the
    /// poster shows the scene upright whatever the angle, 48 × 32 like the reference.
    @Test(arguments: [0, 90, 180, 270])
    func displayMatrixIsApplied(_ angle: Int) throws {
      let path = MovieFixture.path("rotation-\(angle).mov")
      let thumbnail = try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 48))
      #expect(thumbnail.width == 48 && thumbnail.height == 32)
      #expect(sceneMismatches(try Picture(encoded: thumbnail.jpegData)) == [])
      guard case .movieFrame(let seconds) = thumbnail.source else {
        Issue.record("source \(thumbnail.source)")
        return
      }
      // 2 s long: the poster is taken 1 s in (10 % is less than the 1 s floor).
      #expect(abs(seconds - 1) < 0.01)
      #expect(
        thumbnail.duration.map { abs($0 - 2) < 0.01 } == true, "\(String(describing: thumbnail.duration))")
    }

    /// The stored frames of a turned movie really are turned: without the matrix the poster would be wrong.
    @Test func theFixturesStoreTurnedFrames() throws {
      let metadata = try MetadataReader.read(fileAt: MovieFixture.path("rotation-90.mov"))
      #expect(metadata.width == 128 && metadata.height == 192)
    }

    @Test func hevcInMP4() throws {
      let thumbnail = try thumbnailer.thumbnail(
        ofFileAt: MovieFixture.path("hevc.mp4"), request: ThumbnailRequest(maxPixelSize: 96))
      #expect(thumbnail.width == 96 && thumbnail.height == 64)
      #expect(sceneMismatches(try Picture(encoded: thumbnail.jpegData)) == [])
      #expect(thumbnail.duration.map { abs($0 - 3) < 0.01 } == true)
    }

    /// Black for the first 2.5 s of 4: 1 s and 2 s in are black, so the poster comes from 3 s in.
    @Test func blackFramesAreSkipped() throws {
      let thumbnail = try thumbnailer.thumbnail(
        ofFileAt: MovieFixture.path("black-start.mov"), request: ThumbnailRequest(maxPixelSize: 48))
      let picture = try Picture(encoded: thumbnail.jpegData)
      #expect(sceneMismatches(picture) == [])
      #expect(meanLuma(picture) > 60)
      guard case .movieFrame(let seconds) = thumbnail.source else {
        Issue.record("source \(thumbnail.source)")
        return
      }
      #expect(seconds >= 2.5)
    }

    /// Several sizes from one decode, none enlarged.
    @Test func severalSizes() throws {
      let thumbnails = try thumbnailer.thumbnails(
        ofFileAt: MovieFixture.path("rotation-90.mov"), sizes: [32, 96, 400],
        request: ThumbnailRequest(maxPixelSize: 32))
      #expect(thumbnails.map(\.width) == [32, 96, 192])
      #expect(thumbnails.map(\.height) == [21, 64, 128])
      for thumbnail in thumbnails {
        #expect(sceneMismatches(try Picture(encoded: thumbnail.jpegData)) == [])
      }
    }

    /// A size beyond 32 bits (`intake thumbnail --size 3000000000`) trapped converting it for TurboJPEG and
    /// libvips; a thumbnail is never enlarged, so it is the full size, for a movie as for a photo.
    @Test func aSizeBeyond32BitsIsTheFullSize() throws {
      let request = ThumbnailRequest(maxPixelSize: 3_000_000_000)
      let poster = try thumbnailer.thumbnail(ofFileAt: MovieFixture.path("rotation-90.mov"), request: request)
      #expect(poster.width == 192 && poster.height == 128)
      let photo = try thumbnailer.thumbnail(
        ofFileAt: Repository.path("Tests/PhotoIntakeTests/Fixtures/Imaging/reference.png"), request: request)
      #expect(photo.width == 96 && photo.height == 64)
    }

    /// A 2 × 2 movie: swscale wrote 42 bytes past so small a picture (heap corruption that ASan caught in a
    /// long run of damaged movies, and guard bytes measured); the rows are now padded. Red, every pixel.
    @Test func aTwoByTwoMovieGivesItsPixels() throws {
      let poster = try thumbnailer.thumbnail(
        ofFileAt: MovieFixture.path("tiny.mov"), request: ThumbnailRequest(maxPixelSize: 48))
      #expect(poster.width == 2 && poster.height == 2)
      let picture = try Picture(encoded: poster.jpegData)
      for (x, y) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
        let colour = picture.colour(x: x, y: y)
        #expect(colour.r > 200 && colour.g < 60 && colour.b < 60, "\(colour) at \(x), \(y)")
      }
    }

    @Test func framesOverTheLimitAreRefusedBeforeDecoding() {
      let result = Result { () throws(ImagingError) in
        try thumbnailer.thumbnail(
          ofFileAt: MovieFixture.path("hevc.mp4"),
          request: ThumbnailRequest(maxPixelSize: 48, maximumPixelCount: 10_000))
      }
      #expect(result.failure == .tooManyPixels(declared: 192 * 128, limit: 10_000))
    }

    /// Damaged movies give typed errors, never a crash: a movie cut in half has lost its header (written at
    /// the end); one whose media data is noise has a header but nothing that decodes.
    @Test func damagedMoviesGiveTypedErrors() throws {
      let truncated = Result { () throws(ImagingError) in
        try thumbnailer.thumbnail(
          ofFileAt: MovieFixture.path("truncated.mov"), request: ThumbnailRequest(maxPixelSize: 48))
      }
      guard case .malformed(let reason) = truncated.failure else {
        Issue.record("truncated.mov: \(truncated)")
        return
      }
      #expect(reason.contains("moov"))
      let garbled = Result { () throws(ImagingError) in
        try thumbnailer.thumbnail(
          ofFileAt: MovieFixture.path("garbled.mp4"), request: ThumbnailRequest(maxPixelSize: 48))
      }
      guard case .decodeFailed = garbled.failure else {
        Issue.record("garbled.mp4: \(garbled)")
        return
      }
    }

    /// Every prefix of a movie, and the movie with bytes flipped through its header: a typed error or a
    /// poster, never a crash or a hang.
    @Test func cutAndCorruptedMoviesNeverCrash() throws {
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: MovieFixture.path("rotation-90.mov"))))
      let folder = TemporaryDirectory()
      var outcomes: [String: Int] = [:]
      for length in stride(from: 0, to: bytes.count, by: 97) {
        let path = try folder.write("cut-\(length).mov", Array(bytes.prefix(length)))
        outcomes[name(of: path), default: 0] += 1
      }
      for offset in stride(from: 0, to: bytes.count, by: 61) {
        var corrupted = bytes
        corrupted[offset] ^= 0xFF
        let path = try folder.write("flip-\(offset).mov", corrupted)
        outcomes[name(of: path), default: 0] += 1
      }
      #expect(outcomes.values.reduce(0, +) > 50)
      #expect(outcomes["malformed", default: 0] > 0, "\(outcomes)")
    }

    /// An audio file whose only picture is its cover art (an attached-picture stream, which declares no size
    /// until decoded) has no movie to take a frame of: unsupported, not a damaged file.
    @Test func coverArtAloneIsNoVideo() {
      let result = Result { () throws(ImagingError) in
        try thumbnailer.thumbnail(
          ofFileAt: MovieFixture.path("audio-cover.m4a"), request: ThumbnailRequest(maxPixelSize: 48))
      }
      guard case .unsupportedContent = result.failure else {
        Issue.record("audio-cover.m4a: \(result)")
        return
      }
    }

    /// long-duration.mov declares 9 × 10^12 s in a track time base of 1/(2^31 − 1) s and is black throughout,
    /// so every point is looked at: three quarters in is beyond int64 ticks. Converting it was undefined
    /// behaviour (found by UBSan: `swift build --sanitize=undefined` traps there); now it is clamped.
    @Test func aDurationBeyondTheTimeBaseStillGivesAPoster() throws {
      let thumbnail = try thumbnailer.thumbnail(
        ofFileAt: MovieFixture.path("long-duration.mov"), request: ThumbnailRequest(maxPixelSize: 48))
      #expect(thumbnail.width == 48 && thumbnail.height == 48)
      #expect(thumbnail.duration.map { $0 > 1e12 } == true, "\(String(describing: thumbnail.duration))")
    }

    /// The outcome of making a poster of `path`, as an error code or "poster".
    private func name(of path: String) -> String {
      do {
        _ = try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 48))
        return "poster"
      } catch {
        return error.code
      }
    }

    /// Made at import, for a movie and for the video half of a Live Photo, with the duration stored with the
    /// asset.
    @Test func importMakesPostersAndStoresTheDuration() async throws {
      let folder = TemporaryDirectory()
      let library = try await Library.open(at: folder.at("library"))
      var configuration = Importer.Configuration()
      configuration.renditions = RenditionStore.Configuration(sizes: [48])
      let files = ["rotation-270.mov", "live-photo.jpg", "live-photo.mov", "truncated.mov"]
      let session = Importer(library: library, configuration: configuration)
        .start(files.map { FileItemSource(path: MovieFixture.path($0)) })
      var reports: [Int: RenditionReport] = [:]
      for await event in session {
        if case .renditionsFinished(let report) = event { reports[report.index] = report }
      }
      let assets = try await library.all(order: .batch)
      #expect(assets.map(\.type) == [.mov, .jpeg, .mov, .mov])
      for index in 0..<3 {
        let made = try #require(try reports[index]?.result.get())
        #expect(made.count == 1 && made[0].width == 48 && made[0].height == 32)
        #expect(sceneMismatches(try Picture(file: made[0].path)) == [])
      }
      // The cut movie is kept (its bytes are the user's), without a poster.
      guard case .failure(.malformed) = reports[3]?.result else {
        Issue.record("truncated.mov: \(String(describing: reports[3]?.result))")
        return
      }
      // The duration is in the asset's row (from the movie header), read back from the manifest.
      let reopened = try await library.asset(assets[0].id)
      #expect(reopened?.metadata?.duration.map { abs($0 - 2) < 0.01 } == true)
      #expect(assets[1].metadata?.livePhotoID == "3F1C6E2A-8B4D-4C5E-9A7B-2D1E0F3A4B5C")
      #expect(
        LivePhotoPairing(still: assets[1].metadata, movie: assets[2].metadata).isLivePhoto)
      // On demand: a larger poster, made from the stored movie.
      let large = try await RenditionStore(library: library).rendition(of: assets[0], size: 96)
      #expect(large.width == 96 && large.height == 64 && large.wasCreated)
      await library.close()
    }

    private func meanLuma(_ picture: Picture) -> Double {
      var sum = 0.0
      for y in stride(from: 0.05, to: 1, by: 0.1) {
        for x in stride(from: 0.05, to: 1, by: 0.1) {
          let c = picture.colour(x: x, y: y)
          sum += 0.299 * Double(c.r) + 0.587 * Double(c.g) + 0.114 * Double(c.b)
        }
      }
      return sum / 100
    }
  }

  extension Result {
    fileprivate var failure: Failure? {
      if case .failure(let error) = self { error } else { nil }
    }
  }
#endif
