import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

@Suite struct LibraryTests {
  let folder = TemporaryDirectory()
  var root: String { folder.at("library") }

  func importSeeds(_ seeds: [UInt64], into library: Library) async -> ImportSummary {
    await Importer(library: library).importItems(
      seeds.map { BytesSource(bytes: Fixture.jpeg(seed: $0), suggestedName: "p\($0).jpg") })
  }

  @Test func nothingUnrecordedIsDeletedAndVerifyReportsIt() async throws {
    var library: Library? = try await Library.open(at: root)
    let summary = await importSeeds([1, 2, 3], into: library!)
    let assets = summary.items.compactMap(\.result.asset)
    await library!.close()
    library = nil
    // What a crash of an older version, a restore or a careless user leave behind; none of it was recorded:
    try folder.write("library/staging/0000.part", [1, 2, 3])
    let orphan = SHA256Digest.of([9, 9])
    try folder.write("library/objects/\(orphan.hex.prefix(2))/\(orphan.hex)", [9, 9])
    let lost = assets[1]
    try FileManager.default.removeItem(
      atPath: root + "/objects/\(lost.sha256.hex.prefix(2))/\(lost.sha256.hex)")
    let truncated = assets[2]
    let truncatedPath = root + "/objects/\(truncated.sha256.hex.prefix(2))/\(truncated.sha256.hex)"
    chmod(truncatedPath, 0o644)
    #expect(truncate(truncatedPath, 10) == 0)

    let reopened = try await Library.open(at: root)
    let recovery = try await reopened.recoverInterruptedWork()
    #expect(recovery.isEmpty, "recovery touched what no write recorded: \(recovery)")
    #expect(folder.files(under: "library/staging") == ["0000.part"])
    #expect(FileManager.default.fileExists(atPath: reopened.objectPath(for: orphan)))
    let report = try await reopened.verify()
    #expect(Set(report.damaged.map(\.id)) == [lost.id, truncated.id])
    #expect(report.unreferenced == ["objects/\(orphan.hex.prefix(2))/\(orphan.hex)"])
    #expect(try await reopened.asset(lost.id)?.damage == .missing)
    #expect(try await reopened.asset(truncated.id)?.damage == .hashMismatch)
    #expect(try await reopened.count() == 3)

    // Importing the same bytes again repairs them; the damaged bytes are moved aside, not deleted.
    let repair = await importSeeds([2, 3], into: reopened)
    #expect(repair.duplicateCount == 2)
    #expect(try await reopened.asset(lost.id)?.damage == nil)
    #expect(try await reopened.asset(truncated.id)?.damage == nil)
    #expect(folder.files(under: "library/lost+found").count == 1)
    #expect(try await reopened.verify().damaged.isEmpty)
  }

  @Test func aCancelledVerificationMarksNothingDamaged() async throws {
    let library = try await Library.open(at: root)
    let assets = await importSeeds([6, 7, 8], into: library).items.compactMap(\.result.asset)
    #expect(assets.count == 3)
    // Cancelled before it reads any object: what it did not read is not "missing".
    let verification = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await library.verify()
    }
    let stopped = try await verification.value
    #expect(stopped.damaged.isEmpty)
    #expect(stopped.checked < assets.count)
    for asset in assets { #expect(try await library.asset(asset.id)?.damage == nil) }
    let full = try await library.verify()
    #expect(full.checked == 3)
    #expect(full.isClean)
  }

  @Test func verifyFindsAlteredBytesAndClearsTheMarkWhenRestored() async throws {
    let library = try await Library.open(at: root)
    let asset = try #require(await importSeeds([5], into: library).items[0].result.asset)
    let path = library.objectPath(for: asset)
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    chmod(path, 0o644)
    var altered = original
    altered[100] ^= 0xFF
    try altered.write(to: URL(fileURLWithPath: path))
    let damaged = try await library.verify()
    #expect(damaged.damaged.map(\.damage) == [.hashMismatch])
    #expect(try await library.asset(asset.id)?.damage == .hashMismatch)
    try original.write(to: URL(fileURLWithPath: path))
    #expect(try await library.verify().isClean)
    #expect(try await library.asset(asset.id)?.damage == nil)
  }

