import Foundation
#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif

/// What ``Library/recoverInterruptedWork()`` found and did.
///
/// Recovery only undoes what an unfinished write recorded that it was doing; anything else it meets is kept
/// and listed in ``kept``.
public struct RecoveryReport: Sendable, Hashable, Codable {
  /// Staging files of interrupted writes (named for a writer that recorded itself), deleted.
  public var removedStagingFiles = 0
  /// Objects an interrupted import had placed but never acknowledged (recorded with their inode, and
  /// referenced by no row), deleted.
  public var undoneObjects = 0
  /// Removals that were interrupted after the asset's row was gone, completed.
  public var completedRemovals = 0
  /// Paths (relative to the library) that a record pointed at but that were not what it recorded — another
  /// file, a link, a folder — kept where they are.
  public var kept: [String] = []

  /// An empty report: nothing was undone.
  public init() {}

  /// Whether recovery found anything to do.
  public var isEmpty: Bool { self == RecoveryReport() }
}

/// One recorded, unfinished operation on an object.
struct Intent {
  enum Kind: String {
    /// An import placing a new object (or replacing a damaged one).
    case place
    /// A removal whose row is already gone.
    case remove
  }

  var id: Int64
  var kind: Kind
  var digest: SHA256Digest
  var device: UInt64
  var inode: UInt64
}

extension Library {
  /// Undoes what interrupted writes (a crash, a power cut, a killed process) recorded and did not finish.
  ///
  /// Each write is begun this way too, so calling it is only needed to clean up without writing. Costs are
  /// proportional to what was interrupted, never to the library's size.
  ///
  /// - Throws: ``Error/busy`` when another process keeps writing for longer than the wait.
  @discardableResult
  public func recoverInterruptedWork() async throws(Error) -> RecoveryReport {
    try await beginWriting()
    let report = lastRecovery
    endWriting()
    return report
  }

  /// Undoes the recorded work of the writer `token`, or of every recorded writer (nil). The caller holds the
  /// writer lock, so none of them is still running in this library value or in another process.
  func recover(token: String?) throws(Error) -> RecoveryReport {
    var report = RecoveryReport()
    do {
      let tokens = try token.map { [$0] } ?? recordedWriters()
      for token in tokens {
        try sweepStaging(of: token, into: &report)
      }
      for intent in try intents(token: token) {
        try undo(intent, into: &report)
      }
      if !tokens.isEmpty {
        // The staging files' removal must be durable before the record that lets them be found goes.
        try staging.sync()
        let forget = try database.prepare("DELETE FROM writers WHERE token = ?1")
        try database.transaction { () throws(DatabaseError) in
          for token in tokens { try forget.bind(.text(token)).run() }
        }
      }
    } catch {
      throw Error(anyFailure: error)
    }
    return report
  }

  /// Records this writer, before it creates any staging file.
  func registerWriter() throws(Error) -> String {
    let token = String(UInt64.random(in: 0...UInt64.max), radix: 16)
    do {
      try database.transaction { () throws(DatabaseError) in
        try database.prepare("INSERT INTO writers(token, started_at, process) VALUES (?1, ?2, ?3)")
          .bind(.text(token), .double(Date().timeIntervalSince1970), .int(Int64(getpid()))).run()
      }
    } catch {
      throw Error(error)
    }
    return token
  }

  private func recordedWriters() throws(DatabaseError) -> [String] {
    let select = try database.prepare("SELECT token FROM writers")
    var tokens: [String] = []
    while try select.step() { tokens.append(select.text(0) ?? "") }
    return tokens
  }

  private func intents(token: String?) throws(DatabaseError) -> [Intent] {
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

  /// Deletes the regular staging files named for `token`; anything else there is kept and reported.
  private func sweepStaging(of token: String, into report: inout RecoveryReport) throws(SystemError) {
    let prefix = token + "-"
    for name in try staging.names() where name.hasPrefix(prefix) {
      guard let info = try staging.status(name) else { continue }
      if Platform.fileType(info.st_mode) == .regular {
        try staging.unlink(name)
        report.removedStagingFiles += 1
      } else {
        report.kept.append("staging/" + name)
      }
    }
  }

  /// Undoes one intent: deletes the object it names only if that is still the very inode it recorded and no
  /// row references those bytes. The check, the unlink and the forgetting of the intent happen inside one
  /// write transaction, so a writer adopting the same object (which re-checks inside its own) cannot slip
  /// in between, even if two writers ever ran at once.
  func undo(_ intent: Intent, into report: inout RecoveryReport) throws {
    try database.transaction { () throws(DatabaseError) in
      let referenced = try database.prepare("SELECT 1 FROM assets WHERE sha256 = ?1")
        .bind(.text(intent.digest.hex)).step()
      if !referenced {
        do throws(SystemError) {
          try undoPlacement(intent, into: &report)
        } catch {
          throw DatabaseError(code: SQLITE_IOERR, message: error.description)
        }
      }
      try deleteIntent(intent)
    }
  }

  private func undoPlacement(_ intent: Intent, into report: inout RecoveryReport) throws(SystemError) {
    let relative = "objects/\(intent.digest.hex.prefix(2))/\(intent.digest.hex)"
    let folder: Directory
    do {
      folder = try fanOutFolder(for: intent.digest)
    } catch {
      report.kept.append("objects/\(intent.digest.hex.prefix(2))")
      return
    }
    guard let info = try folder.status(intent.digest.hex) else { return }
    guard Platform.fileType(info.st_mode) == .regular, UInt64(info.st_ino) == intent.inode,
      UInt64(info.st_dev) == intent.device
    else {
      report.kept.append(relative)
      return
    }
    try folder.unlink(intent.digest.hex)
    try folder.sync()
    switch intent.kind {
    case .place: report.undoneObjects += 1
    case .remove: report.completedRemovals += 1
    }
  }
}
