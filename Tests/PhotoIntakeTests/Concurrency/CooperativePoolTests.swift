// These tests drive the fault and power-loss hooks, which exist only with the `TestHooks` trait
// (Scripts/test.sh enables it).
#if TestHooks
  import Foundation
  import PhotoIntakeTesting
  import Testing

  @testable import PhotoIntake

  /// An import never holds Swift's cooperative threads: its copies, fsyncs and commits run on threads of their
  /// own, so that the app's other tasks keep running, and its queries do not wait behind a commit.
  ///
  /// Checked by where the work runs rather than by timing (other suites share the pool while this one runs): a
  /// hook in the system-call layer notes the dispatch queue of every read and fsync of an import.
  @Suite(.serialized) struct CooperativePoolTests {
    let folder = TemporaryDirectory()

    func files(_ count: Int) throws -> [any ItemSource] {
      try (0..<count).map { index in
        FileItemSource(path: try folder.write("in/\(index).jpg", Fixture.jpeg(seed: UInt64(index) + 1)))
      }
    }

    @Test func copiesAndFsyncsRunOnThreadsOfTheirOwn() async throws {
      let sources = try files(6)
      let library = try await Library.open(at: folder.at("library"))
      let queues = Protected<[String: Int]>([:])
      let hook = FaultInjector(
        [],
        beforeCall: { operation, path in
          guard operation == .read || operation == .fsync, path.contains("/in/") || path.contains("/library/")
          else { return }
          queues.withLock { $0[OwnQueues.current ?? "not ours", default: 0] += 1 }
        })
      let summary = await Syscalls.injectedFaults.withValue(hook) {
        await Importer(library: library).importItems(sources)
      }
      #expect(summary.importedCount == 6)
      let seen = queues.current
      #expect(seen.values.reduce(0, +) >= 12, "reads and fsyncs were seen: \(seen)")
      // None on Swift's cooperative pool (nor on any other thread that is not PhotoIntake's own).
      #expect(seen["not ours"] == nil, "blocking calls on other threads: \(seen)")
    }

    /// Every blocking call the core makes through its system-call layer and SQLite — open, read, write, fsync,
    /// rename, link, unlink, mkdir, stat, directory listing, SQLite statements — while it walks a folder, creates a
    /// library, imports files and bytes in memory with renditions, verifies, makes a rendition on demand and repairs, runs on a thread of PhotoIntake's own.
    /// Moving one of these paths back onto the cooperative pool makes this test fail.
    @Test func everyBlockingCallOfTheCoreRunsOffThePool() async throws {
      var sources = try files(4)
      // Bytes in memory (a camera capture) are written into staging as a file's are copied.
      sources.append(DataItemSource(Data(Fixture.jpeg(seed: 77)), suggestedName: "capture.jpg"))
      #if canImport(CVips)
        // A photo the decoders can render (the generated ones are only JPEG-shaped).
        sources.append(FileItemSource(path: ImagingFixture.path("orientation-6.jpg")))
      #endif
      let calls = Protected<[String: Set<String>]>([:])
      let hook = FaultInjector(
        [],
        beforeCall: { operation, path in
          guard operation == .sqlite || path.contains("/in/") || path.contains("/library") else { return }
          _ = calls.withLock { $0[OwnQueues.current ?? "not ours", default: []].insert("\(operation)") }
        })
      let root = folder.at("library")
      try await Syscalls.injectedFaults.withValue(hook) {
        // Listing the folder to import reads directories.
        let walked = await FileItemSource.walking([folder.at("in")])
        #expect(walked.count == 4)
        let library = try await Library.open(at: root)  // a new library: 256 folders, each made durable
        let summary = await Importer(library: library).importItems(sources)
        #expect(summary.importedCount == sources.count)
        let report = try await library.verify()
        #expect(report.damaged.isEmpty && report.checked == sources.count)
        #if canImport(CVips)
          let asset = try await library.all(order: .batch).last!
          let made = try await RenditionStore(library: library).rendition(of: asset, size: 24)
          #expect(made.wasCreated)
        #endif
        await library.close()
        _ = try await Library.repair(at: root)
      }
      let seen = calls.current
      let kinds = seen.values.reduce(into: Set<String>()) { $0.formUnion($1) }
      for kind in ["open", "read", "write", "fsync", "rename", "mkdir", "stat", "sqlite"] {
        #expect(kinds.contains(kind), "no \(kind) was seen: \(seen)")
      }
      #expect(seen["not ours"] == nil, "blocking calls on the cooperative pool: \(seen["not ours"] ?? [])")
    }

    @Test func queriesAnswerWhileTheWriterIsInACommit() async throws {
      let library = try await Library.open(at: folder.at("library"))
      _ = await Importer(library: library).importItems(try files(1))
      // The first SQLite statement of the next import holds the writer for two seconds, as a commit waiting for
      // a slow disk would; a query answered by the library actor or on the writer's connection would wait.
      let inside = Protected(false)
      let once = Protected(false)
      let hook = FaultInjector(
        [],
        beforeCall: { operation, _ in
          guard operation == .sqlite,
            !once.withLock({ done in
              defer { done = true }; return done
            })
          else { return }
          inside.withLock { $0 = true }
          usleep(2_000_000)
          inside.withLock { $0 = false }
        })
      let importing = Task {
        await Syscalls.injectedFaults.withValue(hook) {
          await Importer(library: library).importItems([
            BytesSource(bytes: Fixture.jpeg(seed: 99), suggestedName: "slow.jpg")
          ])
        }
      }
      while !inside.current { try await Task.sleep(for: .milliseconds(5)) }
      let count = try await library.count()
      let page = try await library.list(limit: 10)
      #expect(inside.current, "the query waited for the writer's statement")
      #expect(count == 1)
      #expect(page.assets.count == 1)
      _ = await importing.value
    }
  }
#endif
