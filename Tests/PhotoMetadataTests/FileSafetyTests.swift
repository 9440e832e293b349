import Foundation
import PhotoIntakeTesting
import PhotoMetadata
import Testing

/// PhotoMetadata opens and writes files with the guarantees of PhotoIntake's system-call layer: reading never
/// blocks on a FIFO, and stripping never overwrites or writes through a link.
@Suite struct FileSafetyTests {
  let folder = TemporaryDirectory()

  @Test func aFIFOIsRefusedWithoutBlocking() throws {
    let path = folder.at("pipe.jpg")
    #expect(mkfifo(path, 0o644) == 0)
    let started = ContinuousClock.now
    #expect(throws: MetadataError.io(ESPIPE)) { _ = try MetadataReader.read(fileAt: path) }
    #expect(ContinuousClock.now - started < .seconds(60))  // a blocked open would never return
    #expect(throws: MetadataError.io(EISDIR)) { _ = try MetadataReader.read(fileAt: folder.path) }
  }

  @Test func strippingNeverOverwritesNorFollowsALink() throws {
    let source = TestSupport.fixture("jpeg-xmp-gps.jpg").path
    let existing = try folder.write("existing.jpg", [1, 2, 3])
    #expect(throws: MetadataError.io(EEXIST)) { _ = try LocationStripper.strip(fileAt: source, to: existing) }
    #expect(FileManager.default.contents(atPath: existing).map(Array.init) == [1, 2, 3])
    let target = try folder.write("target.jpg", [4, 5])
    try FileManager.default.createSymbolicLink(atPath: folder.at("link.jpg"), withDestinationPath: target)
    #expect(throws: MetadataError.self) {
      _ = try LocationStripper.strip(fileAt: source, to: folder.at("link.jpg"))
    }
    #expect(FileManager.default.contents(atPath: target).map(Array.init) == [4, 5])
    // A new name works.
    let report = try LocationStripper.strip(fileAt: source, to: folder.at("new.jpg"))
    #expect(report.removedLocation)
  }
}
