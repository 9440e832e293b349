#if canImport(CVips)
  import Foundation
  import PhotoMetadata
  import Testing

  @testable import PhotoIntake
  import PhotoIntakeTesting

  /// Renditions in a library: made in the background of an import, keyed by hash and size, rebuilt after
  /// deletion, written atomically, removed with their asset.
  struct RenditionStoreTests {
    /// Imports `files` with renditions of `sizes`; returns the library, the events and the assets in order.
    func importFixtures(_ files: [String], sizes: [Int], into folder: TemporaryDirectory) async throws
      -> (Library, [ImportEvent], [Asset])
    {
      let library = try await Library.open(at: folder.at("library"))
      var configuration = Importer.Configuration()
      configuration.renditions = RenditionStore.Configuration(sizes: sizes)
      let session = Importer(library: library, configuration: configuration)
        .start(files.map { FileItemSource(path: ImagingFixture.path($0)) })
      var events: [ImportEvent] = []
      for await event in session { events.append(event) }
      let assets = try await library.all(order: .batch)
      return (library, events, assets)
    }

    @Test func importMakesRenditionsAndReportsThem() async throws {
      let folder = TemporaryDirectory()
      // bomb.webp declares 16384 × 16384 (268 MP): under the import limit (1 GP), so the original is kept,
      // but over the renditions' 200 MP limit, so nothing decodes it.
      let files = ["orientation-6.jpg", "scene.heic", "exif-thumbnail.jpg", "bomb.webp"]
      let (library, events, assets) = try await importFixtures(files, sizes: [32, 64], into: folder)
      #expect(assets.count == 4)
      // One report per image, each after its item finished, all before `.finished`.
      var finished: Set<Int> = []
      var reports: [Int: RenditionReport] = [:]
      for (position, event) in events.enumerated() {
        switch event {
        case .itemFinished(let item): finished.insert(item.index)
        case .renditionsFinished(let report):
          #expect(finished.contains(report.index), "renditions reported before the item finished")
          reports[report.index] = report
        case .finished: #expect(position == events.count - 1)
        default: break
        }
      }
      #expect(Set(reports.keys) == [0, 1, 2, 3])
      let store = RenditionStore(library: library)
      for (index, asset) in assets.enumerated() where index < 3 {
        let made = try reports[index]!.result.get()
        #expect(made.map(\.size) == [32, 64])
        for rendition in made {
          #expect(rendition.path == store.path(for: asset.sha256, size: rendition.size))
          #expect(
            rendition.path.hasSuffix(
              "/renditions/\(asset.sha256.hex.prefix(2))/\(asset.sha256.hex)-\(rendition.size).jpg"))
          #expect(FileManager.default.fileExists(atPath: rendition.path))
          #expect(max(rendition.width, rendition.height) == rendition.size)
        }
      }
      // The bomb was imported (the original is kept) but has no renditions.
      guard case .failure(.tooManyPixels) = reports[3]!.result else {
        Issue.record("expected the bomb's renditions to be refused")
        return
      }
      // Nothing is left in staging.
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.at("library/staging")) == [])
      #expect(!folder.files(under: "library/renditions").contains { $0.hasSuffix(".tmp") })
    }

    /// A GIF whose frame lies far beyond its 16×16 screen (40000×40000: before the canvas scan, GLib aborted
    /// the whole process here) is imported; only its renditions are refused, and the next item still gets its.
    @Test func aCanvasBombEndsNeitherTheImportNorTheNextItemsRenditions() async throws {
      let folder = TemporaryDirectory()
      let bomb = try folder.write("frame.gif", CanvasBombs.gif(frames: [(0, 0, 40000, 40000)]))
      let library = try await Library.open(at: folder.at("library"))
      var configuration = Importer.Configuration()
      configuration.renditions = RenditionStore.Configuration(sizes: [32])
      let session = Importer(library: library, configuration: configuration).start([
        FileItemSource(path: bomb), FileItemSource(path: ImagingFixture.path("orientation-6.jpg")),
      ])
      var reports: [Int: RenditionReport] = [:]
      var sawFinished = false
      for await event in session {
        if case .renditionsFinished(let report) = event { reports[report.index] = report }
        if case .finished = event { sawFinished = true }
      }
      #expect(sawFinished)
      #expect(await session.summary().importedCount == 2)
      #expect(try await library.all(order: .batch).map(\.type) == [.gif, .jpeg])
      guard case .failure(.tooManyPixels(let declared, _)) = reports[0]?.result else {
        Issue.record("expected the bomb's renditions to be refused, got \(String(describing: reports[0]))")
        return
      }
      #expect(declared == 40000 * 40000)
      #expect(try reports[1]?.result.get().map(\.size) == [32])
    }

    /// A photo no larger than a size is stored once, at its own size, for every such size: never upscaled,
    /// never made twice.
    @Test func sizesAtOrAboveThePhotoShareOneRendition() async throws {
      let folder = TemporaryDirectory()
      let (library, _, assets) = try await importFixtures(["scene.gif"], sizes: [48], into: folder)
      let store = RenditionStore(library: library)
      let made = try await store.renditions(of: assets[0], sizes: [48, 128, 320, 1024])
      #expect(made.map(\.size) == [48, 128, 128, 128])
      #expect(Set(made.dropFirst().map(\.path)).count == 1)
      #expect(made.map { max($0.width, $0.height) } == [48, 128, 128, 128])
      let files = folder.files(under: "library/renditions")
      #expect(files.count == 2, "\(files)")
    }

    @Test func renditionIsRebuiltAfterDeletion() async throws {
      let folder = TemporaryDirectory()
      let (library, _, assets) = try await importFixtures(["orientation-6.jpg"], sizes: [40], into: folder)
      let store = RenditionStore(library: library, configuration: RenditionStore.Configuration(sizes: [40]))
      let first = try await store.rendition(of: assets[0], size: 40)
      #expect(!first.wasCreated, "the import made it")
      let original = try Data(contentsOf: URL(fileURLWithPath: first.path))
      try FileManager.default.removeItem(atPath: first.path)
      let rebuilt = try await store.rendition(of: assets[0], size: 40)
      #expect(rebuilt.wasCreated && rebuilt.source == .primaryImage)
      #expect(rebuilt.path == first.path && rebuilt.width == 40 && rebuilt.height == 27)
      #expect(try Data(contentsOf: URL(fileURLWithPath: rebuilt.path)) == original, "rebuilt identically")
      #expect(sceneMismatches(try Picture(file: rebuilt.path)) == [])
      // A size never made before is made on demand.
      let other = try await store.rendition(of: assets[0], size: 24)
      #expect(other.wasCreated && other.width == 24)
    }

    /// A link planted at a rendition's name is neither served as that asset's rendition nor followed: the
    /// store makes the real one, whose rename replaces the link itself, and the link's target is untouched.
    @Test func aLinkAtARenditionsNameIsNeitherServedNorFollowed() async throws {
      let folder = TemporaryDirectory()
      let (library, _, assets) = try await importFixtures(["orientation-6.jpg"], sizes: [40], into: folder)
      let store = RenditionStore(library: library, configuration: RenditionStore.Configuration(sizes: [40]))
      let path = store.path(for: assets[0].sha256, size: 40)
      // Another JPEG, of other dimensions, outside the library.
      let decoy = folder.at("decoy.jpg")
      try FileManager.default.copyItem(atPath: ImagingFixture.path("exif-thumbnail.jpg"), toPath: decoy)
      let decoyBytes = try Data(contentsOf: URL(fileURLWithPath: decoy))
      try FileManager.default.removeItem(atPath: path)
      try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: decoy)
      let rendition = try await store.rendition(of: assets[0], size: 40)
      #expect(rendition.wasCreated, "the link was served as the rendition")
      #expect(rendition.width == 40 && rendition.height == 27)
      // attributesOfItem describes the entry itself (lstat), not a link's target.
      let kind = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
      #expect(kind == .typeRegular)
      #expect(try Data(contentsOf: URL(fileURLWithPath: decoy)) == decoyBytes)
      #expect(sceneMismatches(try Picture(file: path)) == [])
    }

    @Test func removingAnAssetRemovesItsRenditions() async throws {
      let folder = TemporaryDirectory()
      let (library, _, assets) = try await importFixtures(["scene.webp"], sizes: [32, 64], into: folder)
      let store = RenditionStore(library: library)
      let paths = [32, 64].map { store.path(for: assets[0].sha256, size: $0) }
      #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
      try await library.remove(assets[0].id)
      #expect(paths.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
    }

    #if TestHooks  // fault injection exists only in test-hook builds
      /// A write that fails part-way (disk full), or whose fsync or rename fails, leaves no file under the
      /// rendition's name and no temporary file; an existing rendition stays intact.
      /// (Rename failures are matched by their destination, which is in `renditions/`.)
      @Test(arguments: [
        (SystemError.Operation.write, "/renditions/", ENOSPC, ImagingError.diskFull),
        (.fsync, "/renditions/", EIO, .ioError(operation: "fsync", code: EIO)),
        (.rename, "/renditions/", EACCES, .permissionDenied),
      ])
      func writesAreAtomic(
        operation: SystemError.Operation, path: String, code: Int32, expected: ImagingError
      )
        async throws
      {
        let folder = TemporaryDirectory()
        let library = try await Library.open(at: folder.at("library"))
        let summary = await Importer(library: library).importItems([
          FileItemSource(path: ImagingFixture.path("scene.gif"))
        ])
        let asset = try #require(summary.items.first?.result.asset)
        let store = RenditionStore(library: library)
        let faults = FaultInjector([.init(operation, pathContains: path, code: code, afterBytes: 100)])
        let failed = await Syscalls.injectedFaults.withValue(faults) {
          await outcome { () async throws(ImagingError) in try await store.rendition(of: asset, size: 48) }
        }
        #expect(failed.error == expected)
        #expect(!FileManager.default.fileExists(atPath: store.path(for: asset.sha256, size: 48)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.at("library/staging")) == [])
        // With a good rendition in place, a failed rewrite keeps it.
        let good = try await store.rendition(of: asset, size: 48)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good.path))
        let again = await Syscalls.injectedFaults.withValue(faults) {
          await outcome { () async throws(ImagingError) in
            try await RenditionStore(library: library).renditions(of: asset, sizes: [48, 20])
          }
        }
        #expect(again.error == expected)
        #expect(try Data(contentsOf: URL(fileURLWithPath: good.path)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.at("library/staging")) == [])
      }
    #endif

    /// Renditions are written to staging and renamed: a rendition file is complete the moment it exists.
    @Test func renditionFilesAreCompleteJPEGs() async throws {
      let folder = TemporaryDirectory()
      let (library, _, assets) = try await importFixtures(
        ["mpf-preview.jpg"], sizes: [320, 1024], into: folder)
      for rendition in try await RenditionStore(library: library).renditions(
        of: assets[0], sizes: [320, 1024])
      {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: rendition.path)))
        #expect(bytes.prefix(2) == [0xFF, 0xD8] && bytes.suffix(2) == [0xFF, 0xD9])
      }
    }
  }

  extension Result {
    var error: Failure? {
      if case .failure(let error) = self { error } else { nil }
    }
  }
