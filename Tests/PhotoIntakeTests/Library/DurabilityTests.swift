// These tests drive the fault and power-loss hooks, which exist only with the `TestHooks` trait
// (Scripts/test.sh enables it).
#if TestHooks
  import Foundation
  import PhotoIntakeTesting
  import Testing

  @testable import PhotoIntake

  /// Invariants 1, 2 and 8 of DESIGN.md under power loss and injected faults: every item acknowledged before
  /// the power went off (or a system call failed) is present and verifies afterwards, recovery removes only
  /// what a write recorded, and nothing outside the library changes.
  @Suite struct DurabilityTests {
    let folder = TemporaryDirectory()

    /// A folder beside the library that nothing may touch, and its contents.
    func makeBystander() throws -> [String: [UInt8]] {
      var contents: [String: [UInt8]] = [:]
      for index in 0..<3 {
        let bytes = Fixture.jpeg(seed: 900 + UInt64(index), size: 700)
        _ = try folder.write("outside/keep-\(index).jpg", bytes)
        contents["keep-\(index).jpg"] = bytes
      }
      return contents
    }

    func expectBystanderUnchanged(_ expected: [String: [UInt8]], _ context: String) {
      let names = Set(folder.files(under: "outside"))
      #expect(names == Set(expected.keys), "files outside the library changed (\(context))")
      for (name, bytes) in expected {
        let found = FileManager.default.contents(atPath: folder.at("outside/\(name)")).map(Array.init)
        #expect(found == bytes, "\(name) outside the library changed (\(context))")
      }
    }

    static func sources(_ count: Int) -> [any ItemSource] {
      (0..<count).map { index in
        BytesSource(bytes: Fixture.jpeg(seed: UInt64(index) + 1, size: 3000), suggestedName: "p\(index).jpg")
      }
    }

    /// Imports `count` items under `injector` into a new library at `root`; returns what was acknowledged.
    func importUnder(_ injector: FaultInjector, root: String, count: Int) async throws -> [Asset] {
      let library = try await Library.open(at: root)
      var configuration = Importer.Configuration()
      configuration.maximumConcurrentItems = 2
      let summary = await Syscalls.injectedFaults.withValue(injector) {
        await Importer(library: library, configuration: configuration).importItems(Self.sources(count))
      }
      return summary.items.compactMap { report in
        if case .imported(let asset) = report.result { asset } else { nil }
      }
    }

    /// Opens the library anew (as the next process would), recovers, and checks every invariant.
    func expectIntact(root: String, acknowledged: [Asset], context: String) async throws {
      let reopened = try await Library.open(at: root)
      try await reopened.recoverInterruptedWork()
      let report = try await reopened.verify()
      #expect(report.isClean, "verify after \(context): \(report)")
      for asset in acknowledged {
        #expect(
          try await reopened.asset(asset.id)?.sha256 == asset.sha256, "lost \(asset.id) after \(context)")
      }
      let staging = (try? FileManager.default.contentsOfDirectory(atPath: root + "/staging")) ?? []
      #expect(staging.isEmpty, "staging not empty after \(context): \(staging)")
      await reopened.close()
    }

    /// The power is cut after every recorded effect of a 20-item import in turn.
    ///
    /// `Scripts/power-test.sh` runs it longer: PHOTOINTAKE_POWER_ITEMS items, and PHOTOINTAKE_POWER_RANDOM cut
    /// points drawn at random (seed PHOTOINTAKE_POWER_SEED) instead of every point; PHOTOINTAKE_POWER_STRIDE
    /// takes every n-th point (the mutation script uses it to be quick).
    @Test func powerCutAtEveryPointKeepsEveryAcknowledgedItem() async throws {
      let environment = ProcessInfo.processInfo.environment
      let items = environment["PHOTOINTAKE_POWER_ITEMS"].flatMap { Int($0) } ?? 20
      let bystander = try makeBystander()
      // A run without a cut counts the points.
      let counting = PowerLossModel(cutAfter: nil, keeperFolder: try keeperFolder("count"))
      let clean = try await importUnder(
        FaultInjector([], powerLoss: counting), root: folder.at("count-library"), count: items)
      #expect(clean.count == items)
      let points = counting.recordedCount
      print("power-loss model: \(points) recorded effects in a \(items)-item import")
      #expect(points > 5 * items, "an import records effects: \(points)")
      var cuts = Array(
        Swift.stride(
          from: 1, through: points, by: environment["PHOTOINTAKE_POWER_STRIDE"].flatMap { Int($0) } ?? 1))
      if let random = environment["PHOTOINTAKE_POWER_RANDOM"].flatMap({ Int($0) }) {
        var generator = SeededGenerator(
          seed: environment["PHOTOINTAKE_POWER_SEED"].flatMap { UInt64($0) } ?? 1)
        // Effects interleave differently from run to run (two items at once), so a point may land past the end.
        cuts = (0..<random).map { _ in Int.random(in: 1...points + points / 10, using: &generator) }
      }
      for point in cuts {
        let root = folder.at("cut-\(point)")
        let model = PowerLossModel(cutAfter: point, keeperFolder: try keeperFolder("k\(point)-\(UUID())"))
        let acknowledged = try await importUnder(
          FaultInjector([], powerLoss: model), root: root, count: items)
        model.cut()
        try await expectIntact(
          root: root, acknowledged: acknowledged, context: "a power cut after effect \(point)")
        await remove(root)
      }
      expectBystanderUnchanged(bystander, "power cuts")
    }

    /// The model itself: a cut undoes an unsynced creation and truncates unsynced data, keeps what was synced.
    @Test func theModelRollsBackWhatWasNotSynced() throws {
      let model = PowerLossModel(cutAfter: nil, keeperFolder: try keeperFolder("model"))
      let directory = try Directory(opening: folder.at("m"), create: true)
      try Syscalls.injectedFaults.withValue(FaultInjector([], powerLoss: model)) {
        let synced = try directory.open("synced", O_WRONLY | O_CREAT | O_EXCL)
        try write([1, 2, 3], to: synced.descriptor)
        try synced.sync()
        try directory.sync()
        try write([4, 5], to: synced.descriptor)
        let lost = try directory.open("unsynced-name", O_WRONLY | O_CREAT | O_EXCL)
        try lost.sync()
      }
      model.cut()
      #expect(FileManager.default.contents(atPath: folder.at("m/synced")).map(Array.init) == [1, 2, 3])
      #expect(!FileManager.default.fileExists(atPath: folder.at("m/unsynced-name")))
    }

    /// Every system call of the commit and recovery paths fails at its n-th use, for every n.
    @Test(arguments: [
      SystemError.Operation.open, .write, .fsync, .link, .unlink, .stat, .sqlite,
    ])
    func failingTheNthCallLosesNothing(operation: SystemError.Operation) async throws {
      let bystander = try makeBystander()
      let stride = operation == .sqlite ? 7 : 1
      var n = 1
      while true {
        let rule = FaultInjector.Rule(
          operation, code: operation == .write ? ENOSPC : EIO, times: 1, skip: n - 1)
        let injector = FaultInjector([rule])
        let root = folder.at("fault-\(operation)-\(n)")
        let acknowledged = try await importUnder(injector, root: root, count: 20)
        try await expectIntact(root: root, acknowledged: acknowledged, context: "\(operation) #\(n) failing")
        await remove(root)
        if injector.firedCounts[0, default: 0] == 0 { break }
        n += stride
      }
      // A commit looks up no fan-out folder by `stat` now (a missing one is made at its first object), so
      // `stat` is one call of the whole import; every other operation is used many times.
      #expect(n > (operation == .stat ? 1 : 5), "the sweep reached \(n - 1) calls of \(operation)")
      expectBystanderUnchanged(bystander, "\(operation) faults")
    }

    @Test func theManifestIsOpenedForDurableCommits() async throws {
      let library = try await Library.open(at: folder.at("library"))
      let values = try await library.pragmas(["journal_mode", "synchronous", "fullfsync"])
      #expect(values[0] == "wal")
      // 2 is FULL: each commit is fsynced to the log before COMMIT returns.
      #expect(values[1] == "2")
      #if canImport(Darwin)
        #expect(values[2] == "1")
      #endif
    }

    @Test func storedObjectsAreReadOnly() async throws {
      let library = try await Library.open(at: folder.at("library"))
      let summary = await Importer(library: library).importItems(Self.sources(2))
      for asset in summary.items.compactMap(\.result.asset) {
        var info = stat()
        #expect(lstat(library.objectPath(for: asset), &info) == 0)
        #expect(
          info.st_mode & 0o222 == 0, "object \(asset.id) is writable: \(String(info.st_mode, radix: 8))")
      }
    }

    func write(_ bytes: [UInt8], to descriptor: Int32) throws {
      try bytes.withUnsafeBytes { buffer in try Syscalls.writeAll(descriptor, buffer, path: "test") }
    }

    /// Removes a library the test is done with. A library is 260 folders and their files: removing it blocks,
    /// so it happens on an I/O lane, not on one of the cooperative pool's threads, which every other suite of
    /// the run needs (the seven fault sweeps run at once and would hold the pool's two threads for minutes).
    func remove(_ root: String) async {
      await BlockingLanes.io.run { try? FileManager.default.removeItem(atPath: root) }
    }

    func keeperFolder(_ name: String) throws -> String {
      let path = folder.at("keepers/\(name)")
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      return path
    }
  }

  extension Library {
    /// The writer connection's current values of `names`.
    func pragmas(_ names: [String]) async throws -> [String?] {
      try await manifest.pragmas(names)
    }
  }

  extension Manifest {
    /// The writer connection's current values of `names`.
    func pragmas(_ names: [String]) throws -> [String?] {
      try names.map { name in
        let statement = try database.prepare("PRAGMA \(name)")
        return try statement.step() ? statement.text(0) : nil
      }
    }
  }
