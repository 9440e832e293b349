import Foundation
import PhotoIntakeTesting
import Testing

@testable import IntakeCLI

/// The commands on real files of the shapes issues 24 and 26 named: an image sequence is `heics` in every
/// listing, a movie whose track header claims 65535² imports, a size over the decode limit is printed, a cut
/// picture renders partially and says so.
@Suite struct RealFileCommandTests {
  let folder = TemporaryDirectory()

  /// `list` cut the type to four characters: an imported image sequence showed as `heic` while `metadata`
  /// and `list --json` said `heics`.
  @Test func anImageSequenceIsHeicsInEveryListing() async throws {
    let sequence = Repository.metadataFixtures + "/shape-sequence.heics"
    let imported = await runIntake(
      ["import", "--no-renditions", "--library", "lib", sequence], in: folder.path)
    #expect(imported.status == 0)
    // Named .heics, sniffed as HEIF, read as a sequence: no "named .heics but the content is heic" warning.
    #expect(imported.stderr.isEmpty, "\(imported.stderr)")
    let list = await runIntake(["list", "--library", "lib"], in: folder.path)
    let fields = list.stdout.split(separator: " ", omittingEmptySubsequences: true)
    #expect(fields.count >= 2 && fields[1] == "heics", "\(list.stdout)")
    let json = try jsonLines(await runIntake(["list", "--library", "lib", "--json"], in: folder.path).stdout)
    #expect(json.first?["type"] as? String == "heics")
    let metadata = try jsonLines(await runIntake(["metadata", "--json", sequence], in: folder.path).stdout)
    #expect(metadata.first?["type"] as? String == "heics")
  }

  /// Issue 24's decode-list movie: playable, 64×64, its track header and sample entry claiming 65535²
  /// (made here by ffmpeg and patched). Refused at import before; now imported, sized from its coded stream.
  @Test func aMovieWhoseTrackHeaderClaims65535SquaredImports() async throws {
    let small = folder.at("small.mov")
    let made = try Self.tool(
      "ffmpeg",
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=10:duration=1", "-c:v", "libx264",
        "-pix_fmt", "yuv420p", small,
      ])
    try #require(made)
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: small)))
    func box(_ type: String) throws -> Int {
      let name = Array(type.utf8)
      return try #require((4..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == name }) - 4
    }
    let tkhd = try box("tkhd")
    let end = tkhd + Int(bytes[tkhd + 2]) << 8 + Int(bytes[tkhd + 3])
    bytes.replaceSubrange((end - 8)..<end, with: [0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0, 0])
    let entry = try box("stsd") + 16
    bytes.replaceSubrange((entry + 32)..<(entry + 36), with: [0xFF, 0xFF, 0xFF, 0xFF])
    try folder.write("claimed.mov", bytes)

    let imported = await runIntake(["import", "--library", "lib", "--json", "claimed.mov"], in: folder.path)
    #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
    #expect(try jsonLines(imported.stdout).first?["status"] as? String == "imported")
    let metadata = try jsonLines(
      await runIntake(["metadata", "--json", "claimed.mov"], in: folder.path).stdout)
    #expect(metadata.first?["width"] as? Int == 64 && metadata.first?["height"] as? Int == 64)
    #expect((metadata.first?["warnings"] as? [String])?.first?.contains("65535×65535") == true)
  }

  /// `metadata` decodes nothing: a declared size over the decode limit is a fact to print, as exiftool prints
  /// it, while `thumbnail` still refuses it.
  @Test func aSizeOverTheDecodeLimitIsPrinted() async throws {
    let png = Repository.path("Tests/PhotoIntakeTests/Fixtures/Imaging/bomb.png")
    let metadata = await runIntake(["metadata", "--json", png], in: folder.path)
    #expect(metadata.status == 0, "\(metadata.stderr)")
    let facts = try jsonLines(metadata.stdout).first
    #expect(facts?["width"] as? Int == 65535 && facts?["height"] as? Int == 65535)
    let thumbnail = await runIntake(["thumbnail", png, "--out", "bomb.jpg"], in: folder.path)
    #expect(thumbnail.status == 1)
  }

  /// A PNG cut inside its pixel data renders as vipsthumbnail shows it, and `thumbnail` says it is partial.
  @Test func aCutPictureRendersPartiallyAndSaysSo() async throws {
    let png = Repository.path("Tests/PhotoIntakeTests/Fixtures/Imaging/truncated.png")
    let text = await runIntake(["thumbnail", png, "--out", "cut.jpg"], in: folder.path)
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("(partial: "), "\(text.stdout)")
    let json = await runIntake(["thumbnail", "--json", png, "--out", "cut2.jpg"], in: folder.path)
    #expect(try jsonLines(json.stdout).first?["partial"] as? Bool == true)
    let whole = await runIntake(
      [
        "thumbnail", "--json", Repository.path("Tests/PhotoIntakeTests/Fixtures/Imaging/scene.png"), "--out",
        "w.jpg",
      ],
      in: folder.path)
    #expect(try jsonLines(whole.stdout).first?["partial"] == nil)
  }

  static func tool(_ name: String, _ arguments: [String]) throws -> Bool {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/" + name)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
