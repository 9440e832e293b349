#if canImport(CVips)
  import Foundation
  import PhotoMetadata
  import Testing

  @testable import PhotoIntake
  import PhotoIntakeTesting

  /// An import's renditions are decoded while their item waits for its group commit (from the staged file),
  /// and written only once the item is committed.
  struct RenditionsAheadTests {
    /// The platform's thumbnailer, recording the path of each decode.
    final class RecordingThumbnailer: ThumbnailGenerating {
      let inner = PlatformThumbnailer()
      let paths = Protected<[String]>([])

      func thumbnail(ofFileAt path: String, request: ThumbnailRequest) throws(ImagingError) -> Thumbnail {
        try thumbnails(ofFileAt: path, sizes: [request.maxPixelSize], request: request)[0]
      }

      func thumbnails(ofFileAt path: String, sizes: [Int], request: ThumbnailRequest) throws(ImagingError)
        -> [Thumbnail]
      {
        paths.withLock { $0.append(path) }
        return try inner.thumbnails(ofFileAt: path, sizes: sizes, request: request)
      }
    }

    static let photos = [
      "orientation-1.jpg", "orientation-3.jpg", "orientation-6.jpg", "orientation-8.jpg", "scene.png",
      "scene.webp", "exif-thumbnail.jpg", "scene.gif",
    ]

    func importing(_ names: [String], into library: Library, thumbnailer: RecordingThumbnailer) async
      -> [ImportEvent]
    {
      var renditions = RenditionStore.Configuration(sizes: [48])
      renditions.thumbnailer = thumbnailer
      var configuration = Importer.Configuration()
      configuration.renditions = renditions
      let session = Importer(library: library, configuration: configuration)
        .start(names.map { FileItemSource(path: ImagingFixture.path($0)) })
      var events: [ImportEvent] = []
      for await event in session { events.append(event) }
      return events
    }

    @Test func decodesStartFromTheStagedFileAndTheFilesComeAfterTheCommit() async throws {
      let folder = TemporaryDirectory()
      let library = try await Library.open(at: folder.at("library"))
      let thumbnailer = RecordingThumbnailer()
      let events = await importing(Self.photos, into: library, thumbnailer: thumbnailer)
      let paths = thumbnailer.paths.current
      // Each photo decoded once, and at least the first ones before their commit took the staged name (a
      // group commit waits for several flushes; a decode ahead starts as soon as the item is received).
      #expect(paths.count == Self.photos.count, "\(paths)")
      #if os(Linux)
        // Read through the open staged file, which outlives its name.
        #expect(paths.contains { $0.hasPrefix("/proc/self/fd/") })
      #else
        #expect(paths.contains { $0.contains("/staging/") && $0.hasSuffix(".part") })
      #endif
      var committed: Set<Int> = []
      var rendered: Set<Int> = []
      for event in events {
        switch event {
        case .itemFinished(let report):
          #expect(report.result.asset != nil)
          committed.insert(report.index)
        case .renditionsFinished(let report):
          #expect(committed.contains(report.index), "renditions reported before their item was committed")
          let made = try report.result.get()
          #expect(made.count == 1 && FileManager.default.fileExists(atPath: made[0].path))
          rendered.insert(report.index)
        default: break
        }
      }
      #expect(rendered == Set(Self.photos.indices))
      // What was decoded ahead is what the store serves: the same files, found without another decode.
      let store = RenditionStore(library: library)
      for asset in try await library.all(order: .batch) {
        let rendition = try await store.rendition(of: asset, size: 48)
        #expect(max(rendition.width, rendition.height) <= 48)
      }
      #expect(thumbnailer.paths.current.count == Self.photos.count)
    }

    @Test func anItemWhoseCommitFailsLeavesNoRendition() async throws {
      let folder = TemporaryDirectory()
      let library = try await Library.open(at: folder.at("library"))
      // The fan-out folder of one photo is a file: its commit fails (a damaged layout), the others go on.
      let failing = SHA256Digest.of(
        Array(try Data(contentsOf: URL(fileURLWithPath: ImagingFixture.path("orientation-3.jpg")))))
      let prefix = String(failing.hex.prefix(2))
      let objects = folder.at("library/objects")
      // A library makes a fan-out folder when its first object arrives: a file in its place is damage.
      let path = "\(objects)/\(prefix)"
      #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
      let thumbnailer = RecordingThumbnailer()
      let events = await importing(Self.photos, into: library, thumbnailer: thumbnailer)
      var failed: [Int] = []
      var rendered: Set<Int> = []
      for event in events {
        switch event {
        case .itemFinished(let report) where report.result.asset == nil: failed.append(report.index)
        case .renditionsFinished(let report): rendered.insert(report.index)
        default: break
        }
      }
      #expect(failed == [1])
      #expect(rendered == Set(Self.photos.indices).subtracting([1]))
      // Whether or not its decode ran ahead, nothing of it was written: no rendition for bytes the library
      // does not have, and nothing left in staging.
      let renditions = folder.at("library/renditions")
      let written = (FileManager.default.enumerator(atPath: renditions)?.allObjects as? [String]) ?? []
      #expect(!written.contains { $0.contains(failing.hex) })
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.at("library/staging")).isEmpty)
    }
  }
#endif
