import Foundation

#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif

/// The SQL with which sync reads and rewrites the library's own rows (batches, listings): kept in one place so
/// that it moves with the manifest's other queries.
extension SyncLedger {
  /// One listing of a batch: a position and the asset there.
  struct Listing: Sendable, Hashable {
    var position: Int
    var assetID: String
    var sha256: String
  }

  /// The library's batch with this id, if it has one.
  func libraryBatch(_ id: String) throws(DatabaseError) -> (sequence: Int64, createdAt: Double)? {
    let select = try database.prepare("SELECT seq, created_at FROM batches WHERE id = ?1").bind(.text(id))
    return try select.step() ? (select.int(0), select.double(1)) : nil
  }

  /// The library's batch with this id, made (with the creation time the batch record carries) if it has none:
  /// a download lists its asset in the batch its record names.
  func ensureLibraryBatch(_ id: String, createdAt: Double) throws(DatabaseError) -> BatchRecord {
    if let existing = try libraryBatch(id) {
      return BatchRecord(
        id: BatchID(rawValue: id), sequence: existing.sequence, createdAt: existing.createdAt)
    }
    try database.prepare("INSERT INTO batches(id, created_at) VALUES (?1, ?2)")
      .bind(.text(id), .double(createdAt)).run()
    return BatchRecord(
      id: BatchID(rawValue: id), sequence: sqlite3_last_insert_rowid(database.handle), createdAt: createdAt)
  }

  /// The id of the asset holding these bytes, if any.
  func libraryAssetID(sha256: String) throws(DatabaseError) -> String? {
    let select = try database.prepare("SELECT id FROM assets WHERE sha256 = ?1").bind(.text(sha256))
    return try select.step() ? select.text(0) : nil
  }

  /// Whether an asset with this id exists.
  func libraryAssetExists(id: String) throws(DatabaseError) -> Bool {
    try database.prepare("SELECT 1 FROM assets WHERE id = ?1").bind(.text(id)).step()
  }

  /// A batch's listings in order.
  func listings(batchSequence: Int64) throws(DatabaseError) -> [Listing] {
    let select = try database.prepare(
      """
      SELECT bi.position, bi.asset_id, a.sha256 FROM batch_items bi JOIN assets a ON a.id = bi.asset_id
      WHERE bi.batch_seq = ?1 ORDER BY bi.position
      """
    ).bind(.int(batchSequence))
    var result: [Listing] = []
    while try select.step() {
      result.append(
        Listing(position: Int(select.int(0)), assetID: select.text(1) ?? "", sha256: select.text(2) ?? ""))
    }
    return result
  }

  /// How many batches list the asset.
  func listingCount(assetID: String) throws(DatabaseError) -> Int {
    let select = try database.prepare("SELECT count(*) FROM batch_items WHERE asset_id = ?1").bind(
      .text(assetID))
    return try select.step() ? Int(select.int(0)) : 0
  }

  /// The ids of the batches listing the asset.
  func listedBatchIDs(sha256: String) throws(DatabaseError) -> [String] {
    let select = try database.prepare(
      """
      SELECT DISTINCT b.id FROM batch_items bi JOIN assets a ON a.id = bi.asset_id
      JOIN batches b ON b.seq = bi.batch_seq WHERE a.sha256 = ?1 ORDER BY b.id
      """
    ).bind(.text(sha256))
    var ids: [String] = []
    while try select.step() { ids.append(select.text(0) ?? "") }
    return ids
  }

  /// Replaces a batch's listings with `assetIDs` in that order (positions 0, 1, …), and keeps each asset's
  /// first listing (`assets.batch_seq`, `position`) pointing at a listing that exists.
  func rewriteListings(batchSequence: Int64, _ assetIDs: [String]) throws(DatabaseError) {
    rowChanges.reorderedBatches.removeAll { $0 == batchSequence }
    rowChanges.reorderedBatches.append(batchSequence)
    let before = try listings(batchSequence: batchSequence)
    try database.prepare("DELETE FROM batch_items WHERE batch_seq = ?1").bind(.int(batchSequence)).run()
    let insert = try database.prepare(
      "INSERT INTO batch_items(batch_seq, position, asset_id) VALUES (?1, ?2, ?3)")
    for (position, id) in assetIDs.enumerated() {
      try insert.bind(.int(batchSequence), .int(Int64(position)), .text(id)).run()
    }
    // Assets whose first listing is in this batch: moved with it, or (no longer listed here) pointed at their
    // first remaining listing.
    let touched = Set(before.map(\.assetID)).union(assetIDs)
    let primary = try database.prepare("SELECT batch_seq FROM assets WHERE id = ?1")
    let first = try database.prepare(
      "SELECT batch_seq, position FROM batch_items WHERE asset_id = ?1 ORDER BY batch_seq, position LIMIT 1")
    let update = try database.prepare("UPDATE assets SET batch_seq = ?2, position = ?3 WHERE id = ?1")
    for id in touched.sorted() {
      guard try primary.bind(.text(id)).step(), primary.int(0) == batchSequence else { continue }
      guard try first.bind(.text(id)).step() else { continue }
      try update.bind(.text(id), .int(first.int(0)), .int(first.int(1))).run()
    }
  }

