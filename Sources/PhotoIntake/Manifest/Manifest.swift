import Foundation

/// The library's SQLite manifest (`manifest.sqlite`): what the library holds and where each asset is listed,
/// what writers are doing, and what they have not finished.
///
/// The one owner of the database. Its writer connection is used only on this actor, whose serial executor is a
/// dispatch queue of its own (as GRDB's `DispatchQueueActor`): a commit that waits in `fsync` holds that
/// queue's thread, never one of Swift's cooperative threads. Reads go to a second, read-only connection on a
/// queue of its own (``read(_:)``), which sees the last committed state and never waits for a commit (WAL).
///
/// Every transaction is `BEGIN IMMEDIATE` with `synchronous=FULL`: when one returns, it is on stable storage.
/// The schema grows by appending to ``migrations`` (see `Manifest+Schema.swift`).
///
/// The manifest knows nothing of files: which inode an intent is about is recorded here; checking and removing
/// it is the ``ObjectStore``'s, passed in as a closure where the two must happen in one transaction
/// (``undo(_:removing:)``).
actor Manifest {
  private nonisolated let executor = DispatchSerialExecutor(label: "PhotoIntake.Manifest")
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  /// The manifest's path.
  nonisolated let path: String
  /// The writer's connection, used only on this actor.
  let database: Database
  /// The readers' connection (see ``DatabaseReader``).
  private nonisolated let reader: DatabaseReader

  private init(path: String, database: Database, reader: DatabaseReader) {
    self.path = path
    self.database = database
    self.reader = reader
  }

  /// Opens the manifest at `path`, creating and migrating it as needed. Blocks (`sqlite3_open`, fsynced
  /// migrations): call it on a lane.
  ///
  /// - Parameter maximumPages: caps the manifest's size (SQLite `max_page_count`); tests use it to simulate a
  ///   full disk.
  static func open(at path: String, maximumPages: Int? = nil) throws(DatabaseError) -> Manifest {
    let database = try Database.open(path: path)
    try migrate(database)
    if let maximumPages { try database.execute("PRAGMA max_page_count=\(maximumPages)") }
    return Manifest(path: path, database: database, reader: try DatabaseReader(path: path))
  }

  /// Runs a read on the readers' connection: it sees the last committed state and never waits for the writer.
  nonisolated func read<T: Sendable, Failure: Error>(
    _ body: @escaping @Sendable (Database) throws(Failure) -> T
  ) async throws(Failure) -> T {
    try await reader.read(body)
  }

  /// Folds the write-ahead log into the manifest when no one else is reading it (at the end of a library's use).
  func checkpoint() {
    try? database.execute("PRAGMA wal_checkpoint(PASSIVE)")
  }

  /// Runs `body` for each of `indices` in one transaction; if that transaction fails, in one transaction per
  /// index, so that one bad item never fails the others. Returns each index's value or error, in order.
  func inOneTransactionOrEach<Value>(
    _ indices: [Int], _ body: (Int) throws(DatabaseError) -> Value
  ) -> [Result<Value, DatabaseError>] {
    if indices.count > 1,
      let values = try? database.transaction({ () throws(DatabaseError) -> [Value] in
        // A loop, not `map`: before the iOS 18 SDK the standard library's `map` rethrows `any Error`, not the
        // closure's typed error.
        var values: [Value] = []
        for index in indices { values.append(try body(index)) }
        return values
      })
    {
      return values.map { .success($0) }
    }
    var results: [Result<Value, DatabaseError>] = []
    for index in indices {
      do {
        results.append(.success(try database.transaction { () throws(DatabaseError) in try body(index) }))
      } catch {
        results.append(.failure(error))
      }
    }
    return results
  }
}
