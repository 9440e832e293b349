import Foundation
import PhotoIntake
import PhotoIntakeTesting
import PhotoMetadata
import Testing

struct LivePhotoBundleTests {
  let directory = TemporaryDirectory()

  func bundle(_ entries: [(String, [UInt8])]) -> String {
    let path = directory.at("Live-\(UUID().uuidString).pvt")
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for (name, bytes) in entries {
      _ = FileManager.default.createFile(atPath: path + "/" + name, contents: Data(bytes))
    }
    return path
  }

  @Test func theBytesDecideWhichFileIsTheStill() throws {
    // Names that lie: the movie is called .HEIC and the still .MOV.
    let path = bundle([
      ("IMG_1.HEIC", Fixtures.quickTimeMovie(seed: "m")), ("IMG_1.MOV", Fixtures.heic(seed: "s")),
      ("Info.plist", Array("<plist/>".utf8)),
    ])
    let found = try LivePhotoBundle.open(at: path)
    #expect(found.stillPath == path + "/IMG_1.MOV")
    #expect(found.stillType == .heic)
    #expect(found.moviePath == path + "/IMG_1.HEIC")
    #expect(found.movieType == .mov)
  }

  @Test func theLeastDerivedOfEachKindWins() throws {
    let path = bundle([
      ("a.jpg", Fixtures.jpeg(seed: "j")), ("b.heic", Fixtures.heic(seed: "h")),
      ("c.mp4", Fixtures.mpeg4Movie(seed: "4")), ("d.mov", Fixtures.quickTimeMovie(seed: "q")),
    ])
    let found = try LivePhotoBundle.open(at: path)
    #expect(found.stillType == .heic)
    #expect(found.movieType == .mov)
  }

  @Test func linksInsideABundleAreNeverFollowed() throws {
    let outside = directory.at("outside.mov")
    _ = FileManager.default.createFile(atPath: outside, contents: Data(Fixtures.quickTimeMovie(seed: "o")))
    let path = bundle([("IMG.HEIC", Fixtures.heic(seed: "s"))])
    try FileManager.default.createSymbolicLink(atPath: path + "/IMG.MOV", withDestinationPath: outside)
    let found = try LivePhotoBundle.open(at: path)
    #expect(found.moviePath == nil)
  }

  @Test func aBundleWithoutAStillIsRefused() {
    let path = bundle([("IMG.MOV", Fixtures.quickTimeMovie(seed: "m"))])
    #expect(throws: Importer.Error.conversionFailed(reason: "the Live Photo bundle holds no still image")) {
      try LivePhotoBundle.open(at: path)
    }
  }

  @Test func aSingleStillIsAStillWithoutMotion() throws {
    let path = directory.at("IMG.HEIC")
    _ = FileManager.default.createFile(atPath: path, contents: Data(Fixtures.heic(seed: "s")))
    let found = try LivePhotoBundle.open(at: path)
    #expect(found.stillPath == path && found.moviePath == nil)
  }

  @Test func aMissingBundleHasVanished() {
    #expect(throws: Importer.Error.sourceVanished) { try LivePhotoBundle.open(at: directory.at("none")) }
  }

  @Test(arguments: [
    ("5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D", "5a9f7d5c-1b2e-4f3a-9c8d-0e1f2a3b4c5d", true),
    ("5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D", "0E7E5F8A-5C6B-4B1F-9D0A-1234567890AB", false),
    ("5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D", nil, false),
    (nil, nil, false),
  ])
  func pairingIsByContentIdentifier(_ still: String?, _ movie: String?, _ isLivePhoto: Bool) {
    let pairing = LivePhotoPairing(
      still: MediaMetadata(type: .heic, livePhotoID: still),
      movie: MediaMetadata(type: .mov, livePhotoID: movie))
    #expect(pairing.isLivePhoto == isLivePhoto)
    if still == nil || movie == nil { #expect(pairing == .missingIdentifier) }
  }

  @Test func unreadableMetadataIsNoPair() {
    #expect(
      LivePhotoPairing(still: nil, movie: MediaMetadata(type: .mov, livePhotoID: "X")) == .missingIdentifier)
  }
}
