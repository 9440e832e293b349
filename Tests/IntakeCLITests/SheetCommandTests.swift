#if canImport(CVips)
  import Foundation
  import PhotoIntakeTesting
  import Testing

  @testable import IntakeCLI
  @testable import PhotoIntake

  /// `intake sheet` checked in a real browser: headless Chromium loads the page, its script records how many
  /// pictures loaded (natural width > 0), and a screenshot shows what a person would see.
  ///
  /// Needs Debian's `chromium` (`Scripts/install-deps.sh --test`), or `CHROMIUM=/path/to/chrome`. Set
  /// `PHOTOINTAKE_KEEP_SCREENSHOT=/path.png` to keep the screenshot for a look.
  @Suite(.serialized)
  struct SheetCommandTests {
    static let photos = [
      "orientation-6.jpg", "irot.heic", "scene.png", "scene.webp", "scene.gif", "scene.heic",
      "exif-thumbnail.jpg",
      "mpf-preview.jpg",
    ]

    @Test func sheetLoadsEveryPictureInChromium() async throws {
      let scratch = TemporaryDirectory()
      let library = ["--library", scratch.at("library")]
      let files = (Self.photos + ["bomb.webp"]).map(ImagingFixture.path)
      let imported = await runIntake(["import"] + library + files, in: scratch.path)
      #expect(imported.status == 0, "\(imported.stderr)")
      #expect(imported.stderr.contains("bomb.webp: no renditions: The image declares"))

      let sheet = await runIntake(["sheet"] + library + ["--out", "sheet"], in: scratch.path)
      // 1: the bomb has no rendition; it is shown as a placeholder.
      #expect(sheet.status == 1)
      #expect(sheet.stdout == "\(scratch.path)/sheet/index.html: 9 item(s)\n")
      let html = try String(contentsOfFile: scratch.at("sheet/index.html"), encoding: .utf8)
      #expect(html.components(separatedBy: "<img ").count - 1 == Self.photos.count)
      #expect(html.contains("No preview: too-many-pixels"))
      #expect(
        html.contains("Captured 2024-05-06 07:08:09 (UTC+02:00)")
          && html.contains("PhotoIntake Fixture Camera"))
      // Batch order is the order given on the command line.
      let order = Self.photos.map { html.range(of: "<b>\($0)</b>")?.lowerBound }
      #expect(order.allSatisfy { $0 != nil } && order.map { $0! } == order.map { $0! }.sorted())

      let page = "file://" + scratch.at("sheet/index.html")
      let dom = try Chromium.dumpDOM(page, profile: scratch.at("chromium"))
      #expect(dom.contains("data-images-loaded=\"\(Self.photos.count)\""), "\(dom.prefix(300))")
      #expect(dom.contains("data-images-broken=\"0\""))

      let screenshot = scratch.at("sheet.png")
      try Chromium.screenshot(page, to: screenshot, profile: scratch.at("chromium"))
      let picture = try VipsImageRef.decodePixels(
        Array(try Data(contentsOf: URL(fileURLWithPath: screenshot))))
      #expect(picture.width == 1280 && picture.height == 1400)
      // The scene's red shows up on the page: the pictures are drawn, not just counted.
      var red = 0
      for at in stride(from: 0, to: picture.pixels.count - 2, by: picture.bands)
      where picture.pixels[at] > 220 && picture.pixels[at + 1] < 40 && picture.pixels[at + 2] < 40 {
        red += 1
      }
      #expect(red > 20_000, "\(red) red pixels")
      if let keep = ProcessInfo.processInfo.environment["PHOTOINTAKE_KEEP_SCREENSHOT"] {
        try? FileManager.default.removeItem(atPath: keep)
        try FileManager.default.copyItem(atPath: screenshot, toPath: keep)
      }

      // The check can fail: with one picture missing, the page reports it broken.
      let copies = try FileManager.default.contentsOfDirectory(atPath: scratch.at("sheet/renditions"))
      try FileManager.default.removeItem(atPath: scratch.at("sheet/renditions/" + copies[0]))
      let broken = try Chromium.dumpDOM(page, profile: scratch.at("chromium"))
      #expect(broken.contains("data-images-broken=\"1\""))
      #expect(broken.contains("data-images-loaded=\"\(Self.photos.count - 1)\""))
    }
  }

  /// Movies on the sheet: posters (upright, the stored frame is turned), a duration badge, a LIVE mark on both
  /// halves of a Live Photo, and a placeholder for a movie cut short.
  @Suite(.serialized)
  struct SheetMovieTests {
    @Test func moviesShowPostersDurationsAndLiveMarks() async throws {
      let scratch = TemporaryDirectory()
      let library = ["--library", scratch.at("library")]
      let files = ["rotation-90.mov", "live-photo.jpg", "live-photo.mov", "truncated.mov"].map(
        MovieFixture.path)
      let imported = await runIntake(["import"] + library + files, in: scratch.path)
      #expect(imported.status == 0, "\(imported.stderr)")
      #expect(imported.stderr.contains("truncated.mov: no renditions: The file's headers are damaged"))

      let sheet = await runIntake(["sheet"] + library + ["--out", "sheet"], in: scratch.path)
      // 1: the cut movie has no poster.
      #expect(sheet.status == 1, "\(sheet.stderr)")
      let html = try String(contentsOfFile: scratch.at("sheet/index.html"), encoding: .utf8)
      #expect(html.components(separatedBy: "<img ").count - 1 == 3)
      // The turned movie's poster is upright: landscape, like the scene.
      #expect(html.contains("width=\"192\" height=\"128\" alt=\"rotation-90.mov\""))
      #expect(html.components(separatedBy: "<span class=\"badge duration\">0:02</span>").count - 1 == 2)
      #expect(html.components(separatedBy: ">LIVE</span>").count - 1 == 2)
      #expect(html.contains("Movie (mov), no poster: malformed"))

      let dom = try Chromium.dumpDOM(
        "file://" + scratch.at("sheet/index.html"), profile: scratch.at("chromium"))
      #expect(dom.contains("data-images-loaded=\"3\""), "\(dom.prefix(300))")
      #expect(dom.contains("data-images-broken=\"0\""))
    }

    @Test(arguments: [(0.4, "0:00"), (2.0, "0:02"), (59.6, "1:00"), (75, "1:15"), (3_725, "1:02:05")])
    func durationsReadLikeAPlayer(_ seconds: Double, _ shown: String) {
      #expect(SheetRun.duration(seconds) == shown)
    }
  }

  /// Headless Chromium, run as a child process.
  enum Chromium {
    static var executable: String {
      ProcessInfo.processInfo.environment["CHROMIUM"] ?? "/usr/bin/chromium"
    }

    static func dumpDOM(_ url: String, profile: String) throws -> String {
      try run(["--dump-dom", url], profile: profile)
    }

    static func screenshot(_ url: String, to path: String, profile: String) throws {
      _ = try run(["--screenshot=\(path)", "--window-size=1280,1400", url], profile: profile)
      guard FileManager.default.fileExists(atPath: path) else {
        throw ChromiumError(message: "no screenshot was written")
      }
    }

    struct ChromiumError: Error, CustomStringConvertible {
      var message: String
      var description: String { "chromium: \(message)" }
    }

    /// Runs Chromium with flags for a container (no sandbox, no GPU), waiting at most 60 s.
    private static func run(_ arguments: [String], profile: String) throws -> String {
      guard FileManager.default.isExecutableFile(atPath: executable) else {
        throw ChromiumError(message: "\(executable) is missing; run Scripts/install-deps.sh --test")
      }
      let process = ChildProcess()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments =
        [
          "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
          "--user-data-dir=\(profile)",
        ] + arguments
      // Output goes to a file, so that waiting with a deadline cannot block on a full pipe.
      let outputPath = profile + "-output.txt"
      guard FileManager.default.createFile(atPath: outputPath, contents: nil) else {
        throw ChromiumError(message: "cannot create \(outputPath)")
      }
      let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
      defer { try? output.close() }
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      let exited = DispatchSemaphore(value: 0)
      process.terminationHandler = { _ in exited.signal() }
      try process.run()
      if exited.wait(timeout: .now() + 60) == .timedOut {
        process.terminate()
        throw ChromiumError(message: "timed out after 60 s")
      }
      guard process.terminationStatus == 0 else {
        throw ChromiumError(message: "exit status \(process.terminationStatus)")
      }
      let data = try Data(contentsOf: URL(fileURLWithPath: outputPath))
      return String(decoding: data, as: UTF8.self)
    }
  }
#endif
