#if canImport(CVips)
  import Foundation
  import PhotoIntakeTesting
  import Testing

  @testable import IntakeCLI
  @testable import PhotoIntake

  struct ThumbnailCommandTests {
    struct Case: Sendable, CustomStringConvertible {
      var arguments: [String]
      var status: Int32
      /// Expected stdout, with `$OUT` for the scratch folder.
      var stdout: String
      var stderrContains: String = ""
      var description: String { arguments.joined(separator: " ") }
    }

    static let fixtures = ImagingFixture.folder
    static let movies = MovieFixture.folder

    static let cases: [Case] = [
      Case(
        arguments: ["thumbnail", "\(fixtures)/orientation-6.jpg", "--size", "40", "--out", "small.jpg"],
        status: 0, stdout: "\(fixtures)/orientation-6.jpg: 40×27 from the primary image -> $OUT/small.jpg\n"),
      Case(
        arguments: ["thumbnail", "\(fixtures)/mpf-preview.jpg", "--size", "300", "--out", "p.jpg", "--json"],
        status: 0,
        stdout: #"{"path":"\#(fixtures)/mpf-preview.jpg","out":"$OUT/p.jpg","width":300,"height":225,"#
          + #""bytes":BYTES,"source":"MPF preview"}"# + "\n"),
      Case(
        arguments: [
          "thumbnail", "\(fixtures)/mpf-preview.jpg", "--size", "300", "--no-preview", "--out", "p.jpg",
        ],
        status: 0, stdout: "\(fixtures)/mpf-preview.jpg: 300×225 from the primary image -> $OUT/p.jpg\n"),
      Case(
        arguments: ["thumbnail", "\(movies)/rotation-90.mov", "--size", "48", "--out", "m.jpg"], status: 0,
        stdout: "\(movies)/rotation-90.mov: 48×32 from the movie frame at 1.0 s -> $OUT/m.jpg\n"),
      Case(
        arguments: ["thumbnail", "\(movies)/hevc.mp4", "--size", "64", "--out", "h.jpg", "--json"], status: 0,
        stdout: #"{"path":"\#(movies)/hevc.mp4","out":"$OUT/h.jpg","width":64,"height":43,"bytes":BYTES,"#
          + #""source":"movie frame at 1.0 s","duration":3}"# + "\n"),
      Case(
        arguments: ["thumbnail", "\(movies)/truncated.mov", "--out", "t.jpg"], status: 1, stdout: "",
        stderrContains:
          "truncated.mov: The file's headers are damaged (the movie's header (moov) is missing"),
      Case(
        arguments: ["thumbnail", "\(fixtures)/bomb.png", "--out", "b.jpg"], status: 1, stdout: "",
        stderrContains: "declares 4294.8 megapixels, more than the 200 MP limit"),
      Case(
        arguments: ["thumbnail", "\(fixtures)/exif-thumbnail.jpg", "--max-pixels", "1000", "--out", "b.jpg"],
        status: 1, stdout: "", stderrContains: "more than the 0 MP limit"),
      Case(
        arguments: ["thumbnail", "\(fixtures)/scene.png"], status: 2, stdout: "",
        stderrContains: "--out PATH is required"),
      Case(
        arguments: ["thumbnail", "\(fixtures)/scene.png", "--size", "0", "--out", "x.jpg"], status: 2,
        stdout: "",
        stderrContains: "--size needs a positive number"),
    ]

    @Test(arguments: cases)
    func thumbnailCommand(_ input: Case) async throws {
      let scratch = TemporaryDirectory()
      let result = await runIntake(input.arguments, in: scratch.path)
      #expect(result.status == input.status, "stderr: \(result.stderr)")
      var stdout = result.stdout.replacingOccurrences(of: scratch.path, with: "$OUT")
      if let bytes = stdout.range(of: #""bytes":[0-9]+"#, options: .regularExpression) {
        stdout.replaceSubrange(bytes, with: #""bytes":BYTES"#)
      }
      #expect(stdout == input.stdout)
      if input.stderrContains.isEmpty {
        #expect(result.stderr == "")
      } else {
        #expect(result.stderr.contains(input.stderrContains), "stderr: \(result.stderr)")
      }
      if input.status == 0, let out = input.arguments.firstIndex(of: "--out").map({ input.arguments[$0 + 1] })
      {
        let written = try Data(contentsOf: URL(fileURLWithPath: scratch.at(out)))
        #expect(written.prefix(2) == Data([0xFF, 0xD8]))
        #expect(
          try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [out], "no temporary left")
      }
    }

    /// One file and an existing folder: NAME.jpg inside it.
    @Test func oneFileIntoAFolder() async throws {
      let scratch = TemporaryDirectory()
      let result = await runIntake(
        ["thumbnail", ImagingFixture.path("scene.webp"), "--size", "30", "--out", "."], in: scratch.path)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["scene.jpg"])
    }

    /// Several files go to a folder, one JPEG each, names deduplicated.
    @Test func severalFilesGoToAFolder() async throws {
      let scratch = TemporaryDirectory()
      let inputs = ["scene.png", "scene.webp", "scene.gif", "scene.heic", "bomb.gif"].map(ImagingFixture.path)
      let result = await runIntake(
        ["thumbnail"] + inputs + ["--size", "32", "--out", "thumbs"], in: scratch.path)
      #expect(result.status == 1)
      #expect(result.stderr.contains("bomb.gif: The image declares"))
      let names = try FileManager.default.contentsOfDirectory(atPath: scratch.at("thumbs")).sorted()
      #expect(names == ["scene-2.jpg", "scene-3.jpg", "scene-4.jpg", "scene.jpg"])
      #expect(result.stdout.split(separator: "\n").count == 4)
    }
  }
#endif
