/// How sync reads and writes the ledger: on the manifest's executor, with the writer's connection, which sees
/// the library's own latest writes.
extension Manifest {
  /// Runs `body` in one transaction (`BEGIN IMMEDIATE`, `synchronous=FULL`) of the writer's connection: the
  /// ledger changes it makes, the library rows it rewrites with them and their identity records commit together
  /// or not at all.
  /// The caller holds the library's writer lock.
  func ledgerTransaction<T: Sendable>(_ body: @Sendable (SyncLedger) throws(DatabaseError) -> T)
    throws(DatabaseError) -> T
  {
    try database.transaction { () throws(DatabaseError) -> T in
      let ledger = SyncLedger(database: database)
      let value = try body(ledger)
      // Library rows it rewrote (listings re-ordered, names changed) are identity: recorded for the journal in
      // this transaction; the caller appends them once it commits.
      let records = try ledger.rowChangeRecords()
      if !records.isEmpty { _ = try recordIdentity(records) }
      return value
    }
  }

  /// Reads the ledger (and the rows beside it) on the writer's connection.
  func ledgerRead<T: Sendable>(_ body: @Sendable (SyncLedger) throws(DatabaseError) -> T)
    throws(DatabaseError)
    -> T
  {
    try body(SyncLedger(database: database))
  }
}
