import Foundation
import PhotoMetadata

#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif

/// A batch as the manifest knows it: its public id, its place in import order and when it began.
struct BatchRecord: Sendable, Equatable {
  var id: BatchID
  var sequence: Int64
  /// Seconds since 1970.
  var createdAt: Double = 0
}

/// One item's row, as a commit group writes it once the item's bytes are in place.
struct RowRequest: Sendable {
  /// What the row records about the bytes.
  var digest: SHA256Digest
  var size: Int64
  var type: MediaType
  var name: String?
  var metadata: MediaMetadata?
  var locationStripped: Bool
  /// Where the item is listed.
  var batch: BatchRecord
  var position: Int
  /// The asset that held these bytes when the group began, if any: the item is then listed as it.
  var existing: Asset?
  /// Whether the item's bytes were placed: new bytes, or a new copy replacing `existing`'s damaged object
  /// (whose damage mark then goes).
  var placed: Bool
  /// The committed intent of the placement, deleted with the row.
  var intent: Intent?
  /// The id a new asset gets, when it must be a given one (a download keeps the id its record carries).
  var assetID: AssetID? = nil
  /// When a new asset counts as imported (nil: now; a download keeps its first import's time).
  var importedAt: Date? = nil
  /// What the sync ledger records with the row, in its transaction (nil: an import made here).
  var sync: SyncCommitNote? = nil
}

/// What an item's row did.
enum RowOutcome: Sendable {
  /// A new asset.
  case inserted(Asset)
  /// An asset that already held the bytes, now listed in the batch too; `repaired` when the item's bytes
  /// replaced its damaged object.
  case listed(Asset, repaired: Bool)
}

extension Manifest {
  /// Records a new batch (one import session, or the assets one repair adopted).
  func beginBatch(_ id: BatchID = .make()) throws(DatabaseError) -> BatchRecord {
    let now = Date().timeIntervalSince1970
    return try database.transaction { () throws(DatabaseError) in
      try database.prepare("INSERT INTO batches(id, created_at) VALUES (?1, ?2)")
        .bind(.text(id.rawValue), .double(now)).run()
      return BatchRecord(id: id, sequence: sqlite3_last_insert_rowid(database.handle), createdAt: now)
    }
  }

  /// The assets holding each of `digests`, read on the writer's connection (its latest state).
  func assets(withSHA256 digests: [SHA256Digest]) throws(DatabaseError) -> [Asset?] {
    var found: [Asset?] = []
    for digest in digests { found.append(try database.asset(withSHA256: digest)) }
    return found
  }

  /// The asset with `id`, on the writer's connection.
  func asset(_ id: AssetID) throws(DatabaseError) -> Asset? { try database.asset(id) }

  /// Every asset, on the writer's connection.
  func all(order: Library.ListOrder) throws(DatabaseError) -> [Asset] { try database.all(order: order) }

  /// Whether any asset has a row.
  func hasAssets() throws(DatabaseError) -> Bool {
    try database.prepare("SELECT 1 FROM assets LIMIT 1").step()
  }

  /// Every row's object name and asset id.
  func referencedObjects() throws(DatabaseError) -> [String: AssetID] { try database.referencedObjects() }

  /// Hex names of the objects recorded intents are about.
  func pendingObjects() throws(DatabaseError) -> Set<String> { try database.pendingObjects() }

  /// Commits the rows (or listings) of a group's items and deletes their intents, in one transaction (one per
  /// item if that fails, so that one bad item never fails the others), each transaction recording its items'
  /// identities (``recordIdentity(_:)``). Returns each item's outcome or failure, and the journal frames of the
  /// committed transactions: the items may be acknowledged once those are in the journal.
  func commitRows(_ rows: [RowRequest]) -> (
    outcomes: [Result<RowOutcome, DatabaseError>], frames: [JournalFrame]
  ) {
    let (results, frames) = journaledTransactionOrEach(Array(rows.indices)) { index throws(DatabaseError) in
      try writeRow(rows[index])
    }
    let outcomes = results.map { result -> Result<RowOutcome, DatabaseError> in
      switch result {
      case .success(.done(let outcome)): return .success(outcome)
      case .success(.listedEarlier(let id)):
        // Another writer committed the same bytes meanwhile: the item is listed as that asset, read back.
        guard let other = try? database.asset(id) else {
          return .failure(DatabaseError(code: SQLITE_ERROR, message: "the asset committed meanwhile is gone"))
        }
        return .success(.listed(other, repaired: false))
      case .failure(let error): return .failure(error)
      }
    }
    return (outcomes, frames)
  }

