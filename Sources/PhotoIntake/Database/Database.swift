#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One SQLite connection. Owned by one actor (``Library``), so it is never used from two threads at once.
///
/// Opened in WAL mode with `synchronous=FULL`: every committed transaction is fsynced to the WAL before
/// `COMMIT` returns, which is what lets the library acknowledge an import only after its row is durable
/// (https://sqlite.org/pragma.html#pragma_synchronous).
final class Database {
  /// The connection handle; freed in `deinit`.
  let handle: OpaquePointer
  let path: String

  /// Opens (creating if needed) the database at `path`, in WAL mode with `synchronous=FULL`.
  ///
  /// With `readOnly`, the connection never creates the file and refuses writes (`query_only`); it is for
  /// ``DatabaseReader``. `headerCheck` sees the file's first 100 bytes (all zero for a new, empty file) before
  /// SQLite reads anything; a sentence it returns refuses the file as damage (SQLITE_CORRUPT).
  static func open(path: String, readOnly: Bool = false, headerCheck: (([UInt8]) -> String?)? = nil)
    throws(DatabaseError) -> Database
  {
    let flags = SQLITE_OPEN_READWRITE | (readOnly ? 0 : SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
    let database = try connect(path, name: path, flags: flags, headerCheck: headerCheck)
    if readOnly {
      try database.execute("PRAGMA query_only=1")
      return database
    }
    try database.execute("PRAGMA journal_mode=WAL")
    try database.execute("PRAGMA synchronous=FULL")
    for pragma in Platform.sqliteDurabilityPragmas { try database.execute(pragma) }
    try database.execute("PRAGMA foreign_keys=ON")
    return database
  }

  /// Opens the existing database at `path` for reading only, on storage this process cannot write: read-only
  /// media, a folder without write permission, or a full disk. Nothing is created, nothing is written.
  ///
  /// A reader in WAL mode needs the log's shared-memory index (`-shm`) (https://sqlite.org/wal.html §8,
  /// "Read-Only Databases"): SQLite's read-only open uses one that exists, even read-only, and makes one where
  /// it can. Where it cannot (nothing to write it in, no space for its 32 KB), and the log holds nothing
  /// (`logHoldsCommits` false: no `-wal`, or an empty one — which is also how a library closed cleanly is left),
  /// the file alone is the whole database: it is opened `immutable`, without locks or index. A log with commits
  /// in it and no index to read it by cannot be read here: that open fails (SQLITE_CANTOPEN) rather than answer
  /// from the file without the log's commits.
  static func openOnReadOnlyStorage(
    path: String, logHoldsCommits: Bool, headerCheck: (([UInt8]) -> String?)? = nil
  ) throws(DatabaseError) -> Database {
    let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
    do {
      let database = try connect(uri(path), name: path, flags: flags, headerCheck: headerCheck)
      // The first read opens the log, and its index: what fails where the index cannot be had.
      _ = try database.userVersion
      return database
    } catch
      where !logHoldsCommits
      && (error.isReadOnly || error.isDiskFull
        || [SQLITE_CANTOPEN, SQLITE_IOERR].contains(error.code & 0xFF))
    {
      let database = try connect(
        uri(path) + "?immutable=1", name: path, flags: flags, headerCheck: headerCheck)
      _ = try database.userVersion
      return database
    }
  }

  /// `path` as an SQLite URI filename (https://sqlite.org/uri.html §3.1): `%`, `?` and `#` escaped, and an
  /// absolute path given an empty authority, so that one beginning `//` is not read as a host.
  private static func uri(_ path: String) -> String {
    var escaped = ""
    for character in path {
      switch character {
      case "%": escaped += "%25"
      case "?": escaped += "%3f"
      case "#": escaped += "%23"
      default: escaped.append(character)
      }
    }
    return path.hasPrefix("/") ? "file://" + escaped : "file:" + escaped
  }

  /// `sqlite3_open_v2` of `filename` (a path, or a URI with `SQLITE_OPEN_URI`), with extended result codes, the
  /// header check and a busy timeout.
  private static func connect(
    _ filename: String, name path: String, flags: Int32, headerCheck: (([UInt8]) -> String?)?
  ) throws(DatabaseError) -> Database {
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(filename, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      let error =
        handle.map { DatabaseError(connection: $0) }
        ?? DatabaseError(code: code, message: sqliteOpenFailure())
      if let handle { sqlite3_close_v2(handle) }
      throw error
    }
    let database = Database(handle: handle, path: path)
    sqlite3_extended_result_codes(handle, 1)
    if let headerCheck, let damage = headerCheck(database.readMainFile(length: 100, at: 0)) {
      throw DatabaseError(code: SQLITE_CORRUPT, message: damage)
    }
    // Wait rather than fail when another connection (a reader in another process) holds a lock briefly.
    sqlite3_busy_timeout(handle, 5_000)
    return database
  }

  /// Reads bytes of the main database file through SQLite's own handle of it (`SQLITE_FCNTL_FILE_POINTER`);
  /// zeros where the file is shorter or cannot be read.
  ///
  /// Never through a descriptor of our own: POSIX drops every lock a process holds on a file when any of its
  /// descriptors of that file is closed (https://sqlite.org/howtocorrupt.html §2.2). Our connections would then
  /// hold no lock on the manifest, and another process closing its last connection would believe itself the last
  /// user, fold and delete the write-ahead log under them: commits lost, short reads.
  func readMainFile(length: Int, at offset: Int64) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: length)
    var file: UnsafeMutablePointer<sqlite3_file>?
    guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK, let file,
      let read = file.pointee.pMethods?.pointee.xRead
    else { return bytes }
    let code = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, Int32(length), offset) }
    // A short read has already zero-filled the rest (the VFS contract); any other failure is nothing read.
    if code != SQLITE_OK && code != ExtendedCode.shortRead { return [UInt8](repeating: 0, count: length) }
    return bytes
  }

  private init(handle: OpaquePointer, path: String) {
    self.handle = handle
    self.path = path
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// Runs SQL that returns no rows (may hold several statements).
  func execute(_ sql: String) throws(DatabaseError) {
    try Self.injectFault(commit: sql == "COMMIT")
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    if code != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      sqlite3_free(message)
      throw DatabaseError(
        code: sqlite3_extended_errcode(handle), message: text, systemCode: sqlite3_system_errno(handle))
    }
  }

  func prepare(_ sql: String) throws(DatabaseError) -> Statement {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else { throw lastError }
    return Statement(handle: statement, database: self)
  }

  /// The test hooks of ``Syscalls`` for SQLite (only with the `TestHooks` trait): an injected `.sqlite` fault fails the statement (ENOSPC as
  /// `SQLITE_FULL`, anything else as `SQLITE_IOERR`), and after a simulated power cut nothing runs.
  static func injectFault(commit: Bool) throws(DatabaseError) {
    #if TestHooks
      guard let faults = Syscalls.faults else { return }
      if let model = faults.powerLoss {
        if model.isOff { throw DatabaseError(code: SQLITE_IOERR, message: "disk I/O error (power off)") }
        if commit {
          do { try model.willCommit() } catch {
            throw DatabaseError(code: SQLITE_IOERR, message: "power off")
          }
        }
      }
      if let code = faults.error(for: .sqlite, path: "manifest.sqlite", bytes: 0) {
        throw DatabaseError(
          code: code == ENOSPC ? SQLITE_FULL : SQLITE_IOERR, message: "injected failure (errno \(code))")
      }
    #endif
  }

  /// Runs `body` in an `IMMEDIATE` transaction, committing if it returns and rolling back if it throws.
  func transaction<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
    try transaction(beginning: "BEGIN IMMEDIATE", body)
  }

  /// Runs `body` in one read transaction (`BEGIN DEFERRED`): every query in it sees the same committed state,
  /// one WAL snapshot, whatever writers commit meanwhile. For the readers' connection.
  func readTransaction<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
    try transaction(beginning: "BEGIN DEFERRED", body)
  }

  private func transaction<T>(beginning begin: String, _ body: () throws(DatabaseError) -> T)
    throws(DatabaseError) -> T
  {
    try execute(begin)
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  var userVersion: Int {
    get throws(DatabaseError) {
      let statement = try prepare("PRAGMA user_version")
      return try statement.step() ? Int(statement.int(0)) : 0
    }
  }

  var lastError: DatabaseError { DatabaseError(connection: handle) }
}