  @Test(arguments: Library.ListOrder.allCases, [1, 3, 7, 100])
  func pagesCoverEveryAssetOnce(order: Library.ListOrder, pageSize: Int) async throws {
    let library = try await Library.open(at: root)
    _ = await importSeeds(Array(0..<10), into: library)
    _ = await importSeeds([3, 20, 21], into: library)  // a second batch with one duplicate
    var seen: [Asset] = []
    var cursor: Library.ListCursor?
    repeat {
      let page = try await library.list(order: order, limit: pageSize, after: cursor)
      #expect(page.assets.count <= pageSize)
      seen += page.assets
      cursor = page.next
    } while cursor != nil
    switch order {
    case .batch:
      #expect(seen.count == 13)  // the duplicate is listed in both batches
      #expect(seen.map(\.name) == (0..<10).map { "p\($0).jpg" } + ["p3.jpg", "p20.jpg", "p21.jpg"])
    case .date:
      #expect(seen.count == 12)
      #expect(Set(seen.map(\.id)).count == 12)
      #expect(seen.map(\.importedAt) == seen.map(\.importedAt).sorted())
    }
  }

  @Test func removeDeletesTheRowAndTheBytes() async throws {
    let library = try await Library.open(at: root)
    let summary = await importSeeds([1, 2], into: library)
    let removed = try #require(summary.items[0].result.asset)
    let changes = await library.changes()
    try await library.remove(removed.id)
    #expect(try await library.asset(removed.id) == nil)
    #expect(!FileManager.default.fileExists(atPath: library.objectPath(for: removed)))
    #expect(try await library.count() == 1)
    var iterator = changes.makeAsyncIterator()
    #expect(await iterator.next() == LibraryChange(removed: [removed.id]))
    await #expect(throws: Library.Error.notFound(removed.id)) { try await library.remove(removed.id) }
    #expect(try await library.recoverInterruptedWork().isEmpty)
  }

  @Test func changesAnnounceImports() async throws {
    let library = try await Library.open(at: root)
    let changes = await library.changes()
    let summary = await importSeeds([1], into: library)
    var iterator = changes.makeAsyncIterator()
    #expect(
      await iterator.next() == LibraryChange(inserted: [try #require(summary.items[0].result.asset?.id)]))
  }

  @Test func writersTakeTurnsAndReadersNeverWait() async throws {
    let first = try await Library.open(at: root)
    var configuration = Library.Configuration()
    configuration.writerWait = .milliseconds(200)
    let waited = Protected(0)
    configuration.onWaitingForWriter = { waited.withLock { $0 += 1 } }
    let second = try await Library.open(at: root, configuration: configuration)
    try await first.beginWriting()
    // A reader is not held up by the writer …
    #expect(try await second.count() == 0)
    // … a second writer waits, says so once, and gives up after its wait.
    await #expect(throws: Library.Error.busy) { try await second.recoverInterruptedWork() }
    #expect(waited.current == 1)
    let summary = await importSeeds([7], into: second)
    #expect(summary.items.map(\.result.error) == [.libraryBusy])
    await first.endWriting()
    #expect(await importSeeds([7], into: second).importedCount == 1)
  }

  @Test func aNewerSchemaIsRefusedNotDamaged() async throws {
    try await Library.open(at: root).close()
    // As a newer PhotoIntake's migration leaves it: the version in the header and in the tables (a header alone
    // that says 999 is damage, see ManifestLossTests).
    try Database.open(path: root + "/manifest.sqlite").execute(
      "PRAGMA user_version=999; UPDATE journal_state SET schema = 999")
    await #expect {
      _ = try await Library.open(at: root)
    } throws: { error in
      "\(error)".contains("newer than this PhotoIntake knows")
    }
  }

  @Test func exportNeverOverwrites() async throws {
    let library = try await Library.open(at: root)
    let asset = try #require(await importSeeds([4], into: library).items[0].result.asset)
    try FileManager.default.createDirectory(atPath: folder.at("out"), withIntermediateDirectories: true)
    let written = try await library.export(asset.id, to: folder.at("out"))
    #expect(written == folder.at("out/p4.jpg"))
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: written))) == Fixture.jpeg(seed: 4))
    await #expect(throws: Library.Error.destinationExists(written)) {
      try await library.export(asset.id, to: written)
    }
    #expect(folder.files(under: "out") == ["p4.jpg"])
  }

  @Test func openBytesReadsTheStoredCopy() async throws {
    let library = try await Library.open(at: root)
    let asset = try #require(await importSeeds([8], into: library).items[0].result.asset)
    let handle = try library.openBytes(of: asset)
    #expect(Array(try handle.readToEnd() ?? Data()) == Fixture.jpeg(seed: 8))
    try FileManager.default.removeItem(atPath: library.objectPath(for: asset))
    #expect(throws: Library.Error.notFound(asset.id)) { _ = try library.openBytes(of: asset) }
  }

  @Test func resolvesUniquePrefixes() async throws {
    let library = try await Library.open(at: root)
    let asset = try #require(await importSeeds([4], into: library).items[0].result.asset)
    #expect(try await library.resolve(String(asset.id.rawValue.prefix(8)))?.id == asset.id)
    #expect(try await library.resolve(String(asset.sha256.hex.prefix(10)))?.id == asset.id)
    #expect(try await library.resolve("zzzz") == nil)
  }
}