  /// What writing one row did, before the group's transaction ends.
  private enum Written {
    case done(RowOutcome)
    /// Listed as the asset with this id, which another writer committed since the group looked.
    case listedEarlier(AssetID)
  }

  /// Writes one item's row or listing and deletes its intent, inside the caller's transaction; returns what it did
  /// and the identity records that say so (the row's, then any listings sync re-ordered with it).
  private func writeRow(_ request: RowRequest) throws(DatabaseError) -> (Written, [IdentityRecord]) {
    var row = request
    let ledger = SyncLedger(database: database)
    // Sync may have re-ordered this batch meanwhile (another device's edit arrived): the item's place is then
    // after the others rather than on top of one.
    row.position = try ledger.freePosition(batchSequence: row.batch.sequence, preferred: row.position)
    // Each branch notes the item in the sync ledger inside this transaction: an import to upload, a download
    // synced.
    if let existing = row.existing {
      // Listed in this batch too; its damage mark goes when its object is intact again (a new copy placed).
      try insertListing(batch: row.batch, position: row.position, asset: existing.id)
      try ledger.noteCommitted(
        sha256: row.digest.hex, batch: row.batch, position: row.position, note: row.sync)
      if row.placed || existing.damage != nil {
        try database.prepare("DELETE FROM damage WHERE asset_id = ?1").bind(.text(existing.id.rawValue)).run()
      }
      if let intent = row.intent { try deleteIntent(intent) }
      var listed = existing
      if row.placed { listed.damage = nil }
      return (
        .done(.listed(listed, repaired: row.placed)),
        [.listing(existing.id, digest: existing.sha256, batch: row.batch, position: row.position)]
          + (try ledger.rowChangeRecords())
      )
    }
    // Another writer may have committed the same bytes since the group looked.
    if let other = try database.assetID(withSHA256: row.digest) {
      try insertListing(batch: row.batch, position: row.position, asset: other)
      try ledger.noteCommitted(
        sha256: row.digest.hex, batch: row.batch, position: row.position, note: row.sync)
      if let intent = row.intent { try deleteIntent(intent) }
      return (
        .listedEarlier(other),
        [.listing(other, digest: row.digest, batch: row.batch, position: row.position)]
          + (try ledger.rowChangeRecords())
      )
    }
    let asset = Asset(
      id: row.assetID ?? .make(), sha256: row.digest, size: row.size, type: row.type, name: row.name,
      importedAt: row.importedAt ?? Date(), batch: row.batch.id, position: row.position, damage: nil,
      metadata: row.metadata, locationStripped: row.locationStripped)
    try insertRow(asset, batch: row.batch)
    try ledger.noteCommitted(sha256: row.digest.hex, batch: row.batch, position: row.position, note: row.sync)
    if let intent = row.intent { try deleteIntent(intent) }
    return (.done(.inserted(asset)), [.asset(asset, batch: row.batch)] + (try ledger.rowChangeRecords()))
  }

  /// Inserts an asset's row and its listing in `batch`, inside the caller's transaction.
  func insertRow(_ asset: Asset, batch: BatchRecord) throws(DatabaseError) {
    let sortDate =
      asset.metadata?.captureDate.flatMap(\.sortTimestamp) ?? asset.importedAt.timeIntervalSince1970
    let metadataJSON = asset.metadata.flatMap { try? JSONEncoder().encode($0) }.map {
      String(decoding: $0, as: UTF8.self)
    }
    try database.prepare(
      """
      INSERT INTO assets(id, sha256, size, type, name, imported_at, sort_date, batch_seq, position,
        metadata, live_photo_id, location_stripped)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
      """
    ).bind(
      .text(asset.id.rawValue), .text(asset.sha256.hex), .int(asset.size), .text(asset.type.rawValue),
      .optional(asset.name), .double(asset.importedAt.timeIntervalSince1970), .double(sortDate),
      .int(batch.sequence), .int(Int64(asset.position)), .optional(metadataJSON),
      .optional(asset.metadata?.livePhotoID), .int(asset.locationStripped ? 1 : 0)
    ).run()
    try insertListing(batch: batch, position: asset.position, asset: asset.id)
  }

  /// Gives objects that had no row one each (repair adopting them), in one transaction that records their
  /// identities. Returns the frame to append.
  func adopt(_ assets: [Asset], batch: BatchRecord) throws(DatabaseError) -> JournalFrame {
    return try database.transaction { () throws(DatabaseError) in
      var records: [IdentityRecord] = []
      for asset in assets {
        try insertRow(asset, batch: batch)
        records.append(.asset(asset, batch: batch))
      }
      return try recordIdentity(records)
    }
  }

