import Foundation
import PhotoIntakeTesting
import Testing

@testable import IntakeCLI

/// `intake metadata`, run in-process in PhotoMetadata's fixture folder.
struct MetadataCommandTests {
  static let fixtures = Repository.metadataFixtures

  @Test func jsonHasOneObjectPerFileWithTheAgreedFields() async throws {
    let result = await runIntake(
      ["metadata", "--json", "jpeg-orientation-6.jpg", "mov-apple-keys.mov"], in: Self.fixtures)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let lines = result.stdout.split(separator: "\n")
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
    let result = await runIntake(["metadata", "jpeg-thumbnail-icc.jpg"], in: Self.fixtures)
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        jpeg-thumbnail-icc.jpg: jpeg 320×240, orientation 1
          captured  2021-12-31T23:59:59
          camera    Canon Canon EOS R5
          preview   exifThumbnail jpeg 32×24 at 344, 394 bytes
          has       ICC profile

        """)
  }

  @Test func failureGoesToStderrAndExitsOne() async throws {
    let folder = TemporaryDirectory()
    let text = try folder.write("notes.jpg", "not a photo")
    let result = await runIntake(
      ["metadata", "--json", "png-exif.png", text, "missing.heic"], in: Self.fixtures)
    #expect(result.status == 1)
    #expect(result.stderr.contains("notes.jpg: The file is not a photo or movie format"))
    #expect(result.stderr.contains("missing.heic: The file could not be read or written"))
    let lines = result.stdout.split(separator: "\n")
    try #require(lines.count == 3)
    #expect(lines[1].contains("\"error\""))
  }

  @Test func needsAFile() async {
    let result = await runIntake(["metadata"], in: Self.fixtures)
    #expect(result.status == 2)
    #expect(result.stderr.contains("needs FILE"))
  }
}
