import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

/// Whole-file writes: a file already at the temporary name is someone else's, and a failure leaves it alone.
struct AtomicFileTests {
  @Test func aFileAtTheTemporaryNameIsNotRemoved() throws {
    let folder = TemporaryDirectory()
    let temporary = folder.path + "/.out.jpg.1.tmp"
    let destination = folder.path + "/out.jpg"
    try Data("someone else's".utf8).write(to: URL(fileURLWithPath: temporary))
    #expect(throws: ImagingError.self) {
      try AtomicFile.write(Array("new".utf8), to: destination, via: temporary)
    }
    #expect(try String(contentsOfFile: temporary, encoding: .utf8) == "someone else's")
    #expect(!FileManager.default.fileExists(atPath: destination))
  }

  @Test func aWriteReplacesTheDestinationAndLeavesNoTemporaryFile() throws {
    let folder = TemporaryDirectory()
    let destination = folder.path + "/out.jpg"
    try Data("old".utf8).write(to: URL(fileURLWithPath: destination))
    try AtomicFile.write(Array("new".utf8), toFile: destination)
    #expect(try String(contentsOfFile: destination, encoding: .utf8) == "new")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.jpg"])
  }
}