#endif

/// Decodes are admitted into a memory budget counted in decoded pixels: photos that would decode many pixels
/// wait for room instead of running side by side.
@Suite struct DecodeBudgetTests {
  /// A thumbnailer that records how many decodes run at once.
  final class CountingThumbnailer: ThumbnailGenerating, Sendable {
    let inner = PlatformThumbnailer()
    let state = Protected((running: 0, most: 0))

    func thumbnail(ofFileAt path: String, request: ThumbnailRequest) throws(ImagingError) -> Thumbnail {
      try thumbnails(ofFileAt: path, sizes: [request.maxPixelSize], request: request)[0]
    }

    func thumbnails(ofFileAt path: String, sizes: [Int], request: ThumbnailRequest) throws(ImagingError)
      -> [Thumbnail]
    {
      state.withLock { state in
        state.running += 1
        state.most = max(state.most, state.running)
      }
      defer { state.withLock { $0.running -= 1 } }
      // Wait (up to 2 s) for a second decode to start beside this one, so that whether two may run at once
      // does not depend on how fast the machine commits the items (a machine busy with other builds took more
      // than 300 ms).
      for _ in 0..<400 where state.current.running < 2 { usleep(5_000) }
      return try inner.thumbnails(ofFileAt: path, sizes: sizes, request: request)
    }
  }