/// What users and tools leave inside a library folder: it is reported or worked around, never followed, never
/// a reason the library cannot be used.
@Suite struct LibraryDamageTests {
  let folder = TemporaryDirectory()
  var root: String { folder.at("library") }

  func importOne(_ seed: UInt64, into library: Library) async throws -> Asset {
    let summary = await Importer(library: library).importItems([
      BytesSource(bytes: Fixture.jpeg(seed: seed), suggestedName: "p\(seed).jpg")
    ])
    return try #require(summary.items.first?.result.asset)
  }

  @Test func aFIFOWhereAnObjectBelongsIsReportedWithoutWaiting() async throws {
    let library = try await Library.open(at: root)
    let asset = try await importOne(1, into: library)
    let path = library.objectPath(for: asset)
    try FileManager.default.removeItem(atPath: path)
    #expect(mkfifo(path, 0o644) == 0)
    let started = ContinuousClock.now
    let report = try await library.verify()
    // A read that blocked on the FIFO would never return; the bound only needs to be finite.
    #expect(ContinuousClock.now - started < .seconds(60))
    #expect(report.damaged.map(\.damage) == [.notAFile])
    #expect(throws: Library.Error.damagedObject(asset.id, .fifo)) { _ = try library.openBytes(of: asset) }
    await #expect(throws: Library.Error.self) { try await library.export(asset.id, to: folder.at("out.jpg")) }
    // Importing the bytes again moves the FIFO aside and restores the object.
    _ = try await importOne(1, into: library)
    #expect(try await library.verify().isClean)
    #expect(try await library.asset(asset.id)?.damage == nil)
    let kept = try FileManager.default.contentsOfDirectory(atPath: root + "/lost+found")
    #expect(kept.count == 1)
    var info = stat()
    #expect(lstat(root + "/lost+found/" + kept[0], &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
  }

  @Test func strayFoldersInStagingAndObjectsDoNotStopTheLibrary() async throws {
    var library: Library? = try await Library.open(at: root)
    _ = try await importOne(1, into: library!)
    library = nil
    try FileManager.default.createDirectory(
      atPath: root + "/staging/stray", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: root + "/objects/ab/stray", withIntermediateDirectories: true)
    let reopened = try await Library.open(at: root)
    _ = try await importOne(2, into: reopened)
    #expect(try await reopened.count() == 2)
    #expect(try await reopened.verify().unreferenced == ["objects/ab/stray"])
    let repair = try await reopened.repair()
    #expect(Set(repair.moved.map(\.from)) == ["objects/ab/stray", "staging/stray"])
    #expect(try await reopened.verify().isClean)
  }

