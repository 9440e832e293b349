import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

/// The one durable create (``DurableFile``): a file is never written over another or through a link, a cache
/// replaces its older copy, anything of the user's never replaces anything, and a failure leaves nothing of
/// its own behind — and nothing of anyone else's removed.
struct DurableFileTests {
  let folder = TemporaryDirectory()

  func open() throws -> Directory { try Directory(opening: folder.path, create: false) }

  @Test func aFileAlreadyAtTheNameIsNeitherWrittenNorRemoved() throws {
    try Data("someone else's".utf8).write(to: URL(fileURLWithPath: folder.at(".out.jpg.tmp")))
    let directory = try open()
    #expect(throws: SystemError.self) { try DurableFile.create(in: directory, name: ".out.jpg.tmp") }
    #expect(try String(contentsOfFile: folder.at(".out.jpg.tmp"), encoding: .utf8) == "someone else's")
  }

  @Test func aLinkAtTheNameIsNeverWrittenThrough() throws {
    let target = folder.at("target")
    try Data("target".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(atPath: folder.at("link"), withDestinationPath: target)
    let directory = try open()
    #expect(throws: SystemError.self) { try DurableFile.create(in: directory, name: "link") }
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "target")
  }

  @Test func aCacheReplacesItsOlderCopyAndLeavesNoTemporaryFile() throws {
    try Data("old".utf8).write(to: URL(fileURLWithPath: folder.at("out.jpg")))
    try DurableFile.write(Array("new".utf8), toFile: folder.at("out.jpg"), .replacing, syncFolder: false)
    #expect(try String(contentsOfFile: folder.at("out.jpg"), encoding: .utf8) == "new")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.jpg"])
  }

  @Test(arguments: [false, true])
  func theUsersFilesAreNeverReplaced(danglingLink: Bool) throws {
    if danglingLink {
      try FileManager.default.createSymbolicLink(
        atPath: folder.at("out.jpg"), withDestinationPath: folder.at("nowhere"))
    } else {
      try Data("mine".utf8).write(to: URL(fileURLWithPath: folder.at("out.jpg")))
    }
    let directory = try open()
    #expect(throws: SystemError.self) {
      try DurableFile.write(
        Array("new".utf8), in: directory, as: "out.jpg", .neverReplacing, syncFolder: true)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.jpg"])
    if danglingLink {
      #expect(!FileManager.default.fileExists(atPath: folder.at("nowhere")), "written through the link")
    } else {
      #expect(try String(contentsOfFile: folder.at("out.jpg"), encoding: .utf8) == "mine")
    }
  }

  @Test func aNewFileIsSealedBeforeItIsNamed() throws {
    let directory = try open()
    try DurableFile.write(
      Array("bytes".utf8), in: directory, as: "kept.jpg", .neverReplacing, syncFolder: true)
    #expect(try String(contentsOfFile: folder.at("kept.jpg"), encoding: .utf8) == "bytes")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["kept.jpg"])
  }

  #if TestHooks
    @Test func aFailedFolderFsyncTakesTheNewNameBackAndKeepsNothing() throws {
      let directory = try open()
      // The file's own fsync (the first) succeeds; the folder's (the second) fails.
      let failing = FaultInjector([.init(.fsync, code: EIO, skip: 1)])
      Syscalls.injectedFaults.withValue(failing) {
        #expect(throws: SystemError.self) {
          try DurableFile.write(
            Array("bytes".utf8), in: directory, as: "kept.jpg", .neverReplacing, syncFolder: true)
        }
      }
      #expect(failing.firedCounts[0] == 1, "the folder's fsync was the second fsync")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test func aFailedFileFsyncNamesNothing() throws {
      let directory = try open()
      let failing = FaultInjector([.init(.fsync, code: EIO, times: 1)])
      Syscalls.injectedFaults.withValue(failing) {
        #expect(throws: SystemError.self) {
          try DurableFile.write(
            Array("bytes".utf8), in: directory, as: "cache.jpg", .replacing, syncFolder: false)
        }
      }
      #expect(failing.firedCounts[0] == 1)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
  #endif
}
