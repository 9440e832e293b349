// These tests count and slow system calls through the test hooks, which exist only with the `TestHooks`
// trait (Scripts/test.sh enables it).
#if TestHooks
  import Foundation
  import PhotoIntakeTesting
  import Testing

  @testable import PhotoIntake

  /// Group commit (issue 23 item 7): the items staged while one group waits on the disk share the next
  /// group's intent commit, folder fsyncs and row commit; a lone item commits at once; one item's failure
  /// stays its own. The crash windows of a group are swept by `DurabilityTests` (power cuts after every
  /// recorded effect) and `CrashTests` (kill -9 at each named point).
  @Suite struct GroupCommitTests {
    let folder = TemporaryDirectory()

    /// The flushes an import paid, counted at the system-call layer.
    struct Flushes {
      /// fsyncs of staged files (one per item: never shared).
      var stagedFiles = 0
      /// fsyncs of `objects/ab` folders.
      var folders = 0
      /// SQLite commits (each one fsync of the write-ahead log, `synchronous=FULL`).
      var commits = 0
    }

    /// Imports `sources` into a new library, counting flushes; each folder fsync takes `folderSyncDelay`
    /// longer (a slow disk), so that the next items finish staging while a group waits.
    func importCounting(
      _ sources: [any ItemSource], width: Int, folderSyncDelay: Duration = .zero,
      rules: [FaultInjector.Rule] = []
    ) async throws -> (summary: ImportSummary, flushes: Flushes, library: Library) {
      let library = try await Library.open(at: folder.at("library"))
      let keepers = folder.at("keepers")
      try FileManager.default.createDirectory(atPath: keepers, withIntermediateDirectories: true)
      let model = PowerLossModel(cutAfter: nil, keeperFolder: keepers)
      let counts = Protected(Flushes())
      let delay =
        useconds_t(folderSyncDelay.components.attoseconds / 1_000_000_000_000)
        + useconds_t(folderSyncDelay.components.seconds * 1_000_000)
      let injector = FaultInjector(rules, powerLoss: model) { operation, path in
        guard operation == .fsync else { return }
        if path.contains("/staging/") {
          counts.withLock { $0.stagedFiles += 1 }
        } else if path.contains("/objects/") {
          counts.withLock { $0.folders += 1 }
          if delay > 0 { usleep(delay) }
        }
      }
      var configuration = Importer.Configuration()
      configuration.maximumConcurrentItems = width
      let summary = await Syscalls.injectedFaults.withValue(injector) {
        await Importer(library: library, configuration: configuration).importItems(sources)
      }
      var flushes = counts.current
      flushes.commits = model.commitCount
      return (summary, flushes, library)
    }

    static func photos(_ count: Int, seed: UInt64 = 1) -> [any ItemSource] {
      (0..<count).map { index in
        BytesSource(
          bytes: Fixture.jpeg(seed: seed + UInt64(index), size: 3000), suggestedName: "p\(index).jpg")
      }
    }

    /// Checks what every import must leave: the listed assets verify, staging is empty, and each object
    /// belongs to a row.
    func expectConsistent(_ library: Library, assets: Int) async throws {
      #expect(try await library.verify().isClean)
      #expect(folder.files(under: "library/staging").isEmpty)
      #expect(folder.files(under: "library/objects").count == assets)
      #expect(try await library.count() == assets)
    }

    @Test func itemsStagedDuringACommitShareTheNextGroup() async throws {
      let items = 24
      let (summary, flushes, library) = try await importCounting(
        Self.photos(items), width: 4, folderSyncDelay: .milliseconds(40))
      #expect(summary.importedCount == items)
      // Each item's own file is fsynced once; the rest is shared. One commit per item and group would be
      // 2 × 24 + the batch's own (batch row, writer record and its removal).
      #expect(flushes.stagedFiles == items)
      #expect(flushes.commits < items, "\(flushes.commits) SQLite commits for \(items) items")
      #expect(flushes.folders <= items)
      try await expectConsistent(library, assets: items)
    }

    @Test(.timeLimit(.minutes(1)))
    func aLoneItemCommitsAtOnce() async throws {
      // Each item can only be delivered once the one before it is acknowledged: a commit that waited for a
      // group to fill would never finish.
      let items = 5
      let gates = Gates()
      gates.open(0)
      let sources: [any ItemSource] = (0..<items).map { index in
        GatedSource(gates: gates, index: index, bytes: Fixture.jpeg(seed: 50 + UInt64(index), size: 3000))
      }
      let library = try await Library.open(at: folder.at("library"))
      var configuration = Importer.Configuration()
      configuration.maximumConcurrentItems = 4
      let session = Importer(library: library, configuration: configuration).start(sources)
      var acknowledged: [Int] = []
      for await event in session {
        guard case .itemFinished(let report) = event else { continue }
        #expect(report.result.asset != nil, "item \(report.index): \(report.result)")
        acknowledged.append(report.index)
        gates.open(report.index + 1)
      }
      #expect(acknowledged == Array(0..<items))
      try await expectConsistent(library, assets: items)
    }

    @Test func theSameBytesTwiceInAGroupAreStoredOnce() async throws {
      // Four copies each of two photos, all staged while the first group waits on the disk.
      let bytes = [Fixture.jpeg(seed: 70, size: 3000), Fixture.jpeg(seed: 71, size: 3000)]
      let sources: [any ItemSource] = (0..<8).map { BytesSource(bytes: bytes[$0 % 2]) }
      let (summary, _, library) = try await importCounting(
        sources, width: 8, folderSyncDelay: .milliseconds(40))
      #expect(summary.importedCount == 2)
      #expect(summary.items.filter { if case .duplicate = $0.result { true } else { false } }.count == 6)
      for report in summary.items {
        #expect(report.result.asset?.sha256 == SHA256Digest.of(bytes[report.index % 2]))
      }
      // Every item is listed in the batch, each copy of a photo as the same asset.
      let page = try await library.list(order: .batch)
      #expect(page.assets.count == 8)
      #expect(Set(page.assets.map(\.id)).count == 2)
      try await expectConsistent(library, assets: 2)
    }

    @Test func oneFailedLinkFailsOnlyItsItem() async throws {
      // The third link of the import fails; its item fails alone and leaves nothing, its group goes on.
      let items = 12
      let (summary, _, library) = try await importCounting(
        Self.photos(items, seed: 90), width: 4, folderSyncDelay: .milliseconds(20),
        rules: [FaultInjector.Rule(.link, code: EIO, times: 1, skip: 2)])
      let failed = summary.items.filter { $0.result.error != nil }
      #expect(failed.count == 1, "\(failed.map(\.result))")
      #expect(summary.importedCount == items - 1)
      try await expectConsistent(library, assets: items - 1)
    }
  }

  /// Gates that items wait at before delivering, opened one by one by the test.
  final class Gates: Sendable {
    private struct State {
      var opened: Set<Int> = []
      var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }
    private let state = Protected(State())

    func open(_ index: Int) {
      let waiter = state.withLock { state in
        state.opened.insert(index)
        return state.waiting.removeValue(forKey: index)
      }
      waiter?.resume()
    }

    func wait(_ index: Int) async {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let isOpen = state.withLock { state in
          if state.opened.contains(index) { return true }
          state.waiting[index] = continuation
          return false
        }
        if isOpen { continuation.resume() }
      }
    }
  }

  /// A source that delivers its bytes once its gate is open.
  struct GatedSource: ItemSource {
    let gates: Gates
    let index: Int
    let bytes: [UInt8]
    var suggestedName: String? { "gated-\(index).jpg" }
    var typeHints: [String] { [] }

    func deliver(to sink: StagingSink) async throws(Importer.Error) {
      await gates.wait(index)
      try sink.write(bytes)
    }
  }
#endif
