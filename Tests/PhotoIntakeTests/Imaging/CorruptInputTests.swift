#if canImport(CVips)
  import Foundation
  import PhotoMetadata
  import Testing

  @testable import PhotoIntake

  /// Damaged, unsupported and missing inputs give typed errors with a sentence, never a crash or a grey
  /// picture.
  struct CorruptInputTests {
    let thumbnailer = VipsThumbnailer()

    enum Expected: Sendable {
      case decodeFailed, malformed, unsupported(MediaType?), fileNotFound
    }

    @Test(arguments: [
      ("truncated.jpg", Expected.decodeFailed),
      ("truncated.png", .decodeFailed),
      ("truncated.heic", .decodeFailed),
      ("garbage.jpg", .malformed),
      ("not-an-image.txt", .unsupported(nil)),
      ("no-such-file.jpg", .fileNotFound),
    ])
    func damagedInputsGiveTypedErrors(file: String, expected: Expected) {
      expectFailure(Fixture.path(file), expected)
    }

    /// Every prefix of a good file is either read or refused with a typed error: the header readers never trap.
    @Test(arguments: [
      "exif-thumbnail.jpg", "mpf-preview.jpg", "scene.heic", "scene.png", "scene.webp", "scene.gif",
    ])
    func truncatedHeadersNeverTrap(file: String) throws {
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Fixture.path(file))))
      for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) {
        _ = try? ImageHeaders.read(MemoryBytes(storage: bytes[0..<length]))
      }
    }

    @Test func emptyFileAndMovieAreUnsupported() throws {
      let folder = TemporaryDirectory()
      #expect(FileManager.default.createFile(atPath: folder.file("empty.jpg"), contents: Data()))
      expectFailure(folder.file("empty.jpg"), .unsupported(nil))
      // A QuickTime header: a movie, which has no renditions.
      let movie: [UInt8] = [0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8)
      #expect(FileManager.default.createFile(atPath: folder.file("clip.mov"), contents: Data(movie)))
      expectFailure(folder.file("clip.mov"), .unsupported(.mov))
    }

    /// Error sentences leave the file's path out (it may be personal data).
    @Test func errorsDoNotRevealPaths() {
      let path = Fixture.path("truncated.png")
      do {
        _ = try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320))
        Issue.record("expected a failure")
      } catch {
        #expect(!error.description.contains(Fixture.folder))
      }
    }

    private func expectFailure(
      _ path: String, _ expected: Expected, sourceLocation: SourceLocation = #_sourceLocation
    ) {
      do {
        let thumbnail = try thumbnailer.thumbnail(
          ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320))
        Issue.record(
          "expected a failure, got \(thumbnail.width)×\(thumbnail.height)", sourceLocation: sourceLocation)
      } catch {
        let matches =
          switch (error, expected) {
          case (.decodeFailed, .decodeFailed), (.malformed, .malformed), (.fileNotFound, .fileNotFound): true
          case (.unsupportedContent(let type), .unsupported(let expectedType)): type == expectedType
          default: false
          }
        #expect(matches, "got \(error.code): \(error.description)", sourceLocation: sourceLocation)
        #expect(
          error.description.hasSuffix(".") && error.description.count > 30, sourceLocation: sourceLocation)
      }
    }
  }
#endif
