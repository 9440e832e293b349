#if canImport(CVips)
  import Foundation
  import PhotoMetadata
  import Testing

  @testable import PhotoIntake
  import PhotoIntakeTesting

  /// Renditions of damaged real files (issue 26): made whenever vipsthumbnail makes one, and never depending
  /// on metadata the decode does not need. The damaged fixtures are PhotoMetadata's (`damaged-*`, made from
  /// real files by `Scripts/damage-fixture.py`).
  struct DamagedRenditionTests {
    let thumbnailer = VipsThumbnailer()

    static func fixture(_ name: String) -> String {
      Repository.path("Tests/PhotoMetadataTests/Fixtures/" + name)
    }

    /// Whether vipsthumbnail (libvips-tools, the reference) renders `path` at 320 px.
    static func vipsRenders(_ path: String) throws -> Bool {
      let folder = TemporaryDirectory()
      let process = ChildProcess()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/vipsthumbnail")
      process.arguments = [path, "--size", "320", "-o", folder.at("out.jpg")]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus == 0
    }

    /// Each damaged still renders exactly when vipsthumbnail renders it; those that render partially say so.
    @Test(arguments: [
      "damaged-tiff-entries.tif", "damaged-png-chunk-length.png", "damaged-gif-cut.gif",
      "damaged-jpeg-soi-bytes.jpg", "damaged-jpeg-cut-scan.jpg", "damaged-heic-cut.heic",
      "damaged-jpeg-stray-frame.jpg",
    ])
    func rendersWhatVipsthumbnailRenders(name: String) throws {
      let path = Self.fixture(name)
      let reference = try Self.vipsRenders(path)
      let result = Result { () throws(ImagingError) in
        try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320))
      }
      switch result {
      case .success(let thumbnail):
        #expect(reference, "\(name): rendered, but vipsthumbnail does not render it")
        #expect(
          thumbnail.width == 64 || thumbnail.height == 64, "\(name): \(thumbnail.width)×\(thumbnail.height)")
      case .failure(let error):
        #expect(!reference, "\(name): vipsthumbnail renders it, we refused: \(error)")
        #expect(["decode-failed", "malformed"].contains(error.code), "\(name): \(error)")
      }
      // The ones the set showed: a TIFF with damaged entries, a cut GIF, stray bytes after SOI.
      if ["damaged-tiff-entries.tif", "damaged-gif-cut.gif", "damaged-jpeg-soi-bytes.jpg"].contains(name) {
        #expect(reference && (try? result.get()) != nil, "\(name) must render")
      }
    }

    /// A picture too narrow for its length to reduce (libvips 8.14 can abort the process on the 0-pixel side it
    /// would compute): a typed refusal at that size, a rendition at a size it reduces to.
    @Test func aPictureTooNarrowToReduceIsRefusedNotAborted() throws {
      let folder = TemporaryDirectory()
      // 2 × 2000 pixels: at 320 px the short side would be 0.32 of a pixel.
      let path = folder.at("narrow.png")
      try CompatibleExportTests.run("vips", ["black", path, "2", "2000"])
      #expect(throws: ImagingError.extremeAspectRatio(width: 2, height: 2000)) {
        try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320))
      }
      let wide = try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 1000))
      #expect(wide.width == 1 && wide.height == 1000)
      // The export conversion checks the same before it decodes.
      #expect(throws: ImagingError.extremeAspectRatio(width: 2, height: 2000)) {
        try CompatibleJPEG.plan(fileAt: path, options: ExportOptions(format: .jpeg, maxPixelSize: 320))
      }
    }

    /// A later TIFF page whose directory is damaged, or whose size is given as a list (which libtiff refuses),
    /// is no page a decoder allocates: the first page renders. An undamaged huge later page is still refused
    /// (BombGuardTests).
    @Test func damagedLaterPagesDoNotRefuseTheFirst() throws {
      for bytes in [CanvasBombs.twoPageTIFF(width: 20000, height: 20000, sizeCount: 2)] {
        let survey = try CanvasScanner.survey(bytes: bytes)
        #expect(survey.largestCanvas == PixelSize(width: 16, height: 16))
      }
      let undamaged = try CanvasScanner.survey(bytes: CanvasBombs.twoPageTIFF(width: 20000, height: 20000))
      #expect(undamaged.largestCanvas == PixelSize(width: 20000, height: 20000))
    }
  }
#endif