  func mostAtOnce(budget: Int) async throws -> Int {
    let folder = TemporaryDirectory()
    let library = try await Library.open(at: folder.at("library"))
    let counting = CountingThumbnailer()
    var renditions = RenditionStore.Configuration(sizes: [32])
    renditions.thumbnailer = counting
    renditions.maximumConcurrentRenditions = 2
    renditions.decodeBudget = budget
    var configuration = Importer.Configuration()
    configuration.renditions = renditions
    let sources =
      (1...6).map { index in
        FileItemSource(
          path: ImagingFixture.path(["scene.gif", "orientation-1.jpg", "scene.heic"][index % 3]))
      } + [FileItemSource(path: ImagingFixture.path("orientation-3.jpg"))]
    _ = await Importer(library: library, configuration: configuration).importItems(sources)
    return counting.state.current.most
  }

  @Test func photosOverTheBudgetRunOneAtATime() async throws {
    // Each of these decodes more than 1,000 pixels (scene.gif 128×96 whole, the JPEGs at 1/2, the HEIC's
    // thumbnail item): with room for one, never two at once.
    #expect(try await mostAtOnce(budget: 1_000) == 1)
    #expect(try await mostAtOnce(budget: 1_000_000) == 2)
  }

  @Test func theCostCountsWhatTheDecoderHolds() throws {
    func facts(_ type: MediaType, _ width: Int, _ height: Int) -> MediaMetadata {
      var metadata = MediaMetadata(type: type)
      metadata.width = width
      metadata.height = height
      return metadata
    }
    // A 12 MP JPEG decodes at 1/8 for 320 px; a 12 MP PNG decodes whole.
    #expect(ThumbnailPlan.decodedPixels(facts(.jpeg, 4032, 3024), size: 320) == 4032 * 3024 / 64)
    #expect(ThumbnailPlan.decodedPixels(facts(.jpeg, 4032, 3024), size: 1024) == 4032 * 3024 / 4)
    #expect(ThumbnailPlan.decodedPixels(facts(.png, 4032, 3024), size: 320) == 4032 * 3024)
    #expect(ThumbnailPlan.decodedPixels(facts(.heic, 4032, 3024), size: 320) == 4032 * 3024)
    #expect(ThumbnailPlan.decodedPixels(facts(.png, Int.max, 2), size: 320) == Int.max)
  }
}

