import Foundation

extension Library {
  /// Puts a batch's assets in a new order (the user dragged a photo), durably.
  ///
  /// `order` must hold each asset the batch lists, once. When the library syncs, only the assets that moved
  /// get new places in the batch's record, in the same transaction, so that another device's concurrent move
  /// of another photo survives (see the "Syncing the library" article).
  ///
  /// - Throws: ``Error/batchNotFound(_:)``, ``Error/notAReordering(_:)`` when `order` is not the batch's
  ///   assets, ``Error/busy`` when another process keeps writing.
  public func reorder(_ batch: BatchID, to order: [AssetID]) async throws(Error) {
    try await beginWriting()
    defer { endWriting() }
    let ids = order.map(\.rawValue)
    let changed = try syncTransaction { ledger throws(Error) -> Bool in
      do {
        guard let found = try ledger.libraryBatch(batch.rawValue) else { throw Error.batchNotFound(batch) }
        let current = try ledger.listings(batchSequence: found.sequence)
        guard current.count == ids.count, Set(current.map(\.assetID)) == Set(ids) else {
          throw Error.notAReordering(batch)
        }
        if current.map(\.assetID) == ids { return false }
        let shas = Dictionary(
          current.map { ($0.assetID, $0.sha256) }, uniquingKeysWith: { first, _ in first })
        try ledger.rewriteListings(batchSequence: found.sequence, ids)
        try ledger.noteReorder(batch: batch.rawValue, order: ids.map { shas[$0]! })
        return true
      } catch let error as DatabaseError {
        throw Error(error)
      } catch let error as Error {
        throw error
      } catch {
        throw Error(anyFailure: error)
      }
    }
    if changed { publish(LibraryChange(updated: order)) }
  }

  /// Runs `body` in one transaction of the writer's connection, for sync's reads and writes of the ledger
  /// (and of the rows it describes). The caller holds the writer lock for writes (see ``syncWrite(_:)``).
  func syncTransaction<T>(_ body: (SyncLedger) throws(Error) -> T) throws(Error) -> T {
    let ledger = SyncLedger(database: database)
    do throws(DatabaseError) {
      try database.execute("BEGIN IMMEDIATE")
    } catch {
      throw Error(error)
    }
    do throws(Error) {
      let result = try body(ledger)
      do throws(DatabaseError) {
        try database.execute("COMMIT")
      } catch {
        throw Error(error)
      }
      return result
    } catch {
      try? database.execute("ROLLBACK")
      throw error
    }
  }

  /// Runs `body` in one transaction holding the writer lock: how ``LibrarySync`` changes the ledger.
  func syncWrite<T: Sendable>(_ body: @Sendable (SyncLedger) throws(DatabaseError) -> T) async throws(Error)
    -> T
  {
    try await beginWriting()
    defer { endWriting() }
    return try syncTransaction { ledger throws(Error) -> T in
      do throws(DatabaseError) {
        return try body(ledger)
      } catch {
        throw Error(error)
      }
    }
  }

  /// Reads the ledger on the writer's connection (it sees the library's own latest writes).
  func syncRead<T: Sendable>(_ body: @Sendable (SyncLedger) throws(DatabaseError) -> T) throws(Error) -> T {
    do throws(DatabaseError) {
      return try body(SyncLedger(database: database))
    } catch {
      throw Error(error)
    }
  }

  /// Tells observers that sync changed these assets (listed, re-ordered, renamed).
  func publishSync(_ change: LibraryChange) {
    if !change.inserted.isEmpty || !change.removed.isEmpty || !change.updated.isEmpty { publish(change) }
  }
}
