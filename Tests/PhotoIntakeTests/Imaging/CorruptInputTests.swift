#if canImport(CVips)
  import Foundation
  import PhotoMetadata
  import Testing

  @testable import PhotoIntake
  import PhotoIntakeTesting

  /// Damaged, unsupported and missing inputs give typed errors with a sentence, never a crash or a grey
  /// picture.
  struct CorruptInputTests {
    let thumbnailer = VipsThumbnailer()

    enum Expected: Sendable {
      case decodeFailed, malformed, unsupported(MediaType?), fileNotFound
    }

    @Test(arguments: [
      ("truncated.jpg", Expected.decodeFailed),
      // A PNG cut after its header keeps its facts (issue 26: exiftool reads them); its decoder then fails on
      // the cut data, never padding it into a grey picture.
      ("truncated.png", .decodeFailed),
      // The header pass walks HEIF item extents to the end of the file, so it notices this truncation before
      // any decoder runs; a JPEG's headers end before its scan.
      ("truncated.heic", .malformed),
      ("garbage.jpg", .malformed),
      ("not-an-image.txt", .unsupported(nil)),
      ("no-such-file.jpg", .fileNotFound),
    ])
    func damagedInputsGiveTypedErrors(file: String, expected: Expected) {
      expectFailure(ImagingFixture.path(file), expected)
    }

    /// Every prefix of a good file is either read or refused as damaged: the header readers never trap, and a
    /// prefix never yields a size the whole file does not declare (the bomb guard trusts that size).
    @Test(arguments: [
      "exif-thumbnail.jpg", "mpf-preview.jpg", "scene.heic", "scene.png", "scene.webp", "scene.gif",
    ])
    func truncatedHeadersNeverTrap(file: String) throws {
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: ImagingFixture.path(file))))
      let full = try ImageHeaders.read(bytes: bytes)
      let width = try #require(full.width), height = try #require(full.height)
      #expect(width > 0 && height > 0)
      var refused = 0
      for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) {
        let prefix = Array(bytes[0..<length])
        do {
          let headers = try ImageHeaders.read(bytes: prefix)
          #expect(headers.type == full.type, "\(file) cut at \(length)")
          #expect(headers.width == nil || headers.width == width, "\(file) cut at \(length): \(headers)")
          #expect(headers.height == nil || headers.height == height, "\(file) cut at \(length): \(headers)")
        } catch {
          refused += 1
          // Too short to sniff, or damaged headers; never an I/O error or another format.
          switch error {
          case .malformed, .unsupportedContent(type: nil): break
          default: Issue.record("\(file) cut at \(length): \(error.code): \(error)")
          }
        }
      }
      // The empty prefix at least is refused, so the loop above did exercise the error path.
      #expect(refused > 0)
    }

    @Test func emptyFileIsUnsupportedAndAMovieWithoutHeaderMalformed() throws {
      let folder = TemporaryDirectory()
      #expect(FileManager.default.createFile(atPath: folder.at("empty.jpg"), contents: Data()))
      expectFailure(folder.at("empty.jpg"), .unsupported(nil))
      // A QuickTime file type box alone: a movie (its poster goes to FFmpeg) whose movie header is missing.
      let movie: [UInt8] = [0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8)
      #expect(FileManager.default.createFile(atPath: folder.at("clip.mov"), contents: Data(movie)))
      expectFailure(folder.at("clip.mov"), .malformed)
      // A movie header without a video track: no poster to make.
      let silent = try folder.write("silent.mov", Fixtures.quickTimeMovie(duration: 2))
      expectFailure(silent, .unsupported(.mov))
    }

    /// Error sentences leave the file's path out (it may be personal data).
    @Test func errorsDoNotRevealPaths() {
      let path = ImagingFixture.path("truncated.png")
      do {
        _ = try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320))
        Issue.record("expected a failure")
      } catch {
        #expect(!error.description.contains(ImagingFixture.folder))
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
