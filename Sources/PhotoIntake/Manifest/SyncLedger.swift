import Foundation

/// The sync ledger: what the manifest records about syncing, in tables of its own beside the library's rows.
///
/// For each iCloud account (ledgers never mix: one account's rows never make another account upload), each
/// asset's and batch's sync state and the server's system fields of its record; each batch's membership entries
/// (`BatchMembership`); the engine's serialized state. Every method runs inside the caller's transaction, so
/// a ledger change commits with the library rows it describes (an import's row and its "to upload" mark, a
/// download's row and its "synced" mark, a removal and its tombstone): a crash at any moment leaves both or
/// neither, and the next launch resumes from there without duplicating or dropping an item.
///
/// This is the only code that reads or writes the ledger's tables, which the manifest's migration 4 makes
/// (`Manifest+Schema.swift`); the SQL that reads or rewrites the library's own rows for sync (listing a
/// downloaded asset, re-ordering a batch) is in `SyncLedger+LibraryRows.swift`. The manifest runs it on its own
/// executor, inside its transactions: the row commits of `Manifest+Rows.swift`, and
/// `Manifest.ledgerTransaction(_:)` for sync's own writes.
struct SyncLedger {
  let database: Database
  /// The library rows this ledger rewrote in the current transaction, for their identity records
  /// (``rowChangeRecords()``).
  let rowChanges = LibraryRowChanges()

  /// An asset's or batch's sync state as the ledger stores it.
  enum State: String, Sendable {
    /// To be saved to the server (new, changed, or its save must be retried).
    case uploading
    /// The server has this version.
    case synced
    /// Known from the server; the bytes are not here yet (a download failed or was interrupted).
    case downloading
    /// Removed here; the record's tombstone (its removal stamp, without bytes) is to be saved.
    case deleting
    /// Removed (here or on another device), and the server holds the tombstone.
    case removed
    /// A conflicting version was merged and is to be saved again.
    case conflicted
    /// Too large for a CloudKit record: kept here only.
    case tooLarge
    /// The zone was deleted (the user deleted the app's data from iCloud): kept here, never re-uploaded
    /// unless the app asks.
    case stopped
  }

  // MARK: Settings

  func setting(_ key: String) throws(DatabaseError) -> String? {
    let select = try database.prepare("SELECT value FROM sync_settings WHERE key = ?1").bind(.text(key))
    return try select.step() ? select.text(0) : nil
  }

  func setSetting(_ key: String, _ value: String?) throws(DatabaseError) {
    if let value {
      try database.prepare(
        "INSERT INTO sync_settings(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
      ).bind(.text(key), .text(value)).run()
    } else {
      try database.prepare("DELETE FROM sync_settings WHERE key = ?1").bind(.text(key)).run()
    }
  }

  /// The account the library syncs with now; nil when syncing is off or no account is signed in. Imports and
  /// edits made meanwhile belong to no account, and are adopted by the next account the app syncs with.
  func currentAccount() throws(DatabaseError) -> String? {
    guard try setting("enabled") == "1" else { return nil }
    return try setting("account")
  }

  func setCurrentAccount(_ account: String?) throws(DatabaseError) { try setSetting("account", account) }

  /// This library's device id for order edits: made once, at random, unless the app chose one.
  func deviceID() throws(DatabaseError) -> String {
    if let existing = try setting("device") { return existing }
    let made = String(UUID().uuidString.lowercased().prefix(13))
    try setSetting("device", made)
    return made
  }

  /// A new stamp for an edit made here (see `HybridLogicalClock`), persisted with the edit.
  func tick() throws(DatabaseError) -> Int64 {
    var clock = HybridLogicalClock(last: Int64(try setting("clock") ?? "0") ?? 0)
    let stamp = clock.tick(wallMilliseconds: SyncWallClock.milliseconds())
    try setSetting("clock", String(stamp))
    return stamp
  }

  /// Takes note of another device's stamp, so that the next edit here comes after it.
  func observe(_ stamp: Int64) throws(DatabaseError) {
    let last = Int64(try setting("clock") ?? "0") ?? 0
    if stamp > last { try setSetting("clock", String(stamp)) }
  }

  // MARK: Accounts

  /// The zone's state for an account as far as this library knows.
  enum ZoneState: String, Sendable {
    /// Not yet created by this library.
    case unknown
    /// Saved to the server (or records were fetched from it).
    case created
    /// Deleted on the server (by the user): syncing stops until the app asks to upload again.
    case deleted
  }

  func ensureAccount(_ account: String) throws(DatabaseError) {
    try database.prepare("INSERT INTO sync_accounts(account) VALUES (?1) ON CONFLICT(account) DO NOTHING")
      .bind(.text(account)).run()
  }

  func engineState(_ account: String) throws(DatabaseError) -> Data? {
    let select = try database.prepare("SELECT engine_state FROM sync_accounts WHERE account = ?1")
      .bind(.text(account))
    guard try select.step() else { return nil }
    return select.text(0).flatMap { Data(base64Encoded: $0) }
  }

  func setEngineState(_ account: String, _ state: Data?) throws(DatabaseError) {
    try ensureAccount(account)
    try database.prepare("UPDATE sync_accounts SET engine_state = ?2 WHERE account = ?1")
      .bind(.text(account), .optional(state?.base64EncodedString())).run()
  }

  func zoneState(_ account: String) throws(DatabaseError) -> ZoneState {
    let select = try database.prepare("SELECT zone FROM sync_accounts WHERE account = ?1").bind(
      .text(account))
    guard try select.step() else { return .unknown }
    return ZoneState(rawValue: select.text(0) ?? "") ?? .unknown
  }

  func setZoneState(_ account: String, _ state: ZoneState) throws(DatabaseError) {
    try ensureAccount(account)
    try database.prepare("UPDATE sync_accounts SET zone = ?2 WHERE account = ?1")
      .bind(.text(account), .text(state.rawValue)).run()
  }

  /// The generation of a full re-fetch under way for the account (0: none). Records seen during it are marked
  /// with it; what the ledger holds as synced but the re-fetch did not see was deleted meanwhile.
  func census(_ account: String) throws(DatabaseError) -> Int64 {
    let select = try database.prepare("SELECT census FROM sync_accounts WHERE account = ?1").bind(
      .text(account))
    return try select.step() ? select.int(0) : 0
  }

  func setCensus(_ account: String, _ generation: Int64) throws(DatabaseError) {
    try ensureAccount(account)
    try database.prepare("UPDATE sync_accounts SET census = ?2 WHERE account = ?1")
      .bind(.text(account), .int(generation)).run()
  }
}

/// Where order edits take their wall time from: the system clock, or a simulated one bound for a task (the
/// simulated devices of `PhotoIntakeTesting`, whose timelines must read the same on every run).
package final class SyncWallClock: Sendable {
  /// Milliseconds since 1970.
  let milliseconds: @Sendable () -> Int64

  /// A clock reading `milliseconds`.
  package init(milliseconds: @escaping @Sendable () -> Int64) { self.milliseconds = milliseconds }

  /// The clock in force for the current task, if one is bound with `withValue`. (A class, not a function
  /// value: binding a task-local of function type crashes the Swift 6.3 runtime on Linux. A `TaskLocal` value
  /// rather than the `@TaskLocal` macro, as `Syscalls.injectedFaults` is: the macro needs a compiler plugin.)
  package static let current = TaskLocal<SyncWallClock?>(wrappedValue: nil)

  static func milliseconds() -> Int64 {
    current.get()?.milliseconds() ?? Int64((Date().timeIntervalSince1970 * 1000).rounded())
  }
}