/// Renditions asked for on demand go through the decode queue: identical requests share one decode, and
/// requests for different photos stay within the decode budget.
@Suite struct OnDemandRenditionTests {
  /// A thumbnailer that decodes nothing: it counts its calls and how many run at once, and holds each call
  /// until the test opens the gate (it runs on a decode lane, where waiting is allowed).
  final class HeldThumbnailer: ThumbnailGenerating, Sendable {
    let state = Protected((calls: 0, running: 0, most: 0, open: false))

    func thumbnail(ofFileAt path: String, request: ThumbnailRequest) throws(ImagingError) -> Thumbnail {
      try thumbnails(ofFileAt: path, sizes: [request.maxPixelSize], request: request)[0]
    }

    func thumbnails(ofFileAt path: String, sizes: [Int], request: ThumbnailRequest) throws(ImagingError)
      -> [Thumbnail]
    {
      state.withLock { state in
        state.calls += 1
        state.running += 1
        state.most = max(state.most, state.running)
      }
      defer { state.withLock { $0.running -= 1 } }
      for _ in 0..<2_000 where !state.current.open { usleep(1_000) }
      return sizes.map {
        Thumbnail(jpegData: Fixture.jpeg(seed: 1, size: 64), width: $0, height: $0, source: .primaryImage)
      }
    }

