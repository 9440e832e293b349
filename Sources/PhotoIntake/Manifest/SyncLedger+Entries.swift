import Foundation

extension SyncLedger {
  /// An asset's row in the ledger.
  struct AssetEntry: Sendable, Hashable {
    var sha256: String
    var state: State
    var systemFields: Data?
    /// The batch the asset's record names as its home, and its key there.
    var homeBatch: String?
    var homeKey: PositionKey?
    /// For ``State/downloading``: the record's fields (``DownloadNote``'s JSON) to retry the download with.
    var record: String?
    var census: Int64
    /// The last import and removal this device knows of.
    var presence = AssetPresence()
  }

  /// A batch's row in the ledger.
  struct BatchEntry: Sendable, Hashable {
    var id: String
    var state: State
    var systemFields: Data?
    /// Counts local edits, so that a save acknowledged for an older revision does not mark a newer one synced.
    var revision: Int64
    var createdAt: Double
  }

  // MARK: Assets

  func asset(_ account: String, _ sha256: String) throws(DatabaseError) -> AssetEntry? {
    let select = try database.prepare(
      """
      SELECT sha256, state, system_fields, home_batch, home_key, record, census, added_stamp, added_device,
        removed_stamp, removed_device FROM sync_assets
      WHERE account = ?1 AND sha256 = ?2
      """
    ).bind(.text(account), .text(sha256))
    return try select.step() ? Self.assetEntry(select) : nil
  }

  /// The accounts whose ledgers hold the asset (its owners).
  func owners(ofAsset sha256: String) throws(DatabaseError) -> [String] {
    let select = try database.prepare("SELECT account FROM sync_assets WHERE sha256 = ?1").bind(.text(sha256))
    var accounts: [String] = []
    while try select.step() { accounts.append(select.text(0) ?? "") }
    return accounts
  }

  func assets(_ account: String, in states: [State]) throws(DatabaseError) -> [AssetEntry] {
    let list = states.map { "'\($0.rawValue)'" }.joined(separator: ",")
    let select = try database.prepare(
      """
      SELECT sha256, state, system_fields, home_batch, home_key, record, census, added_stamp, added_device,
        removed_stamp, removed_device FROM sync_assets
      WHERE account = ?1 AND state IN (\(list)) ORDER BY sha256
      """
    ).bind(.text(account))
    var entries: [AssetEntry] = []
    while try select.step() { entries.append(Self.assetEntry(select)) }
    return entries
  }

  func writeAsset(_ account: String, _ entry: AssetEntry) throws(DatabaseError) {
    try database.prepare(
      """
      INSERT INTO sync_assets(account, sha256, state, system_fields, home_batch, home_key, record, census,
        added_stamp, added_device, removed_stamp, removed_device)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
      ON CONFLICT(account, sha256) DO UPDATE SET state = excluded.state, system_fields = excluded.system_fields,
        home_batch = excluded.home_batch, home_key = excluded.home_key, record = excluded.record,
        census = excluded.census, added_stamp = excluded.added_stamp, added_device = excluded.added_device,
        removed_stamp = excluded.removed_stamp, removed_device = excluded.removed_device
      """
    ).bind(
      .text(account), .text(entry.sha256), .text(entry.state.rawValue),
      .optional(entry.systemFields?.base64EncodedString()), .optional(entry.homeBatch),
      .optional(entry.homeKey?.rawValue), .optional(entry.record), .int(entry.census),
      .int(entry.presence.added.stamp), .text(entry.presence.added.device),
      .int(entry.presence.removed.stamp),
      .text(entry.presence.removed.device)
    ).run()
  }

  func deleteAsset(_ account: String, _ sha256: String) throws(DatabaseError) {
    try database.prepare("DELETE FROM sync_assets WHERE account = ?1 AND sha256 = ?2")
      .bind(.text(account), .text(sha256)).run()
  }

  private static func assetEntry(_ row: Statement) -> AssetEntry {
    AssetEntry(
      sha256: row.text(0) ?? "", state: State(rawValue: row.text(1) ?? "") ?? .uploading,
      systemFields: row.text(2).flatMap { Data(base64Encoded: $0) }, homeBatch: row.text(3),
      homeKey: row.text(4).map(PositionKey.init(rawValue:)), record: row.text(5), census: row.int(6),
      presence: AssetPresence(
        added: .init(stamp: row.int(7), device: row.text(8) ?? ""),
        removed: .init(stamp: row.int(9), device: row.text(10) ?? "")))
  }

  // MARK: Batches

  func batch(_ account: String, _ id: String) throws(DatabaseError) -> BatchEntry? {
    let select = try database.prepare(
      "SELECT batch_id, state, system_fields, revision, created_at FROM sync_batches WHERE account = ?1 AND batch_id = ?2"
    ).bind(.text(account), .text(id))
    return try select.step() ? Self.batchEntry(select) : nil
  }

  /// The accounts whose ledgers hold the batch.
  func owners(ofBatch id: String) throws(DatabaseError) -> [String] {
    let select = try database.prepare("SELECT account FROM sync_batches WHERE batch_id = ?1").bind(.text(id))
    var accounts: [String] = []
    while try select.step() { accounts.append(select.text(0) ?? "") }
    return accounts
  }