  /// The next free position in a batch (where a download is listed until the batch is re-ordered).
  func nextPosition(batchSequence: Int64) throws(DatabaseError) -> Int {
    let select = try database.prepare(
      "SELECT coalesce(max(position), -1) + 1 FROM batch_items WHERE batch_seq = ?1"
    )
    .bind(.int(batchSequence))
    return try select.step() ? Int(select.int(0)) : 0
  }

  /// Sets an asset's display name.
  func setLibraryName(assetID: String, _ name: String?) throws(DatabaseError) {
    rowChanges.renamed.insert(assetID)
    try database.prepare("UPDATE assets SET name = ?2 WHERE id = ?1").bind(.text(assetID), .optional(name))
      .run()
  }

  /// Batches (id, creation time) that no account's ledger holds, in import order.
  func unownedLibraryBatches() throws(DatabaseError) -> [(id: String, sequence: Int64, createdAt: Double)] {
    let select = try database.prepare(
      """
      SELECT b.id, b.seq, b.created_at FROM batches b
      WHERE NOT EXISTS (SELECT 1 FROM sync_batches s WHERE s.batch_id = b.id) ORDER BY b.seq
      """)
    var result: [(id: String, sequence: Int64, createdAt: Double)] = []
    while try select.step() { result.append((select.text(0) ?? "", select.int(1), select.double(2))) }
    return result
  }

  /// Assets (SHA-256, first batch id, position there) that no account's ledger holds.
  func unownedLibraryAssets() throws(DatabaseError) -> [(sha256: String, batch: String, position: Int)] {
    let select = try database.prepare(
      """
      SELECT a.sha256, b.id, a.position FROM assets a JOIN batches b ON b.seq = a.batch_seq
      WHERE NOT EXISTS (SELECT 1 FROM sync_assets s WHERE s.sha256 = a.sha256) ORDER BY a.sha256
      """)
    var result: [(sha256: String, batch: String, position: Int)] = []
    while try select.step() {
      result.append((select.text(0) ?? "", select.text(1) ?? "", Int(select.int(2))))
    }
    return result
  }
}

extension SyncLedger {
  /// The asset holding these bytes, as ``Library/asset(withSHA256:)`` reads it.
  func libraryAsset(sha256: String) throws(DatabaseError) -> Asset? {
    guard let digest = SHA256Digest(hex: sha256) else { return nil }
    return try database.asset(withSHA256: digest)
  }
}

extension SyncLedger {
  /// `preferred` if no listing of the batch holds it, else the next free position: an import's item keeps
  /// its index unless sync re-ordered the batch while the import ran.
  func freePosition(batchSequence: Int64, preferred: Int) throws(DatabaseError) -> Int {
    let taken = try database.prepare("SELECT 1 FROM batch_items WHERE batch_seq = ?1 AND position = ?2")
      .bind(.int(batchSequence), .int(Int64(preferred)))
    return try taken.step() ? try nextPosition(batchSequence: batchSequence) : preferred
  }
}

/// The library rows a ``SyncLedger`` rewrote inside one transaction: identity the journal must hear of (see
/// IdentityJournal.swift). Used only inside that transaction, on the manifest's executor.
final class LibraryRowChanges {
  /// Batches (by sequence) whose listings were rewritten, in the order of their last rewrite: a rewrite moves the
  /// first listing of the assets it touches to where they are listed then, so the journal's `order` records must
  /// replay in that order to give the same rows.
  var reorderedBatches: [Int64] = []
  /// Assets (by id) whose names were set.
  var renamed: Set<String> = []
}

extension SyncLedger {
  /// The identity records of the rows rewritten so far in this transaction, as they stand now: each re-ordered
  /// batch's whole order, each renamed asset's name. Forgets them, so that a later call records only what
  /// changed after this one.
  func rowChangeRecords() throws(DatabaseError) -> [IdentityRecord] {
    var records: [IdentityRecord] = []
    let batch = try database.prepare("SELECT id, created_at FROM batches WHERE seq = ?1")
    for sequence in rowChanges.reorderedBatches {
      guard try batch.bind(.int(sequence)).step() else { continue }
      let record = BatchRecord(
        id: BatchID(rawValue: batch.text(0) ?? ""), sequence: sequence, createdAt: batch.double(1))
      records.append(
        .order(record, assets: try listings(batchSequence: sequence).map { AssetID(rawValue: $0.assetID) }))
    }
    let name = try database.prepare("SELECT name FROM assets WHERE id = ?1")
    for id in rowChanges.renamed.sorted() {
      guard try name.bind(.text(id)).step() else { continue }
      records.append(.rename(AssetID(rawValue: id), to: name.text(0)))
    }
    rowChanges.reorderedBatches = []
    rowChanges.renamed = []
    return records
  }
}
