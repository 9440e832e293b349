import Foundation

/// What the ledger records with a downloaded asset's row, in the same transaction.
struct DownloadNote: Sendable, Hashable {
  var account: String
  var sha256: String
  var systemFields: Data?
  var homeBatch: String?
  var homeKey: String?
  var homeBatchCreatedAt: Double?
  var presence: AssetPresence
}

/// Ledger work that rides on a library commit (see `CommitRequest.sync`).
enum SyncCommitNote: Sendable, Hashable {
  /// The item is an asset downloaded from the account's zone.
  case download(DownloadNote)
}

extension SyncLedger {
  /// Called inside the transaction that writes an item's row or listing: records it for sync.
  func noteCommitted(sha256: String, batch: BatchRecord, position: Int, note: SyncCommitNote?)
    throws(DatabaseError)
  {
    switch note {
    case nil:
      let createdAt = try libraryBatch(batch.id.rawValue)?.createdAt ?? Date().timeIntervalSince1970
      try noteImport(sha256: sha256, batch: batch, position: position, createdAt: createdAt)
    case .download(let download):
      try noteDownloaded(download)
    }
  }

  /// A downloaded asset is here: synced, with the server's system fields; listed where its account's batches
  /// say (or in its home batch until they arrive).
  func noteDownloaded(_ note: DownloadNote) throws(DatabaseError) {
    var entry =
      try asset(note.account, note.sha256)
      ?? AssetEntry(
        sha256: note.sha256, state: .synced, systemFields: nil, homeBatch: nil, homeKey: nil, record: nil,
        census: 0)
    entry.systemFields = note.systemFields
    entry.homeBatch = note.homeBatch
    entry.homeKey = note.homeKey.map(PositionKey.init(rawValue:))
    entry.record = nil
    entry.census = try census(note.account)
    entry.presence = entry.presence.merged(with: note.presence)
    entry.state = entry.presence == note.presence ? .synced : .uploading
    try observe(note.presence.latestStamp)
    try writeAsset(note.account, entry)
    try setZoneState(note.account, .created)
    var batches = Set(try liveBatches(note.account, ofAsset: note.sha256))
    if let home = note.homeBatch { batches.insert(home) }
    for batch in batches.sorted() { try project(batch: batch, account: note.account) }
  }
}