  @Test func exportRefusesAlteredBytesUnlessForced() async throws {
    let library = try await Library.open(at: root)
    let asset = try await importOne(3, into: library)
    let path = library.objectPath(for: asset)
    chmod(path, 0o644)
    var bytes = Fixture.jpeg(seed: 3)
    bytes[100] ^= 0xFF
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    // Not yet marked damaged: the re-hash while copying finds it, and nothing is left at the destination.
    await #expect(throws: Library.Error.alteredObject(asset.id)) {
      try await library.export(asset.id, to: folder.at("out.jpg"))
    }
    #expect(!FileManager.default.fileExists(atPath: folder.at("out.jpg")))
    #expect(folder.files(under: "").filter { $0.contains(".intake-") }.isEmpty)
    try await library.export(asset.id, to: folder.at("out.jpg"), force: true)
    #expect(FileManager.default.contents(atPath: folder.at("out.jpg")).map(Array.init) == bytes)
  }

  @Test func openingCostsTheSameWhateverIsInTheFolder() async throws {
    // Opening reads the manifest's header only: a file dropped into objects/ is neither touched nor reported.
    let library = try await Library.open(at: root)
    _ = try await importOne(1, into: library)
    let orphan = try folder.write("library/objects/00/" + String(repeating: "0", count: 64), [1, 2])
    let reopened = try await Library.open(at: root)
    #expect(try await reopened.recoverInterruptedWork().isEmpty)
    #expect(FileManager.default.contents(atPath: orphan).map(Array.init) == [1, 2])
  }
}

/// Recovery undoes an intent only on the very inode it recorded, and never bytes a row references.
@Suite struct IntentRecoveryTests {
  let folder = TemporaryDirectory()

  @Test func anotherFileUnderTheRecordedNameIsKept() async throws {
    let library = try await Library.open(at: folder.at("library"))
    let bytes = Fixture.jpeg(seed: 11)
    let digest = SHA256Digest.of(bytes)
    // An import recorded that it would place some inode there, then died; later a restore put another file
    // (same device, another inode) under that name.
    let path = try folder.write("library/objects/\(digest.hex.prefix(2))/\(digest.hex)", bytes)
    var info = stat()
    #expect(lstat(path, &info) == 0)
    _ = try await library.manifest.recordIntent(
      .place, digest: digest, device: UInt64(info.st_dev), inode: UInt64(info.st_ino) + 1)
    let report = try await library.recoverInterruptedWork()
    #expect(FileManager.default.contents(atPath: path).map(Array.init) == bytes)
    #expect(report.kept == ["objects/\(digest.hex.prefix(2))/\(digest.hex)"])
    #expect(report.undoneObjects == 0)
    // The intent is gone: a second recovery has nothing to do.
    #expect(try await library.recoverInterruptedWork().isEmpty)
  }

  @Test func theRecordedInodeIsUndoneUnlessARowReferencesIt() async throws {
    let library = try await Library.open(at: folder.at("library"))
    let bytes = Fixture.jpeg(seed: 12)
    let digest = SHA256Digest.of(bytes)
    let path = try folder.write("library/objects/\(digest.hex.prefix(2))/\(digest.hex)", bytes)
    var info = stat()
    #expect(lstat(path, &info) == 0)
    _ = try await library.manifest.recordIntent(
      .place, digest: digest, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    let report = try await library.recoverInterruptedWork()
    #expect(report.undoneObjects == 1)
    #expect(!FileManager.default.fileExists(atPath: path))

    // The same, but the bytes are referenced by a row (another writer adopted them): kept.
    let summary = await Importer(library: library).importItems([
      BytesSource(bytes: bytes, suggestedName: "a.jpg")
    ])
    let asset = try #require(summary.items.first?.result.asset)
    #expect(lstat(library.objectPath(for: asset), &info) == 0)
    _ = try await library.manifest.recordIntent(
      .place, digest: digest, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    #expect(try await library.recoverInterruptedWork().undoneObjects == 0)
    #expect(try await library.verify().isClean)
  }
}

/// A library whose creation was cut short (killed after its folders were made, before the manifest had
/// anything) is an empty library to every command, not "no library".
@Suite struct InterruptedCreationTests {
  @Test func aHalfCreatedLibraryOpensEmptyForReaders() async throws {
    let folder = TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: folder.at("library/objects/00"), withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: folder.at("library/manifest.sqlite"), contents: Data()))
    var configuration = Library.Configuration()
    configuration.createIfNeeded = false
    let library = try await Library.open(at: folder.at("library"), configuration: configuration)
    #expect(try await library.count() == 0)
    #expect(try await library.verify().isClean)
    // A folder that was never a library is still refused.
    try FileManager.default.createDirectory(atPath: folder.at("stranger"), withIntermediateDirectories: true)
    await #expect(throws: Library.Error.notALibrary(folder.at("stranger"))) {
      _ = try await Library.open(at: folder.at("stranger"), configuration: configuration)
    }
  }
}
