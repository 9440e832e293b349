import Foundation
import Synchronization
import Testing

@testable import IntakeCLI

/// `intake metadata`, run in-process with buffer sinks.
struct MetadataCommandTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("PhotoMetadataTests/Fixtures")

  final class Buffer: Sendable {
    let text = Mutex("")
    var sink: TextSink { TextSink { line in self.text.withLock { $0 += line } } }
    var value: String { text.withLock { $0 } }
  }

  static func run(_ arguments: [String]) async -> (Int32, String, String) {
    let out = Buffer(), err = Buffer()
    let context = CommandContext(
      stdout: out.sink, stderr: err.sink, environment: [:], stderrIsTerminal: false,
      currentDirectory: fixtures.path)
    let status = await Intake.run(arguments, context: context)
    return (status, out.value, err.value)
  }

  @Test func jsonHasOneObjectPerFileWithTheAgreedFields() async throws {
    let (status, out, err) = await Self.run([
      "metadata", "--json", "jpeg-orientation-6.jpg", "mov-apple-keys.mov",
    ])
    #expect(status == 0)
    #expect(err.isEmpty)
    let lines = out.split(separator: "\n")
    #expect(lines.count == 2)
    let objects = try lines.map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let fields = [
      "path", "type", "width", "height", "orientation", "captureDate", "captureDateOffset", "latitude",
      "longitude",
      "altitude", "make", "model", "lens", "previews", "livePhotoID", "duration",
    ]
    for object in objects { for field in fields { #expect(object.keys.contains(field), "\(field)") } }
    #expect(objects[0]["path"] as? String == "jpeg-orientation-6.jpg")
    #expect(objects[0]["orientation"] as? Int == 6)
    #expect(objects[0]["captureDateOffset"] as? String == "+00:00")
    #expect((objects[0]["latitude"] as? Double).map { abs($0 + 0.000001) < 1e-9 } == true)
    #expect(objects[1]["livePhotoID"] as? String == "5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D")
    #expect(objects[1]["duration"] as? Double == 0.5)
    #expect(objects[1]["type"] as? String == "mov")
  }

  @Test func textOutputSnapshot() async {
    let (status, out, _) = await Self.run(["metadata", "jpeg-thumbnail-icc.jpg"])
    #expect(status == 0)
    #expect(
      out == """
        jpeg-thumbnail-icc.jpg: jpeg 320×240, orientation 1
          captured  2021-12-31T23:59:59
          camera    Canon Canon EOS R5
          preview   exifThumbnail jpeg 32×24 at 344, 394 bytes
          has       ICC profile

        """)
  }

  @Test func failureGoesToStderrAndExitsOne() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "metadata-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let text = dir.appendingPathComponent("notes.jpg")
    try Data("not a photo".utf8).write(to: text)
    let (status, out, err) = await Self.run(["metadata", "--json", "png-exif.png", text.path, "missing.heic"])
    #expect(status == 1)
    #expect(err.contains("notes.jpg: The file is not a photo or movie format"))
    #expect(err.contains("missing.heic: The file could not be read or written"))
    let lines = out.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[1].contains("\"error\""))
  }

  @Test func needsAFile() async {
    let (status, _, err) = await Self.run(["metadata"])
    #expect(status == 2)
    #expect(err.contains("needs FILE"))
  }
}
