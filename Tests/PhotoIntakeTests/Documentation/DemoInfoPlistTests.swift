import Foundation
import PhotoIntake
import Testing

/// The demo app declares every usage key its features need: picking, saving, the camera, and browsing the
/// library ("From Your Library", which asks read-write access).
@Suite struct DemoInfoPlistTests {
  @Test func theDemosInfoPlistCoversItsFeatures() throws {
    let data = try #require(
      FileManager.default.contents(atPath: Repository.root + "/Examples/PhotoIntakeDemo/Info.plist"))
    let findings = try InfoPlistCheck.check(plist: data, features: [.pick, .save, .browse, .capturePhoto])
    #expect(findings.isEmpty, "\(findings)")
  }

  @Test func withoutTheLibraryKeyBrowsingIsFlagged() throws {
    let data = try #require(
      FileManager.default.contents(atPath: Repository.root + "/Examples/PhotoIntakeDemo/Info.plist"))
    let text = try #require(String(data: data, encoding: .utf8))
    let stripped = text.replacingOccurrences(
      of: "<key>NSPhotoLibraryUsageDescription</key>", with: "<key>SomethingElse</key>")
    let findings = try InfoPlistCheck.check(plist: Data(stripped.utf8), features: [.browse])
    #expect(!findings.isEmpty)
  }
}