    func open() { state.withLock { $0.open = true } }
  }

  /// A library holding `count` photos, and a store whose decodes `thumbnailer` makes; `budget` is unusual so
  /// that no other suite shares the store's decode queue.
  func setUp(_ count: Int, budget: Int, thumbnailer: HeldThumbnailer) async throws
    -> (TemporaryDirectory, RenditionStore, [Asset])
  {
    let folder = TemporaryDirectory()
    let library = try await Library.open(at: folder.at("library"))
    // Real photos: their facts, read at import, price each decode in the queue.
    let sources: [any ItemSource] = ["orientation-1.jpg", "orientation-3.jpg", "orientation-6.jpg"]
      .prefix(count).map { FileItemSource(path: ImagingFixture.path($0)) }
    let summary = await Importer(library: library).importItems(sources)
    var configuration = RenditionStore.Configuration(sizes: [64])
    configuration.thumbnailer = thumbnailer
    configuration.maximumConcurrentRenditions = 2
    configuration.decodeBudget = budget
    return (
      folder, RenditionStore(library: library, configuration: configuration),
      summary.items.compactMap(\.result.asset)
    )
  }

  @Test func identicalRequestsShareOneDecode() async throws {
    let held = HeldThumbnailer()
    let (folder, store, assets) = try await setUp(1, budget: 7_654_321, thumbnailer: held)
    _ = folder
    async let first = store.rendition(of: assets[0], size: 64)
    async let second = store.rendition(of: assets[0], size: 64)
    // The second request has long found the rendition missing before the first decode is let go.
    while held.state.current.calls == 0 { try await Task.sleep(for: .milliseconds(2)) }
    try await Task.sleep(for: .milliseconds(150))
    held.open()
    let (a, b) = try await (first, second)
    #expect(held.state.current.calls == 1, "identical requests decoded \(held.state.current.calls) times")
    #expect(a.path == b.path)
  }

  @Test func requestsForDifferentPhotosStayWithinTheDecodeBudget() async throws {
    let held = HeldThumbnailer()
    // Each 64 px rendition of these decodes more than 1,000 pixels: a budget of 1,000 admits one at a time.
    let (folder, store, assets) = try await setUp(3, budget: 1_000, thumbnailer: held)
    _ = folder
    #expect(assets.count == 3)
    #expect(assets.allSatisfy { ThumbnailPlan.decodedPixels($0.metadata, size: 64) > 1_000 })
    async let all = withThrowingTaskGroup(of: Rendition.self) { group in
      for asset in assets { group.addTask { try await store.rendition(of: asset, size: 64) } }
      return try await group.reduce(into: 0) { count, _ in count += 1 }
    }
    while held.state.current.calls == 0 { try await Task.sleep(for: .milliseconds(2)) }
    try await Task.sleep(for: .milliseconds(150))
    held.open()
    #expect(try await all == 3)
    #expect(held.state.current.most == 1, "\(held.state.current.most) decodes ran at once over the budget")
    #expect(held.state.current.calls == 3)
  }
}
