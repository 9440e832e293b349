import Dispatch

/// A second SQLite connection to the manifest, for reads only, on a dispatch queue of its own.
///
/// With WAL, a reader sees the last committed state and never waits for the writer: an app's grid listing the
/// library during an import is served here while the writer's connection is in a commit waiting for `fsync`.
/// The connection is used by one queue, so by one thread at a time.
final class DatabaseReader: @unchecked Sendable {
  // @unchecked: `database` is only touched inside blocks run on `queue`, which is serial.
  private let database: Database
  private let queue = DispatchQueue(label: "PhotoIntake.Library.reader")

  convenience init(path: String) throws(DatabaseError) {
    try self.init(database: try Database.open(path: path, readOnly: true))
  }

  /// A reader over a connection already open (read-only) and used by nothing else.
  init(database: Database) throws(DatabaseError) {
    try database.execute("PRAGMA query_only=1")
    self.database = database
    OwnQueues.mark(queue)
  }

  /// Runs `body` with the connection, on the reader's queue; the calling task is suspended meanwhile.
  func read<T: Sendable, E: Error>(_ body: @escaping @Sendable (Database) throws(E) -> T) async throws(E) -> T
  {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, E>, Never>) in
      queue.async { [self] in
        continuation.resume(returning: Result<T, E>.typed { () throws(E) in try body(database) })
      }
    }
    return try result.typedGet()
  }

  /// Runs `body` with the connection and waits for it: for callers already on a blocking lane (opening).
  func readNow<T, E: Error>(_ body: (Database) throws(E) -> T) throws(E) -> T {
    try queue.sync { () -> Result<T, E> in
      Result<T, E>.typed { () throws(E) in try body(database) }
    }.typedGet()
  }
}