  func batches(_ account: String, in states: [State]) throws(DatabaseError) -> [BatchEntry] {
    let list = states.map { "'\($0.rawValue)'" }.joined(separator: ",")
    let select = try database.prepare(
      """
      SELECT batch_id, state, system_fields, revision, created_at FROM sync_batches
      WHERE account = ?1 AND state IN (\(list)) ORDER BY batch_id
      """
    ).bind(.text(account))
    var entries: [BatchEntry] = []
    while try select.step() { entries.append(Self.batchEntry(select)) }
    return entries
  }

  func writeBatch(_ account: String, _ entry: BatchEntry) throws(DatabaseError) {
    try database.prepare(
      """
      INSERT INTO sync_batches(account, batch_id, state, system_fields, revision, created_at)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6)
      ON CONFLICT(account, batch_id) DO UPDATE SET state = excluded.state,
        system_fields = excluded.system_fields, revision = excluded.revision
      """
    ).bind(
      .text(account), .text(entry.id), .text(entry.state.rawValue),
      .optional(entry.systemFields?.base64EncodedString()), .int(entry.revision), .double(entry.createdAt)
    ).run()
  }

  /// Marks a batch as edited here: to be uploaded, one revision further.
  func markBatchEdited(_ account: String, _ id: String, createdAt: Double) throws(DatabaseError) {
    var entry =
      try batch(account, id)
      ?? BatchEntry(id: id, state: .uploading, systemFields: nil, revision: 0, createdAt: createdAt)
    if entry.state != .stopped { entry.state = .uploading }
    entry.revision += 1
    try writeBatch(account, entry)
  }

  private static func batchEntry(_ row: Statement) -> BatchEntry {
    BatchEntry(
      id: row.text(0) ?? "", state: State(rawValue: row.text(1) ?? "") ?? .uploading,
      systemFields: row.text(2).flatMap { Data(base64Encoded: $0) }, revision: row.int(3),
      createdAt: row.double(4))
  }

  // MARK: Membership

  func membership(_ account: String, batch id: String) throws(DatabaseError) -> BatchMembership {
    let select = try database.prepare(
      "SELECT sha256, key, stamp, device, removed FROM sync_members WHERE account = ?1 AND batch_id = ?2"
    ).bind(.text(account), .text(id))
    var entries: [String: BatchMembership.Entry] = [:]
    while try select.step() {
      entries[select.text(0) ?? ""] = BatchMembership.Entry(
        key: PositionKey(rawValue: select.text(1) ?? ""), removed: select.int(4) != 0, stamp: select.int(2),
        device: select.text(3) ?? "")
    }
    return BatchMembership(entries: entries)
  }

  func writeMember(_ account: String, batch id: String, _ sha256: String, _ entry: BatchMembership.Entry)
    throws(DatabaseError)
  {
    try database.prepare(
      """
      INSERT INTO sync_members(account, batch_id, sha256, key, stamp, device, removed)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
      ON CONFLICT(account, batch_id, sha256) DO UPDATE SET key = excluded.key, stamp = excluded.stamp,
        device = excluded.device, removed = excluded.removed
      """
    ).bind(
      .text(account), .text(id), .text(sha256), .text(entry.key.rawValue), .int(entry.stamp),
      .text(entry.device),
      .int(entry.removed ? 1 : 0)
    ).run()
  }

  /// Writes every entry of `membership` that differs from what the ledger holds.
  func writeMembership(_ account: String, batch id: String, _ membership: BatchMembership)
    throws(DatabaseError)
  {
    let stored = try self.membership(account, batch: id)
    for (member, entry) in membership.entries where stored.entries[member] != entry {
      try writeMember(account, batch: id, member, entry)
    }
  }

  /// The batches of an account in which the asset has a live entry.
  func liveBatches(_ account: String, ofAsset sha256: String) throws(DatabaseError) -> [String] {
    let select = try database.prepare(
      "SELECT batch_id FROM sync_members WHERE account = ?1 AND sha256 = ?2 AND removed = 0 ORDER BY batch_id"
    ).bind(.text(account), .text(sha256))
    var batches: [String] = []
    while try select.step() { batches.append(select.text(0) ?? "") }
    return batches
  }

  /// Every account's entries for the asset.
  func memberEntries(ofAsset sha256: String) throws(DatabaseError) -> [(
    account: String, batch: String, entry: BatchMembership.Entry
  )] {
    let select = try database.prepare(
      "SELECT account, batch_id, key, stamp, device, removed FROM sync_members WHERE sha256 = ?1"
    ).bind(.text(sha256))
    var result: [(account: String, batch: String, entry: BatchMembership.Entry)] = []
    while try select.step() {
      result.append(
        (
          select.text(0) ?? "", select.text(1) ?? "",
          BatchMembership.Entry(
            key: PositionKey(rawValue: select.text(2) ?? ""), removed: select.int(5) != 0,
            stamp: select.int(3), device: select.text(4) ?? "")
        ))
    }
    return result
  }
}
