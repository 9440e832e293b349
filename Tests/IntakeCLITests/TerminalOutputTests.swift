import Foundation
import PhotoIntakeTesting
import Testing

@testable import IntakeCLI

/// What a photo or a file name can put on the user's terminal: nothing but text.
///
/// A camera writes EXIF Make, Model and Lens as it likes; a photo made to attack can hold an escape sequence
/// (set the title, clear the screen), a carriage return and line feed (forge a line of output), or a
/// right-to-left override (show a name reversed).
struct TerminalOutputTests {
  static let hostileMake = "Evil\u{1B}]0;pwned\u{07}\u{1B}[2J\r\nimported 0, duplicates 0, failed 9"
  static let hostileModel = "Phone \u{202E}gpj.exe\u{9B}31m"

  /// Whether `text` holds anything a terminal would act on (other than the line feeds that end lines).
  static func rawControls(_ text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter { $0 != "\n" && Terminal.mustEscape($0) }
  }

  static func hostilePhoto(in folder: TemporaryDirectory) throws -> String {
    let path = folder.path + "/hostile.jpg"
    try Data(Fixtures.jpeg(width: 16, height: 12, seed: "hostile")).write(to: URL(fileURLWithPath: path))
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
    process.arguments = [
      "-q", "-overwrite_original", "-Make=\(hostileMake)", "-Model=\(hostileModel)",
      "-LensModel=\(hostileModel)",
      path,
    ]
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "exiftool could not write the test photo")
    return path
  }

  @Test func metadataAndShowEscapeWhatThePhotoSays() async throws {
    let folder = TemporaryDirectory()
    let photo = try Self.hostilePhoto(in: folder)
    // The fixture really carries the controls (else this test proves nothing).
    let json = await runIntake(["metadata", "--json", photo], in: folder.path)
    let object = try #require(try jsonLines(json.stdout).first)
    #expect(object["make"] as? String == Self.hostileMake)
    #expect(Self.rawControls(json.stdout).isEmpty, "JSON escapes them too")

    let text = await runIntake(["metadata", photo], in: folder.path)
    #expect(text.status == 0)
    #expect(Self.rawControls(text.stdout).isEmpty)
    #expect(text.stdout.contains("Evil\\x1B]0;pwned\\x07"))
    #expect(text.stdout.contains("\\u{202E}gpj.exe"))
    #expect(!text.stdout.contains("\nimported 0"), "no forged line")

    let library = folder.path + "/library"
    let imported = await runIntake(
      ["import", "--library", library, "--no-renditions", photo], in: folder.path)
    #expect(imported.status == 0)
    let listed = await runIntake(["list", "--library", library, "--json"], in: folder.path)
    let id = try #require(try jsonLines(listed.stdout).first?["id"] as? String)
    let shown = await runIntake(["show", "--library", library, id], in: folder.path)
    #expect(shown.status == 0)
    #expect(shown.stdout.contains("Evil\\x1B"))
    #expect(Self.rawControls(shown.stdout).isEmpty)
  }

  /// A file name is the user's data too: `thumbnail` and `metadata` errors show it escaped.
  @Test func pathsInErrorsAreEscaped() async throws {
    let folder = TemporaryDirectory()
    let name = "bad\u{1B}[31m\u{202E}name.jpg"
    try Data("not a photo".utf8).write(to: URL(fileURLWithPath: folder.path + "/" + name))
    let metadata = await runIntake(["metadata", name], in: folder.path)
    #expect(metadata.status == 1)
    #expect(metadata.stderr.contains("bad\\x1B[31m"))
    #expect(Self.rawControls(metadata.stderr).isEmpty)
    let thumbnail = await runIntake(["thumbnail", name, "--out", folder.path + "/t.jpg"], in: folder.path)
    #expect(thumbnail.status == 1)
    #expect(Self.rawControls(thumbnail.stderr).isEmpty)
  }

  @Test func sanitizingKeepsTextAndTabsAndEscapesTheRest() {
    #expect(Terminal.sanitized("a\tb \\ é 日本") == "a\tb \\ é 日本")
    #expect(Terminal.sanitized("a\rb\u{85}c\u{2066}d\u{7F}") == "a\\x0Db\\x85c\\u{2066}d\\x7F")
    #expect(Terminal.escaped("a\\b\n") == "a\\\\b\\x0A")
    #expect(JSON.quote("\u{202E}\u{9B}") == "\"\\u202e\\u009b\"")
  }
}