  /// Lists the asset `asset` in `batch` at `position`.
  func insertListing(batch: BatchRecord, position: Int, asset: AssetID) throws(DatabaseError) {
    try database.prepare("INSERT INTO batch_items(batch_seq, position, asset_id) VALUES (?1, ?2, ?3)")
      .bind(.int(batch.sequence), .int(Int64(position)), .text(asset.rawValue)).run()
  }

  /// Deletes an asset's row and listings, records the removal's identity record and, when its object is a file
  /// (`object`: its device and inode), an intent to remove that inode, in one transaction: a crash after it leaves
  /// the intent, which the next writer finishes.
  ///
  /// With `tombstone`, the sync ledger records the removal in the same transaction, for every account that
  /// holds the asset (a removal stamp and its tombstone to upload); without, as for a removal that came from
  /// another device, it records nothing (the ledger said so first).
  ///
  /// - Returns: the intent, for the caller to carry out with ``undo(_:removing:)`` once the frame is in the
  ///   journal.
  func remove(
    _ id: AssetID, digest: SHA256Digest, object: (device: UInt64, inode: UInt64)?, token: String,
    tombstone: Bool = true
  ) throws(DatabaseError) -> (intent: Intent?, frame: JournalFrame) {
    return try database.transaction { () throws(DatabaseError) -> (Intent?, JournalFrame) in
      try database.prepare("DELETE FROM batch_items WHERE asset_id = ?1").bind(.text(id.rawValue)).run()
      try database.prepare("DELETE FROM assets WHERE id = ?1").bind(.text(id.rawValue)).run()
      if tombstone { try SyncLedger(database: database).noteRemoval(sha256: digest.hex) }
      let frame = try recordIdentity([.remove(id, digest: digest)])
      guard let object else { return (nil, frame) }
      return (
        try insertIntent(.remove, digest: digest, device: object.device, inode: object.inode, token: token),
        frame
      )
    }
  }

  /// What re-ordering a batch did.
  enum Reordering: Sendable {
    case reordered
    /// The batch is already in that order: nothing was written.
    case unchanged
    case batchNotFound
    /// `order` is not the batch's assets, each once.
    case notAReordering
  }

  /// Lists a batch's assets in `order` (positions 0, 1, …) and, in the same transaction, gives the assets that
  /// moved new keys in the sync ledger (see `SyncLedger.noteReorder`) and records the new order's identity
  /// record; the caller appends it to the journal (the outbox holds it until then).
  func reorder(_ batch: BatchID, to order: [AssetID]) throws(DatabaseError) -> Reordering {
    try database.transaction { () throws(DatabaseError) -> Reordering in
      let ledger = SyncLedger(database: database)
      guard let found = try ledger.libraryBatch(batch.rawValue) else { return .batchNotFound }
      let ids = order.map(\.rawValue)
      let current = try ledger.listings(batchSequence: found.sequence)
      guard current.count == ids.count, Set(current.map(\.assetID)) == Set(ids) else {
        return .notAReordering
      }
      if current.map(\.assetID) == ids { return .unchanged }
      var shas: [String: String] = [:]
      for listing in current where shas[listing.assetID] == nil { shas[listing.assetID] = listing.sha256 }
      try ledger.rewriteListings(batchSequence: found.sequence, ids)
      try ledger.noteReorder(batch: batch.rawValue, order: ids.map { shas[$0] ?? "" })
      _ = try recordIdentity(try ledger.rowChangeRecords())
      return .reordered
    }
  }

  /// Marks assets damaged (a kind) or intact again (nil), in one transaction.
  func setDamage(_ changes: [(id: AssetID, damage: Asset.Damage?)]) throws(DatabaseError) {
    guard !changes.isEmpty else { return }
    let now = Date().timeIntervalSince1970
    try database.transaction { () throws(DatabaseError) in
      // Only assets that still have a row are marked: a verification marks without the writer lock, and an
      // asset removed since it was read is no damage (nor a foreign-key failure to show the user).
      let mark = try database.prepare(
        "INSERT INTO damage(asset_id, kind, detected_at) SELECT ?1, ?2, ?3 "
          + "WHERE EXISTS (SELECT 1 FROM assets WHERE id = ?1) "
          + "ON CONFLICT(asset_id) DO UPDATE SET kind = excluded.kind")
      let clear = try database.prepare("DELETE FROM damage WHERE asset_id = ?1")
      for (id, damage) in changes {
        if let damage {
          try mark.bind(.text(id.rawValue), .text(damage.rawValue), .double(now)).run()
        } else {
          try clear.bind(.text(id.rawValue)).run()
        }
      }
    }
  }
}
