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
      // A HEIF cut inside its media data keeps its facts (issue 26), and libheif, which decodes whole pictures
      // only, refuses the cut item: no rendition (vipsthumbnail makes none either).
      ("truncated.heic", Expected.decodeFailed),
      ("garbage.jpg", .malformed),
      ("not-an-image.txt", .unsupported(nil)),
      ("no-such-file.jpg", .fileNotFound),
    ])
    func damagedInputsGiveTypedErrors(file: String, expected: Expected) {
      expectFailure(ImagingFixture.path(file), expected)
    }

    /// A JPEG or PNG cut inside its pixel data renders as vipsthumbnail shows it, the missing rows filled in,
    /// and says so (``Thumbnail/isPartial``); an export never passes it off as the picture (issue 26).
    @Test(arguments: ["truncated.jpg", "truncated.png"])
    func cutPicturesRenderPartiallyAndNeverExport(file: String) throws {
      let path = ImagingFixture.path(file)
      let thumbnail = try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320))
      #expect(thumbnail.isPartial, "\(file) is cut short: its rendition must say so")
      #expect(thumbnail.width > 0 && thumbnail.height > 0)
      // A file that is whole is not partial.
      let whole = try thumbnailer.thumbnail(
        ofFileAt: ImagingFixture.path(file.hasSuffix(".png") ? "scene.png" : "orientation-1.jpg"),
        request: ThumbnailRequest(maxPixelSize: 320))
      #expect(!whole.isPartial)
      // Exported at a size that needs a conversion (and a PNG at full size too): refused as undecodable. (A JPEG
      // asked at its own size is exported as its original bytes, never decoded.)
      for size in file.hasSuffix(".png") ? [64, nil] : [64] as [Int?] {
        #expect {
          _ = try CompatibleJPEG.make(fileAt: path, options: ExportOptions(format: .jpeg, maxPixelSize: size))
        } throws: { error in
          (error as? ImagingError)?.code == "decode-failed"
        }
      }
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
      let path = ImagingFixture.path("truncated.heic")
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
