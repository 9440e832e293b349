import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

#if canImport(CSQLite)
  import CSQLite
#elseif canImport(SQLite3)
  import SQLite3
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 24 item 4 through the library's API: a library opened for reading only answers every read and refuses
/// every write with ``Library/Error/readOnly`` before anything is taken or written; storage failures are named
/// as what they are (full, read-only), never as "disk I/O error" or an SQLite code. The real read-only and full
/// file systems are `ReadOnlyStorageTests`' (child processes).
@Suite struct ReadOnlyLibraryTests {
  let folder = TemporaryDirectory()
  var root: String { folder.at("library") }

  /// A closed library of `count` small photos; their ids.
  func makeLibrary(count: Int = 3) async throws -> [AssetID] {
    let library = try await Library.open(at: root)
    let summary = await Importer(library: library).importItems(
      (0..<count).map { BytesSource(bytes: Fixture.jpeg(seed: UInt64($0)), suggestedName: "p\($0).jpg") })
    await library.close()
    let ids = summary.items.compactMap(\.result.asset?.id)
    try #require(ids.count == count)
    return ids
  }

  /// The manifest and the identity journal, byte for byte: what a reader must not change.
  func recorded() -> [String: Data] {
    var files: [String: Data] = [:]
    for path in ["manifest.sqlite"] + folder.files(under: "library/journal").map({ "journal/" + $0 }) {
      files[path] = FileManager.default.contents(atPath: root + "/" + path)
    }
    return files
  }

  func expectReadsAnswerAndWritesRefuse(_ library: Library, ids: [AssetID]) async throws {
    #expect(library.isReadOnly)
    #expect(try await library.all().map(\.id) == ids)
    try await library.checkManifest()
    #expect(try await library.verify().checked == ids.count)
    let exported = try await library.export(ids[0], to: folder.at("out-\(UUID().uuidString).jpg"))
    #expect(FileManager.default.fileExists(atPath: exported))

    let summary = await Importer(library: library).importItems([
      BytesSource(bytes: Fixture.jpeg(seed: 99), suggestedName: "new.jpg")
    ])
    #expect(summary.items.map(\.result.error) == [.libraryReadOnly])
    await #expect(throws: Library.Error.readOnly) { try await library.remove(ids[0]) }
    await #expect(throws: Library.Error.readOnly) { try await library.recoverInterruptedWork() }
    await #expect(throws: Library.Error.readOnly) { try await library.repair() }
    #expect(try await library.count() == ids.count)
  }

  @Test func openedForReadingItReadsAndRefusesEveryWrite() async throws {
    let ids = try await makeLibrary()
    let before = recorded()
    var configuration = Library.Configuration()
    configuration.readOnly = true
    let library = try await Library.open(at: root, configuration: configuration)
    try await expectReadsAnswerAndWritesRefuse(library, ids: ids)
    await library.close()
    #expect(recorded() == before)
    await #expect(throws: Library.Error.readOnly) {
      try await Library.repair(at: root, configuration: configuration)
    }
    // Opened as usual again, it writes.
    let writable = try await Library.open(at: root)
    #expect(!writable.isReadOnly)
    try await writable.remove(ids[0])
    await writable.close()
  }

  #if TestHooks
    /// Storage that cannot be written (EROFS from the write-permission check, which tests running as root need:
    /// permissions do not stop root) opens for reading only, though reading only was not asked for.
    @Test func storageThatCannotBeWrittenOpensForReading() async throws {
      let ids = try await makeLibrary()
      let before = recorded()
      let faults = FaultInjector([.init(.access, code: EROFS)])
      try await Syscalls.injectedFaults.withValue(faults) {
        let library = try await Library.open(at: root)
        try await expectReadsAnswerAndWritesRefuse(library, ids: ids)
        await library.close()
        await #expect(throws: Library.Error.readOnly) { try await Library.repair(at: root) }
      }
      #expect(recorded() == before)
      #expect(faults.firedCounts[0, default: 0] > 0)
    }
  #endif

  /// A library whose manifest must be made or upgraded is made where the storage can be written, even when
  /// reading only was asked for (an `intake list` right after an interrupted creation).
  @Test func aManifestToMakeIsMadeWhereTheStorageAllows() async throws {
    try FileManager.default.createDirectory(atPath: root + "/objects", withIntermediateDirectories: true)
    var configuration = Library.Configuration()
    configuration.readOnly = true
    configuration.createIfNeeded = false
    let library = try await Library.open(at: root, configuration: configuration)
    #expect(!library.isReadOnly)
    #expect(try await library.count() == 0)
    await library.close()
  }

  /// Storage failures are named as what they are.
  @Test(arguments: [
    (DatabaseError(code: SQLITE_FULL, message: "database or disk is full"), Library.Error.diskFull),
    (DatabaseError(code: ExtendedCode.shmSize, message: "disk I/O error"), .diskFull),
    (DatabaseError(code: SQLITE_IOERR | (4 << 8), message: "disk I/O error", systemCode: ENOSPC), .diskFull),
    (DatabaseError(code: SQLITE_IOERR | (3 << 8), message: "disk I/O error", systemCode: EDQUOT), .diskFull),
    (
      DatabaseError(code: SQLITE_CANTOPEN, message: "unable to open database file", systemCode: EROFS),
      .readOnly
    ),
    (
      DatabaseError(code: SQLITE_CANTOPEN, message: "unable to open database file", systemCode: EACCES),
      .readOnly
    ),
    (
      DatabaseError(code: SQLITE_READONLY | (6 << 8), message: "attempt to write a readonly database"),
      .readOnly
    ),
    (DatabaseError(code: SQLITE_READONLY, message: "attempt to write a readonly database"), .readOnly),
  ])
  func storageFailuresAreNamed(_ error: DatabaseError, _ expected: Library.Error) {
    #expect(Library.Error(error) == expected)
    #expect(!Library.Error(error).description.contains("SQLite"))
  }

  @Test func systemFailuresAreNamed() {
    #expect(Library.Error(SystemError(.write, ENOSPC)) == .diskFull)
    #expect(Library.Error(SystemError(.write, EDQUOT)) == .diskFull)
    #expect(Library.Error(SystemError(.mkdir, EROFS)) == .readOnly)
    #expect(Importer.Error(writing: .readOnly) == .libraryReadOnly)
  }
}