/// A prepared statement; finalized in `deinit`.
final class Statement {
  let handle: OpaquePointer
  private let database: Database

  init(handle: OpaquePointer, database: Database) {
    self.handle = handle
    self.database = database
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Binds values to `?1`, `?2`… in order.
  @discardableResult
  func bind(_ values: SQLValue...) throws(DatabaseError) -> Statement {
    try bind(values)
  }

  @discardableResult
  func bind(_ values: [SQLValue]) throws(DatabaseError) -> Statement {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let code: Int32
      switch value {
      case .null: code = sqlite3_bind_null(handle, index)
      case .int(let number): code = sqlite3_bind_int64(handle, index, number)
      case .double(let number): code = sqlite3_bind_double(handle, index, number)
      case .text(let text): code = sqliteBindText(handle, index, text)
      }
      if code != SQLITE_OK { throw database.lastError }
    }
    return self
  }

  /// Advances to the next row; false when there are no more.
  func step() throws(DatabaseError) -> Bool {
    try Database.injectFault(commit: false)
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw database.lastError
    }
  }

  /// Runs a statement that returns no rows.
  func run() throws(DatabaseError) {
    _ = try step()
    sqlite3_reset(handle)
  }

  func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
  func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
  func text(_ column: Int32) -> String? {
    guard let pointer = sqlite3_column_text(handle, column) else { return nil }
    return String(cString: pointer)
  }
  func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
  func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }
}

