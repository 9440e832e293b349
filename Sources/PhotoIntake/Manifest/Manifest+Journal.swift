import Foundation
import PhotoMetadata

#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif

// The manifest's side of the identity journal (see IdentityJournal.swift). Each transaction that changes identity
// takes the next sequence number, keeps its records in `journal_outbox` and sets `journal_state.applied`, all in
// the same transaction; once it is committed, the library appends the frame to the journal, and only then are its
// items acknowledged. The outbox forgets a frame in a later transaction, once the journal is known to hold it, so
// keeping it costs no commit of its own.

extension Database {
  /// `journal_state.applied`: the sequence of the newest transaction that recorded identity; nil for a manifest
  /// made before the journal (schema version 4 or older).
  func appliedJournalSequence() throws(DatabaseError) -> UInt64? {
    let exists = try prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal_state'")
    guard try exists.step() else { return nil }
    let select = try prepare("SELECT applied FROM journal_state WHERE id = 1")
    return try select.step() ? UInt64(max(0, select.int(0))) : 0
  }

  /// `journal_state.schema`: the schema version the manifest's tables were migrated to; nil before version 5.
  func recordedSchemaVersion() throws(DatabaseError) -> Int? {
    let exists = try prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal_state'")
    guard try exists.step() else { return nil }
    let select = try prepare("SELECT schema FROM journal_state WHERE id = 1")
    return try select.step() ? Int(select.int(0)) : nil
  }

  /// What `PRAGMA quick_check` (or, `thorough`, `integrity_check`) finds wrong with the file, then what breaks
  /// the relations every write keeps (``relationProblems()``), each as the sentence to tell; empty when it is
  /// sound. Reads every page: O(manifest size).
  func pageCheckProblems(thorough: Bool = false) throws(DatabaseError) -> [String] {
    let check = try prepare(thorough ? "PRAGMA integrity_check(5)" : "PRAGMA quick_check(5)")
    var messages: [String] = []
    while try check.step() { messages.append(check.text(0) ?? "") }
    if messages != ["ok"] {
      return messages.map { "SQLite's \(thorough ? "integrity" : "quick") check fails: \($0)" }
    }
    return try relationProblems()
  }

  /// Damage SQLite's own checks cannot see, because the pages still parse: a changed byte inside a value. Every
  /// write keeps these, so a broken one is damage: each reference names an existing row (`PRAGMA
  /// foreign_key_check`: a listing of an asset or batch that does not exist, an asset of a missing batch); each
  /// asset is listed in at least one batch; each asset's row holds values a write stores (a 64-character hash, a
  /// known type, a non-negative size and position) and each damage mark a known kind. That a hash is hex is
  /// checked where a row is read: a pattern match here would cost five quick checks. A flipped byte in a listing
  /// used to hide a photo from the batch order and the contact sheet, and one in a hash or type to be answered as
  /// the empty file's hash or as JPEG, while `list` answered with exit 0. Uses the foreign keys' own indexes and
  /// one scan of the assets: on 5,000 assets, 10 ms beside the quick check's 5.
  func relationProblems() throws(DatabaseError) -> [String] {
    let references = try prepare("PRAGMA foreign_key_check")
    if try references.step() {
      return [
        "a row of '\(references.text(0) ?? "?")' refers to a '\(references.text(2) ?? "?")' row that does not exist"
      ]
    }
    let unlisted = try prepare(
      "SELECT count(*) FROM assets a WHERE NOT EXISTS (SELECT 1 FROM batch_items i WHERE i.asset_id = a.id)")
    if try unlisted.step(), unlisted.int(0) > 0 {
      return ["\(unlisted.int(0)) asset(s) are listed in no batch"]
    }
    let types = MediaType.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    let odd = try prepare(
      """
      SELECT count(*) FROM assets WHERE typeof(sha256) != 'text' OR length(sha256) != 64
        OR type NOT IN (\(types)) OR id = '' OR size < 0 OR position < 0
      """)
    if try odd.step(), odd.int(0) > 0 {
      return ["\(odd.int(0)) asset row(s) hold a value no write stores"]
    }
    let kinds = [Asset.Damage.missing, .hashMismatch, .notAFile].map { "'\($0.rawValue)'" }
      .joined(separator: ", ")
    let marks = try prepare("SELECT count(*) FROM damage WHERE kind NOT IN (\(kinds))")
    if try marks.step(), marks.int(0) > 0 {
      return ["\(marks.int(0)) damage mark(s) hold a value no write stores"]
    }
    return []
  }

  /// The journal outbox's frames after `sequence`, oldest first (a damaged negative sequence reads as 0).
  func journalOutbox(after sequence: UInt64) throws(DatabaseError) -> [JournalFrame] {
    let select = try prepare(
      "SELECT sequence, payload FROM journal_outbox WHERE sequence > ?1 ORDER BY sequence")
    try select.bind(.int(Int64(clamping: sequence)))
    var frames: [JournalFrame] = []
    while try select.step() {
      frames.append(
        JournalFrame(sequence: UInt64(clamping: select.int(0)), payload: Array((select.text(1) ?? "").utf8)))
    }
    return frames
  }

