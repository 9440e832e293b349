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
  /// The newest journal frame this writer knows to be durable in the identity journal: the outbox keeps only
  /// frames after it (see `Manifest+Journal.swift`).
  var journaledThrough: UInt64 = 0

  /// Opened for reading only (``openForReading(at:logHoldsCommits:)``): both connections are read-only, and
  /// nothing may be written through this value.
  nonisolated let isReadOnly: Bool

  private init(path: String, database: Database, reader: DatabaseReader, isReadOnly: Bool = false) {
    self.path = path
    self.database = database
    self.reader = reader
    self.isReadOnly = isReadOnly
  }

  /// Opens the manifest at `path`, creating and migrating it as needed. Blocks (`sqlite3_open`, fsynced
  /// migrations): call it on a lane.
  ///
  /// - Parameter maximumPages: caps the manifest's size (SQLite `max_page_count`); tests use it to simulate a
  ///   full disk.
  static func open(at path: String, maximumPages: Int? = nil) throws(DatabaseError) -> Manifest {
    let database = try Database.open(path: path, headerCheck: headerDamage)
    try migrate(database)
    if let maximumPages { try database.execute("PRAGMA max_page_count=\(maximumPages)") }
    return Manifest(path: path, database: database, reader: try DatabaseReader(path: path))
  }

  /// Opens the existing manifest at `path` for reading only, creating and writing nothing (see
  /// ``Database/openOnReadOnlyStorage(path:logHoldsCommits:headerCheck:)``): for storage this process cannot
  /// write, or is full, and for tools that only read. Blocks: call it on a lane.
  ///
  /// - Throws: a manifest that must be migrated first (made by an older PhotoIntake, or new and empty) cannot be
  ///   read without writing: `ExtendedCode.needsMigration`, with a sentence saying so.
  static func openForReading(at path: String, logHoldsCommits: Bool) throws(DatabaseError) -> Manifest {
    let database = try Database.openOnReadOnlyStorage(
      path: path, logHoldsCommits: logHoldsCommits, headerCheck: headerDamage)
    try database.execute("PRAGMA query_only=1")
    let version = try database.userVersion
    try refuseDamagedVersion(version, database)
    try refuseNewer(version)
    if version < currentVersion {
      throw DatabaseError(
        code: ExtendedCode.needsMigration,
        message: version == 0
          ? "the manifest is new and empty, and making it needs write access"
          : "the manifest was made by an older PhotoIntake (schema version \(version)), and upgrading it needs "
            + "write access")
    }
    let reader = try DatabaseReader(
      database: try Database.openOnReadOnlyStorage(
        path: path, logHoldsCommits: logHoldsCommits, headerCheck: headerDamage))
    return Manifest(path: path, database: database, reader: reader, isReadOnly: true)
  }

  /// Runs a read on the readers' connection and waits for it (for callers on a blocking lane).
  nonisolated func readNow<T>(_ body: (Database) throws(DatabaseError) -> T) throws(DatabaseError) -> T {
    try reader.readNow(body)
  }

  /// Runs a read on the readers' connection: it sees the last committed state and never waits for the writer.
  nonisolated func read<T: Sendable, Failure: Error>(
    _ body: @escaping @Sendable (Database) throws(Failure) -> T
  ) async throws(Failure) -> T {
    try await reader.read(body)
  }

  /// Folds the write-ahead log into the manifest when no one else is reading it (at the end of a library's use).
  func checkpoint() {
    guard !isReadOnly else { return }
    try? database.execute("PRAGMA wal_checkpoint(PASSIVE)")
  }

  /// Runs `body` for each of `indices` in one transaction; if that transaction fails, in one transaction per
  /// index, so that one bad item never fails the others. Returns each index's value or error, in order.
  func inOneTransactionOrEach<Value>(
    _ indices: [Int], _ body: (Int) throws(DatabaseError) -> Value
  ) -> [Result<Value, DatabaseError>] {
    journaledTransactionOrEach(indices) { index throws(DatabaseError) in (try body(index), []) }.results
  }

  /// ``inOneTransactionOrEach(_:_:)`` for work that changes identity: `body` returns each index's value and its
  /// identity records, and each transaction records the records of its indices (``recordIdentity(_:)``) before it
  /// commits. Returns the values and the frames of the committed transactions, to append to the journal.
  func journaledTransactionOrEach<Value>(
    _ indices: [Int], _ body: (Int) throws(DatabaseError) -> (Value, [IdentityRecord])
  ) -> (results: [Result<Value, DatabaseError>], frames: [JournalFrame]) {
    // One transaction for `group`: the values, and the frame of its records (nil when it recorded none).
    func run(_ group: [Int]) throws(DatabaseError) -> ([Value], JournalFrame?) {
      try database.transaction { () throws(DatabaseError) in
        // A loop, not `map`: before the iOS 18 SDK the standard library's `map` rethrows `any Error`, not the
        // closure's typed error.
        var values: [Value] = []
        var records: [IdentityRecord] = []
        for index in group {
          let (value, recorded) = try body(index)
          values.append(value)
          records += recorded
        }
        return (values, records.isEmpty ? nil : try recordIdentity(records))
      }
    }
    if indices.count > 1, let (values, frame) = try? run(indices) {
      return (values.map { .success($0) }, frame.map { [$0] } ?? [])
    }
    var results: [Result<Value, DatabaseError>] = []
    var frames: [JournalFrame] = []
    for index in indices {
      do {
        let (values, frame) = try run([index])
        results.append(.success(values[0]))
        if let frame { frames.append(frame) }
      } catch {
        results.append(.failure(error))
      }
    }
    return (results, frames)
  }
}
