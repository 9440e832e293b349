import Foundation

#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif

/// One recorded, unfinished operation on an object.
struct Intent: Sendable, Equatable {
  enum Kind: String, Sendable {
    /// An import placing a new object (or replacing a damaged one).
    case place
    /// A removal whose row is already gone.
    case remove
  }

  var id: Int64
  var kind: Kind
  var digest: SHA256Digest
  /// The inode the operation is about: recovery removes that inode, never whatever else has the name.
  var device: UInt64
  var inode: UInt64
}

// Writers and their intents (DESIGN.md invariant 2). A writer's row is committed before it creates any
// staging file, so that recovery can find its files again by its token; an intent is committed before an
// object is placed or removed, with the inode it is about, and deleted in the transaction that finishes the
// work. Recovery undoes exactly these records, so its cost is that of what was interrupted, never the
// library's size.
extension Manifest {
  /// Records a new writer (one `Library` value's turn at writing) and returns its token.
  func registerWriter() throws(DatabaseError) -> String {
    let token = String(UInt64.random(in: 0...UInt64.max), radix: 16)
    try database.transaction { () throws(DatabaseError) in
      try database.prepare("INSERT INTO writers(token, started_at, process) VALUES (?1, ?2, ?3)")
        .bind(.text(token), .double(Date().timeIntervalSince1970), .int(Int64(getpid()))).run()
    }
    return token
  }

  /// The tokens of every recorded writer.
  func recordedWriters() throws(DatabaseError) -> [String] {
    let select = try database.prepare("SELECT token FROM writers")
    var tokens: [String] = []
    while try select.step() { tokens.append(select.text(0) ?? "") }
    return tokens
  }

  /// Forgets writers whose work is undone (the caller made the removal of their staging files durable first).
  func forgetWriters(_ tokens: [String]) throws(DatabaseError) {
    guard !tokens.isEmpty else { return }
    let forget = try database.prepare("DELETE FROM writers WHERE token = ?1")
    try database.transaction { () throws(DatabaseError) in
      for token in tokens { try forget.bind(.text(token)).run() }
    }
  }

  /// The recorded intents of the writer `token`, or of every writer (nil), oldest first.
  func intents(token: String?) throws(DatabaseError) -> [Intent] {
    let select = try database.prepare(
      "SELECT id, kind, object, device, inode FROM intents WHERE ?1 IS NULL OR token = ?1 ORDER BY id")
    try select.bind(.optional(token))
    var found: [Intent] = []
    while try select.step() {
      guard let kind = select.text(1).flatMap(Intent.Kind.init(rawValue:)),
        let digest = select.text(2).flatMap(SHA256Digest.init(hex:))
      else { continue }
      found.append(
        Intent(
          id: select.int(0), kind: kind, digest: digest, device: UInt64(bitPattern: select.int(3)),
          inode: UInt64(bitPattern: select.int(4))))
    }
    return found
  }

  /// Commits an intent to place each staged file, in one transaction for all (or one per file, if that fails),
  /// before anything is placed. Returns each file's intent or failure, in order.
  func recordPlacements(_ staged: [StagedFile], token: String) -> [Result<Intent, DatabaseError>] {
    inOneTransactionOrEach(Array(staged.indices)) { index throws(DatabaseError) in
      let file = staged[index]
      return try insertIntent(
        .place, digest: file.digest, device: file.device, inode: file.inode, token: token)
    }
  }

  /// Commits one intent on its own (tests record one to simulate an interrupted write).
  func recordIntent(
    _ kind: Intent.Kind, digest: SHA256Digest, device: UInt64, inode: UInt64, token: String = "unowned"
  ) throws(DatabaseError) -> Intent {
    try database.transaction { () throws(DatabaseError) in
      try insertIntent(kind, digest: digest, device: device, inode: inode, token: token)
    }
  }

  /// Inserts an intent inside the caller's transaction.
  func insertIntent(_ kind: Intent.Kind, digest: SHA256Digest, device: UInt64, inode: UInt64, token: String)
    throws(DatabaseError) -> Intent
  {
    try database.prepare(
      "INSERT INTO intents(token, kind, object, device, inode, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    ).bind(
      .text(token), .text(kind.rawValue), .text(digest.hex), .int(Int64(bitPattern: device)),
      .int(Int64(bitPattern: inode)), .double(Date().timeIntervalSince1970)
    ).run()
    return Intent(
      id: sqlite3_last_insert_rowid(database.handle), kind: kind, digest: digest, device: device,
      inode: inode
    )
  }

  /// Forgets an intent whose work is finished, inside the caller's transaction.
  func deleteIntent(_ intent: Intent) throws(DatabaseError) {
    try database.prepare("DELETE FROM intents WHERE id = ?1").bind(.int(intent.id)).run()
  }

  /// Undoes one intent: unless a row references its object's bytes, `remove` (an ``ObjectStore`` call that
  /// deletes the object only if it is still the recorded inode) runs; then the intent is forgotten. The check,
  /// the removal and the forgetting happen inside one write transaction, so a writer adopting the same object
  /// (which re-checks inside its own) cannot slip in between, even if two writers ever ran at once.
  ///
  /// - Returns: what `remove` did; nil when a row references the bytes (nothing was removed).
  /// - Throws: a failure of the transaction or of `remove` (as `SQLITE_IOERR`); the intent then stays
  ///   recorded, and the next writer undoes it.
  @discardableResult
  func undo<Outcome: Sendable>(
    _ intent: Intent, removing remove: @Sendable (Intent) throws(SystemError) -> Outcome
  ) throws(DatabaseError) -> Outcome? {
    try database.transaction { () throws(DatabaseError) -> Outcome? in
      var outcome: Outcome?
      if try database.assetID(withSHA256: intent.digest) == nil {
        do throws(SystemError) {
          outcome = try remove(intent)
        } catch {
          throw DatabaseError(code: SQLITE_IOERR, message: error.description)
        }
      }
      try deleteIntent(intent)
      return outcome
    }
  }
}