/// A value bound to a statement parameter.
enum SQLValue {
  case null
  case int(Int64)
  case double(Double)
  case text(String)

  static func optional(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }
  static func optional(_ number: Int?) -> SQLValue { number.map { .int(Int64($0)) } ?? .null }
  static func optional(_ number: Double?) -> SQLValue { number.map(SQLValue.double) ?? .null }
}

/// An SQLite failure: the extended result code, SQLite's message and the system's `errno` behind it.
struct DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
  var code: Int32
  var message: String
  /// The `errno` of the system call that failed inside SQLite, when one did (`sqlite3_system_errno`).
  var systemCode: Int32 = 0

  init(code: Int32, message: String, systemCode: Int32 = 0) {
    self.code = code
    self.message = message
    self.systemCode = systemCode
  }

  /// The last failure of `connection`.
  init(connection: OpaquePointer) {
    self.init(
      code: sqlite3_extended_errcode(connection), message: String(cString: sqlite3_errmsg(connection)),
      systemCode: sqlite3_system_errno(connection))
  }

  /// The storage is full: SQLITE_FULL (the disk, or `max_page_count`), the shared-memory index that could not
  /// grow (ExtendedCode.shmSize), or any I/O failure whose `errno` was ENOSPC or EDQUOT.
  var isDiskFull: Bool {
    code & 0xFF == SQLITE_FULL || code == ExtendedCode.shmSize || systemCode == ENOSPC || systemCode == EDQUOT
  }

  /// The storage cannot be written here: SQLite opened the file read-only or cannot write it (SQLITE_READONLY
  /// and its extended codes), or could not make the log or its index for lack of write permission or on
  /// read-only media (SQLITE_CANTOPEN, SQLITE_IOERR with EROFS, EACCES or EPERM behind it).
  var isReadOnly: Bool {
    code & 0xFF == SQLITE_READONLY
      || [EROFS, EACCES, EPERM].contains(systemCode) && [SQLITE_CANTOPEN, SQLITE_IOERR].contains(code & 0xFF)
  }

  /// The manifest's bytes are damaged: SQLite finds the file malformed (SQLITE_CORRUPT) or not a database at all
  /// (SQLITE_NOTADB), or a page is missing from a file cut short (ExtendedCode.shortRead).
  var isDamage: Bool {
    code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT || code == ExtendedCode.shortRead
      || code & 0xFF == SQLITE_FORMAT
  }

  /// What the damage is, in words (for ``Library/Error/manifestDamaged(reason:)``).
  var damageReason: String {
    if code == ExtendedCode.shortRead { return "the file ends before its last page" }
    if code & 0xFF == SQLITE_NOTADB { return "it is not an SQLite database" }
    if code == ExtendedCode.damagedValue { return message }
    return "SQLite finds it malformed"
  }

  /// The file is not an SQLite database, or is damaged beyond SQLite's own recovery.
  var isNotADatabase: Bool { code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT }

  var description: String { "SQLite error \(code): \(message)" }
}

/// SQLite's extended result codes this file tells apart. sqlite3.h defines them as expressions
/// (`SQLITE_IOERR | (32<<8)`), which Swift does not import.
enum ExtendedCode {
  /// A read found fewer bytes than asked: the file ends early.
  static let shortRead: Int32 = SQLITE_IOERR | (2 << 8)
  /// The shared-memory index of the log could not grow (a full disk).
  static let shmSize: Int32 = SQLITE_IOERR | (19 << 8)
  /// Ours, not SQLite's: a row holds a value no write stores (a changed byte inside a value, which SQLite's
  /// checks cannot see). A kind of `SQLITE_CORRUPT`.
  static let damagedValue: Int32 = SQLITE_CORRUPT | (200 << 8)
  /// Ours: the manifest must be migrated (or made) before it can be read, and it is opened for reading only. A
  /// kind of `SQLITE_READONLY`.
  static let needsMigration: Int32 = SQLITE_READONLY | (200 << 8)
}
