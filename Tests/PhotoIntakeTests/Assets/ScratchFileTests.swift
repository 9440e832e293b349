import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

/// The scratch name a Photos resource is written to: claimed empty, and only what was written there is removed.
struct ScratchFileTests {
  func sink(in folder: TemporaryDirectory) throws -> StagingSink {
    StagingSink(
      folder: try Directory(opening: folder.path, create: false), name: "w1-item.part", maximumSize: 1 << 20)
  }

  @Test func aFileAlreadyAtTheScratchNameIsKeptAndRefused() throws {
    let folder = TemporaryDirectory()
    let sink = try sink(in: folder)
    try Data("not ours".utf8).write(to: URL(fileURLWithPath: sink.scratchPath))
    #expect(throws: Importer.Error.ioError(operation: "open", code: EEXIST)) { try sink.claimScratchPath() }
    #expect(try String(contentsOfFile: sink.scratchPath, encoding: .utf8) == "not ours")
  }

  @Test func aLinkAtTheScratchNameIsRefusedAndItsTargetUntouched() throws {
    let folder = TemporaryDirectory()
    let sink = try sink(in: folder)
    let target = folder.path + "/target"
    try Data("target".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(atPath: sink.scratchPath, withDestinationPath: target)
    #expect(throws: Importer.Error.self) { try sink.claimScratchPath() }
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "target")
  }

  @Test func whatWasWrittenAtAClaimedNameIsRemoved() throws {
    let folder = TemporaryDirectory()
    let sink = try sink(in: folder)
    let path = try sink.claimScratchPath()
    try Data("resource".utf8).write(to: URL(fileURLWithPath: path))
    sink.removeScratch()
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
