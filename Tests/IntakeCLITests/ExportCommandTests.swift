import Foundation
import PhotoIntakeTesting
import Testing

@testable import IntakeCLI

#if canImport(CVips)
  /// `intake export --as jpeg`, in-process, with exiftool reading what was written.
  @Suite struct ExportCommandTests {
    let folder = TemporaryDirectory()

    static func exif(_ path: String) throws -> [String: Any] {
      let process = ChildProcess()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
      process.arguments = ["-n", "-json", path]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
      return try #require(objects.first)
    }

    func importSample(_ name: String) async throws -> String {
      let imported = await runIntake(
        ["import", "--library", "lib", Repository.path("Samples/" + name)], in: folder.path)
      #expect(imported.status == 0, "\(imported.stderr)")
      let list = await runIntake(["list", "--library", "lib"], in: folder.path)
      return try #require(list.stdout.split(separator: " ").first.map(String.init))
    }

    @Test func jpegFromHEICWithoutLocationAtAMaximumSize() async throws {
      let id = try await importSample("IMG_0002.HEIC")
      let source = try Self.exif(Repository.path("Samples/IMG_0002.HEIC"))
      let result = await runIntake(
        [
          "export", "--library", "lib", id, "small.jpg", "--as", "jpeg", "--strip-location", "--max-size",
          "200",
        ],
        in: folder.path)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout == folder.at("small.jpg") + "\n")
      let written = try Self.exif(folder.at("small.jpg"))
      #expect(written["FileType"] as? String == "JPEG")
      #expect(max(written["ImageWidth"] as? Int ?? 0, written["ImageHeight"] as? Int ?? 0) == 200)
      #expect(written["GPSLatitude"] == nil)
      #expect(written["DateTimeOriginal"] as? String == source["DateTimeOriginal"] as? String)
      #expect(written["Model"] as? String == source["Model"] as? String)

      let kept = await runIntake(
        ["export", "--library", "lib", id, "full.jpg", "--as", "jpeg"], in: folder.path)
      #expect(kept.status == 0)
      let full = try Self.exif(folder.at("full.jpg"))
      #expect(full["ImageWidth"] as? Int == source["ImageWidth"] as? Int)
      #expect((full["GPSLatitude"] as? Double) == (source["GPSLatitude"] as? Double))
    }

    @Test func aMovieGoesAsItIsWithANote() async throws {
      let movie = Repository.metadataFixtures + "/mov-location.mov"
      let imported = await runIntake(["import", "--library", "lib", movie], in: folder.path)
      #expect(imported.status == 0)
      let list = await runIntake(["list", "--library", "lib"], in: folder.path)
      let id = try #require(list.stdout.split(separator: " ").first.map(String.init))
      let result = await runIntake(
        ["export", "--library", "lib", id, "clip.mov", "--as", "jpeg", "--strip-location"], in: folder.path)
      #expect(result.status == 0)
      #expect(
        result.stderr == "intake export: note: movies are exported as they are (no video encoder here).\n")
      // As it is, apart from its location: only metadata bytes changed, the length is the same.
      let original = try Data(contentsOf: URL(fileURLWithPath: movie))
      let exported = try Data(contentsOf: URL(fileURLWithPath: folder.at("clip.mov")))
      #expect(exported.count == original.count && exported != original)
      #expect(try Self.exif(folder.at("clip.mov"))["GPSCoordinates"] == nil)
      #expect(try Self.exif(movie)["GPSCoordinates"] != nil)
    }

    @Test func refusalsAndMistakes() async throws {
      let id = try await importSample("IMG_0001.JPG")
      try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.at("taken.jpg")))
      let taken = await runIntake(
        ["export", "--library", "lib", id, "taken.jpg", "--as", "jpeg"], in: folder.path)
      #expect(taken.status == 1)
      #expect(taken.stderr.contains("already exists"))
      #expect(try String(contentsOfFile: folder.at("taken.jpg"), encoding: .utf8) == "keep")
      let format = await runIntake(
        ["export", "--library", "lib", id, "x.png", "--as", "png"], in: folder.path)
      #expect(format.status == 2)
      #expect(format.stderr == "intake export: --as must be 'original' or 'jpeg'.\n")
      let size = await runIntake(
        ["export", "--library", "lib", id, "x.jpg", "--max-size", "0"], in: folder.path)
      #expect(size.status == 2)
      #expect(!FileManager.default.fileExists(atPath: folder.at("x.jpg")))
      // The sample is stored turned (orientation 6): as a JPEG it comes out upright, landscape.
      let upright = await runIntake(
        ["export", "--library", "lib", id, "up.jpg", "--as", "jpeg"], in: folder.path)
      #expect(upright.status == 0)
      let written = try Self.exif(folder.at("up.jpg"))
      #expect(written["Orientation"] as? Int == 1)
      #expect(written["ImageWidth"] as? Int == 640 && written["ImageHeight"] as? Int == 480)
    }
  }
#endif
