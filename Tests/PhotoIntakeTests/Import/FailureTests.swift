// These tests drive the fault and power-loss hooks, which exist only with the `TestHooks` trait
// (Scripts/test.sh enables it).
#if TestHooks
  import Foundation
  import PhotoIntakeTesting
  import Testing

  @testable import PhotoIntake

  /// Every typed error of the import, produced by real files and by injected system-call failures.
  @Suite struct FailureTests {
    let folder = TemporaryDirectory()

    func importFiles(
      _ paths: [String], faults: FaultInjector? = nil, configuration: Library.Configuration = .init()
    )
      async throws -> (ImportSummary, Library)
    {
      let library = try await Library.open(at: folder.at("library"), configuration: configuration)
      let summary = await Syscalls.injectedFaults.withValue(faults) {
        await Importer(library: library).importItems(FileItemSource.walk(paths))
      }
      return (summary, library)
    }

    func expectNothingLeftBehind(_ library: Library) async throws {
      #expect(folder.files(under: "library/staging").isEmpty)
      let report = try await library.verify()
      #expect(report.isClean)
    }

    @Test func diskFullWhileWritingStaging() async throws {
      let good = try folder.write("in/a.jpg", Fixture.jpeg(seed: 1, size: 3_000_000))
      let faults = FaultInjector([
        .init(.write, pathContains: "/staging/", code: ENOSPC, afterBytes: 2_000_000)
      ]
      )
      let (summary, library) = try await importFiles([good], faults: faults)
      #expect(summary.items[0].result.error == .diskFull)
      #expect(try await library.count() == 0)
      try await expectNothingLeftBehind(library)
    }

    @Test func diskFullInTheManifest() async throws {
      // SQLite's own writes cannot be intercepted; a page cap makes SQLite report SQLITE_FULL for real.
      var configuration = Library.Configuration()
      configuration.maximumManifestPages = 12
      for index in 0..<400 {
        try folder.write("in/\(index).jpg", Fixture.jpeg(seed: UInt64(index), size: 64))
      }
      let (summary, library) = try await importFiles([folder.at("in")], configuration: configuration)
      let errors = summary.items.compactMap(\.result.error)
      #expect(!errors.isEmpty)
      #expect(summary.importedCount > 0, "the manifest filled up part-way, not at once")
      // The first full disk stops the batch: the items not yet started are reported as not attempted.
      #expect(errors.contains(.diskFull))
      #expect(errors.allSatisfy { $0 == .diskFull || $0 == .notAttempted })
      // Whatever was acknowledged is there; whatever failed left no object behind.
      #expect(try await library.count() == summary.importedCount)
      #expect(folder.files(under: "library/objects").count == summary.importedCount)
      try await expectNothingLeftBehind(library)
    }

    @Test func fsyncFailureIsFinalAndNeverRetried() async throws {
      let file = try folder.write("in/a.jpg", Fixture.jpeg(seed: 2))
      let faults = FaultInjector([.init(.fsync, pathContains: "/staging/", code: EIO, times: 1)])
      let (summary, library) = try await importFiles([file], faults: faults)
      #expect(summary.items[0].result.error == .ioError(operation: "fsync", code: EIO))
      #expect(faults.firedCounts[0] == 1)
      #expect(try await library.count() == 0)
      try await expectNothingLeftBehind(library)
    }

    @Test func permissionDeniedOnTheSource() async throws {
      // Tests may run as root, for whom chmod 000 changes nothing, so the denial is injected.
      let file = try folder.write("in/a.jpg", Fixture.jpeg(seed: 3))
      let faults = FaultInjector([.init(.open, pathContains: "/in/a.jpg", code: EACCES)])
      let (summary, _) = try await importFiles([file], faults: faults)
      #expect(summary.items[0].result.error == .permissionDenied)
    }

    @Test func sourceChangingDuringTheCopy() async throws {
      let file = try folder.write("in/a.jpg", Fixture.jpeg(seed: 4, size: 3_000_000))
      let appended = Protected(false)
      let faults = FaultInjector([]) { path, _ in
        guard path == file,
          !appended.withLock({
            let was = $0; $0 = true; return was
          })
        else { return }
        let handle = FileHandle(forWritingAtPath: file)!
        handle.seekToEndOfFile()
        handle.write(Data([1, 2, 3]))
        try? handle.close()
      }
      let (summary, library) = try await importFiles([file], faults: faults)
      #expect(summary.items[0].result.error == .sourceChanged)
      try await expectNothingLeftBehind(library)
    }

    @Test func sourceRewrittenInPlaceWithTheSameSize() async throws {
      let file = try folder.write("in/a.jpg", Fixture.jpeg(seed: 5, size: 3_000_000))
      let done = Protected(false)
      let faults = FaultInjector([]) { path, _ in
        guard path == file,
          !done.withLock({
            let was = $0; $0 = true; return was
          })
        else { return }
        usleep(20_000)  // let the clock tick so the modification time differs
        let handle = FileHandle(forWritingAtPath: file)!
        handle.seek(toFileOffset: 2_500_000)
        handle.write(Data([9, 9, 9]))
        try? handle.close()
      }
      let (summary, _) = try await importFiles([file], faults: faults)
      #expect(summary.items[0].result.error == .sourceChanged)
    }

    @Test func sourceDeletedDuringTheCopy() async throws {
      let file = try folder.write("in/a.jpg", Fixture.jpeg(seed: 6, size: 3_000_000))
      let faults = FaultInjector([]) { path, _ in
        if path == file { unlink(file) }
      }
      let (summary, library) = try await importFiles([file], faults: faults)
      #expect(summary.items[0].result.error == .sourceVanished)
      try await expectNothingLeftBehind(library)
    }

    @Test func sourceMissing() async throws {
      let (summary, _) = try await importFiles([folder.at("nowhere.jpg")])
      #expect(summary.items[0].result.error == .sourceVanished)
    }

    @Test func specialFilesAreRefusedWithoutBeingOpened() async throws {
      try folder.write("in/real.jpg", Fixture.jpeg(seed: 7))
      try folder.write("outside/secret.jpg", Fixture.jpeg(seed: 8))
      #expect(symlink(folder.at("outside/secret.jpg"), folder.at("in/link-out.jpg")) == 0)
      #expect(symlink(folder.at("outside"), folder.at("in/link-dir")) == 0)
      #expect(mkfifo(folder.at("in/pipe.jpg"), 0o644) == 0)
      let (summary, library) = try await importFiles([folder.at("in"), "/dev/null"])
      let outcome = Dictionary(
        uniqueKeysWithValues: summary.items.map {
          (FileItemSource.walk([folder.at("in"), "/dev/null"])[$0.index].path, $0.result.error)
        })
      #expect(outcome[folder.at("in/real.jpg")] == .some(nil))
      #expect(outcome[folder.at("in/link-out.jpg")] == .notRegularFile(.symbolicLink))
      #expect(outcome[folder.at("in/link-dir")] == .notRegularFile(.symbolicLink))
      #expect(outcome[folder.at("in/pipe.jpg")] == .notRegularFile(.fifo))
      #expect(outcome["/dev/null"] == .notRegularFile(.characterDevice))
      // Nothing from outside the folder was read.
      #expect(try await library.count() == 1)
      #expect(try await library.asset(withSHA256: SHA256Digest.of(Fixture.jpeg(seed: 8))) == nil)
    }

    @Test func walkSkipsHiddenEntriesAndSortsByName() throws {
      try folder.write("in/b.jpg", [1])
      try folder.write("in/a/z.jpg", [1])
      try folder.write("in/a/.DS_Store", [1])
      try folder.write("in/.hidden/x.jpg", [1])
      try folder.write("in/C.jpg", [1])
      let walked = FileItemSource.walk([folder.at("in") + "/"]).map(\.path)
      #expect(walked == [folder.at("in/C.jpg"), folder.at("in/a/z.jpg"), folder.at("in/b.jpg")])
    }

    @Test func aSymlinkGivenExplicitlyIsResolvedOnce() async throws {
      try folder.write("real/a.jpg", Fixture.jpeg(seed: 12))
      #expect(symlink(folder.at("real"), folder.at("alias")) == 0)
      let walked = FileItemSource.walk([folder.at("alias")]).map(\.path)
      try #require(walked.count == 1)
      #expect(walked[0].hasSuffix("/real/a.jpg"))
    }
  }
#endif