#endif

#if TestHooks
  /// A new library's fan-out folders are made in the background while the first items arrive; no object is
  /// linked before they are all made and `objects/` is fsynced, and a failed making leaves the folders
  /// made on demand, durably.
  @Suite struct FanOutFolderTests {
    let folder = TemporaryDirectory()

    @Test func aFolderIsMadeDurableBeforeAnythingIsLinkedIntoIt() async throws {
      let calls = Protected<[(SystemError.Operation, String)]>([])
      let hook = FaultInjector(
        [], beforeCall: { operation, path in calls.withLock { $0.append((operation, path)) } })
      let root = folder.at("library")
      let summary = try await Syscalls.injectedFaults.withValue(hook) {
        let library = try await Library.open(at: root)
        let summary = await Importer(library: library).importItems(DurabilityTests.sources(6))
        await library.close()
        return summary
      }
      #expect(summary.importedCount == 6)
      let seen = calls.current
      // Only the folders the six objects need are made, not 256.
      let prefixes = Set(summary.items.compactMap { $0.result.asset.map { String($0.sha256.hex.prefix(2)) } })
      let made = seen.indices.filter { seen[$0].0 == .mkdir && seen[$0].1.hasPrefix(root + "/objects/") }
      #expect(Set(made.map { String(seen[$0].1.suffix(2)) }) == prefixes)
      #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/objects").count == prefixes.count)
      // Each link into a folder comes after that folder's mkdir and an fsync of objects/ after the mkdir.
      let synced = seen.indices.filter { seen[$0].0 == .fsync && seen[$0].1 == root + "/objects" }
      for prefix in prefixes {
        let mkdir = try #require(made.first { seen[$0].1 == root + "/objects/" + prefix })
        let into = root + "/objects/" + prefix + "/"
        let link = try #require(seen.indices.first { seen[$0].0 == .link && seen[$0].1.hasPrefix(into) })
        #expect(synced.contains { $0 > mkdir && $0 < link }, "objects/ not fsynced before a link: \(prefix)")
      }
    }

    @Test func aLibraryKeepsFewFoldersOpen() async throws {
      // 64 photos land in about 56 of the 256 folders; an app's descriptors are few, so at most 16 stay open.
      let library = try await Library.open(at: folder.at("library"))
      let sources = (0..<64).map { index in
        BytesSource(
          bytes: Fixture.jpeg(seed: 300 + UInt64(index), size: 1000), suggestedName: "p\(index).jpg")
      }
      let summary = await Importer(library: library).importItems(sources)
      #expect(summary.importedCount == 64)
      let prefixes = Set(summary.items.compactMap { $0.result.asset?.sha256.hex.prefix(2) })
      #expect(prefixes.count > ObjectStore.openFolderLimit)
      #expect(library.store.openFolderCount <= ObjectStore.openFolderLimit)
      // Every object is still reached (folders evicted are opened again).
      let report = try await library.verify()
      #expect(report.isClean && report.checked == 64)
      await library.close()
    }

    @Test func aFolderThatCannotBeMadeFailsOnlyItsItems() async throws {
      // The first mkdir under objects/ fails: the items bound for that folder fail with the error, the others
      // are imported, and a second import brings the failed ones in.
      let hook = FaultInjector([.init(.mkdir, pathContains: "/objects/", code: EIO, times: 1)])
      let root = folder.at("library")
      let library = try await Library.open(at: root)
      let summary = await Syscalls.injectedFaults.withValue(hook) {
        await Importer(library: library).importItems(DurabilityTests.sources(8))
      }
      #expect(hook.firedCounts[0] == 1)
      #expect(summary.failedCount >= 1 && summary.failedCount < 8)
      #expect(summary.importedCount + summary.failedCount == 8)
      let again = await Importer(library: library).importItems(DurabilityTests.sources(8))
      #expect(again.importedCount == summary.failedCount && again.failedCount == 0)
      let report = try await library.verify()
      #expect(report.isClean && report.checked == 8)
      await library.close()
    }
  }
#endif
