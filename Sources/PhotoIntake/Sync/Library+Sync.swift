import Foundation

extension Library {
  /// Runs `body` in one manifest transaction holding the writer lock: how ``LibrarySync`` changes the ledger
  /// (and the rows it describes, such as a batch's listings re-ordered by another device's edit).
  func syncWrite<T: Sendable>(_ body: @escaping @Sendable (SyncLedger) throws(DatabaseError) -> T)
    async throws(Error) -> T
  {
    try await whileWriting { () throws(Error) -> T in
      let value: T
      do throws(DatabaseError) {
        value = try await manifest.ledgerTransaction(body)
      } catch {
        throw Error(error)
      }
      // Rows it rewrote are in the identity journal before anyone is told.
      try await appendToJournal()
      return value
    }
  }

  /// Reads the ledger on the writer's connection (it sees the library's own latest writes).
  nonisolated func syncRead<T: Sendable>(_ body: @escaping @Sendable (SyncLedger) throws(DatabaseError) -> T)
    async throws(Error) -> T
  {
    do throws(DatabaseError) {
      return try await manifest.ledgerRead(body)
    } catch {
      throw Error(error)
    }
  }

  /// Tells observers that sync changed these assets (listed, re-ordered, renamed).
  func publishSync(_ change: LibraryChange) {
    if !change.inserted.isEmpty || !change.removed.isEmpty || !change.updated.isEmpty { publish(change) }
  }
}