  /// The records of a snapshot: every asset with the listing its row carries, then every other listing, in batch
  /// order.
  func snapshotRecords() throws(DatabaseError) -> [IdentityRecord] {
    var records = [IdentityRecord.snapshotMarker]
    let assets = try prepare(
      """
      SELECT a.id, a.sha256, a.name, a.size, a.type, a.imported_at, a.location_stripped, a.batch_seq, a.position,
        b.id, b.created_at
      FROM assets a JOIN batches b ON b.seq = a.batch_seq ORDER BY a.batch_seq, a.position
      """)
    while try assets.step() {
      records.append(
        IdentityRecord(
          op: .asset, id: AssetID(rawValue: assets.text(0) ?? ""), sha256: assets.text(1),
          name: assets.text(2),
          size: assets.int(3), type: assets.text(4), importedAt: assets.double(5),
          locationStripped: assets.int(6) != 0, batch: BatchID(rawValue: assets.text(9) ?? ""),
          batchSequence: assets.int(7), batchCreatedAt: assets.double(10), position: Int(assets.int(8))))
    }
    let listings = try prepare(
      """
      SELECT bi.asset_id, a.sha256, bi.batch_seq, bi.position, b.id, b.created_at
      FROM batch_items bi JOIN assets a ON a.id = bi.asset_id JOIN batches b ON b.seq = bi.batch_seq
      WHERE NOT (bi.batch_seq = a.batch_seq AND bi.position = a.position)
      ORDER BY bi.batch_seq, bi.position
      """)
    while try listings.step() {
      records.append(
        IdentityRecord(
          op: .listing, id: AssetID(rawValue: listings.text(0) ?? ""), sha256: listings.text(1),
          batch: BatchID(rawValue: listings.text(4) ?? ""), batchSequence: listings.int(2),
          batchCreatedAt: listings.double(5), position: Int(listings.int(3))))
    }
    return records
  }
}

extension Manifest {
  /// Inside the caller's transaction: gives `records` the next sequence, keeps them in the outbox (forgetting the
  /// frames the journal is known to hold) and records the sequence as applied. Returns the frame to append once
  /// the transaction is committed.
  func recordIdentity(_ records: [IdentityRecord]) throws(DatabaseError) -> JournalFrame {
    let sequence = (try database.appliedJournalSequence() ?? 0) + 1
    let payload = IdentityRecord.encode(records)
    try database.prepare("DELETE FROM journal_outbox WHERE sequence <= ?1")
      .bind(.int(Int64(journaledThrough))).run()
    try database.prepare("INSERT INTO journal_outbox(sequence, payload) VALUES (?1, ?2)")
      .bind(.int(Int64(sequence)), .text(String(decoding: payload, as: UTF8.self))).run()
    try database.prepare("UPDATE journal_state SET applied = ?1 WHERE id = 1").bind(.int(Int64(sequence)))
      .run()
    return JournalFrame(sequence: sequence, payload: payload)
  }

  /// Appends to `journal` every frame the outbox holds past the newest one known to be there, and makes them
  /// durable; returns the failure, if any.
  ///
  /// It runs on the manifest's serial executor, so frames reach the journal in sequence order whichever commit
  /// asks first (a later commit's flush carries an earlier one's frame along; the earlier flush then finds
  /// nothing to do). A failed append leaves its frames in the outbox for the next flush or the next writer.
  func flushJournal(to journal: IdentityJournal) -> CommitFailure? {
    let frames: [JournalFrame]
    do { frames = try outbox(after: journaledThrough) } catch { return .manifest(error) }
    guard let last = frames.last else { return nil }
    do { try journal.append(frames) } catch { return .storage(error) }
    journaledThrough = max(journaledThrough, last.sequence)
    return nil
  }

  /// Refuses the manifest, as damaged, when SQLite's quick check fails on the writer's connection: a writer
  /// never builds on a damaged manifest.
  func refuseIfDamaged() throws(Library.Error) {
    let problems: [String]
    do { problems = try database.pageCheckProblems() } catch { throw Library.Error(error) }
    if let first = problems.first { throw .manifestDamaged(reason: first) }
  }

  /// Refuses the manifest, as damaged, when SQLite's quick check (or, `thorough`, its integrity check) fails on
  /// the readers' connection. Blocks: call it on a lane.
  nonisolated func refuseIfDamagedForReading(thorough: Bool = false) throws(Library.Error) {
    let problems: [String]
    do {
      problems = try readNow { database throws(DatabaseError) in
        try database.pageCheckProblems(thorough: thorough)
      }
    } catch {
      throw Library.Error(error)
    }
    guard let first = problems.first else { return }
    throw .manifestDamaged(reason: first)
  }

  /// Notes that the journal durably holds every frame through `sequence`.
  func noteJournaled(_ sequence: UInt64) {
    journaledThrough = max(journaledThrough, sequence)
  }

  /// The sequence of the newest transaction that recorded identity; nil before the journal.
  func appliedJournalSequence() throws(DatabaseError) -> UInt64? {
    try database.appliedJournalSequence()
  }

  /// The outbox's frames after `sequence`, oldest first.
  func outbox(after sequence: UInt64) throws(DatabaseError) -> [JournalFrame] {
    try database.journalOutbox(after: sequence)
  }

  /// Records a snapshot of every asset and listing, in a transaction of its own; returns its frame. For a library
  /// whose journal is missing or cannot be completed from the outbox, and to compact the journal.
  func snapshot() throws(DatabaseError) -> JournalFrame {
    return try database.transaction { () throws(DatabaseError) in
      try recordIdentity(try database.snapshotRecords())
    }
  }
}
