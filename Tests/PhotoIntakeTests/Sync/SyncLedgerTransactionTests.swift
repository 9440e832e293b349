// These tests drive the fault hooks, which exist only with the `TestHooks` trait (Scripts/test.sh enables it).
#if TestHooks
  import Foundation
  import PhotoIntakeTesting
  import Testing

  @testable import PhotoIntake

  /// The sync ledger is written in the same SQLite transactions as the rows it describes: whichever SQLite
  /// call fails during an import, a removal or a re-ordering, the rows and the ledger agree afterwards — both
  /// changed or neither. A ledger written in a transaction of its own fails these sweeps.
  @Suite(.timeLimit(.minutes(5))) struct SyncLedgerTransactionTests {
    let folder = TemporaryDirectory(inMemory: true)

    /// A library syncing with "alice" (as after her sign-in), with a batch of `count` photos.
    func syncingLibrary(_ name: String, count: Int) async throws -> Library {
      let library = try await Library.open(at: folder.at(name))
      try await library.syncWrite { ledger throws(DatabaseError) in
        try ledger.setSetting("enabled", "1")
        try ledger.setSetting("account", "alice")
      }
      if count > 0 { _ = await Self.importer(library).importItems(Self.sources(0..<count)) }
      return library
    }

    static func importer(_ library: Library) -> Importer {
      var configuration = Importer.Configuration()
      configuration.maximumConcurrentItems = 2
      return Importer(library: library, configuration: configuration)
    }

    static func sources(_ range: Range<Int>) -> [any ItemSource] {
      range.map { DataItemSource(Data(photo("tx\($0)")), suggestedName: "IMG_\($0).JPG") }
    }

    /// The rows and the ledger describe the same library: every asset is to upload (or synced) and every
    /// listing has a live entry at a key in the listing's order; every asset the ledger holds as present is
    /// here, every one it holds as removed is not.
    func expectAgreement(_ library: Library, _ context: String) async throws {
      let assets = try await library.all(order: .batch)
      try await library.syncWrite { ledger throws(DatabaseError) in
        let present = Set(assets.map(\.sha256.hex))
        for entry in try ledger.assets("alice", in: [.uploading, .synced, .conflicted]) {
          #expect(
            present.contains(entry.sha256), "the ledger holds \(entry.sha256.prefix(6)) as here (\(context))")
        }
        for entry in try ledger.assets("alice", in: [.deleting, .removed]) {
          #expect(
            !present.contains(entry.sha256),
            "the ledger holds \(entry.sha256.prefix(6)) as removed (\(context))")
        }
        for sha in present {
          let state = try ledger.asset("alice", sha)?.state
          #expect(
            state == .uploading,
            "\(sha.prefix(6)) is here but the ledger says \(String(describing: state)) (\(context))")
        }
        var byBatch: [String: [String]] = [:]
        for asset in assets { byBatch[asset.batch.rawValue, default: []].append(asset.sha256.hex) }
        for (batch, members) in byBatch {
          let membership = try ledger.membership("alice", batch: batch)
          #expect(
            membership.order == members,
            "batch \(batch.prefix(6)) is listed otherwise than its entries (\(context))")
        }
      }
    }

    /// Fails the n-th SQLite call of `operation`, for every n until the operation runs clean.
    func sweep(
      _ label: String, prepare: (String) async throws -> Library, _ operation: (Library) async -> Void
    )
      async throws
    {
      var n = 1
      while n < 400 {
        let library = try await prepare("\(label)-\(n)")
        let injector = FaultInjector([FaultInjector.Rule(.sqlite, code: EIO, times: 1, skip: n - 1)])
        await Syscalls.injectedFaults.withValue(injector) { await operation(library) }
        try await expectAgreement(library, "\(label), SQLite call \(n) failing")
        await library.close()
        if injector.firedCounts[0, default: 0] == 0 { break }
        n += 1
      }
      #expect(n > 3, "the \(label) sweep reached \(n - 1) calls")
    }

    @Test func anImportAndItsLedgerCommitTogether() async throws {
      try await sweep("import", prepare: { try await syncingLibrary($0, count: 0) }) { library in
        _ = await Self.importer(library).importItems(Self.sources(0..<4))
      }
    }

    @Test func aRemovalAndItsTombstoneCommitTogether() async throws {
      try await sweep("remove", prepare: { try await syncingLibrary($0, count: 3) }) { library in
        guard let asset = try? await library.all().first else { return }
        try? await library.remove(asset.id)
      }
    }

    @Test func aReorderAndItsKeysCommitTogether() async throws {
      try await sweep("reorder", prepare: { try await syncingLibrary($0, count: 4) }) { library in
        guard let assets = try? await library.all(), let batch = assets.first?.batch else { return }
        try? await library.reorder(batch, to: assets.map(\.id).reversed())
      }
    }
  }
#endif
