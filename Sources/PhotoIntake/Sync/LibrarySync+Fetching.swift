import Foundation

extension LibrarySync {
  /// A fetched asset to download: its record's fields and where the engine put its bytes.
  struct Download: Sendable {
    var fields: AssetRecordFields
    var path: String?
  }

  /// Applies fetched changes. Metadata first, in one transaction: each asset record's presence is merged
  /// into the ledger (`AssetPresence`), batches are merged and listed, and every asset to download is noted
  /// as downloading (with its record, so that a download that fails or is interrupted is tried again even after
  /// the engine's change token moved past it). Then photos whose merged presence says removed are removed here
  /// (their row first, then their bytes), then the downloads go through the import path, one by one.
  func applyFetched(_ changes: SyncEvent.FetchedRecordZoneChanges) async {
    guard let account = status.account else { return }
    let modifications = changes.modifications
    let deletions = changes.deletions
    guard
      let (downloads, changed) = try? await write({
        ledger throws(DatabaseError) -> ([Download], [AssetID]) in
        var downloads: [Download] = []
        var changed: [AssetID] = []
        let census = try ledger.census(account)
        for record in modifications {
          if let fields = AssetRecordFields(record) {
            if let download = try Self.applyAssetRecord(
              fields, record, census: census, account, ledger, &changed)
            {
              downloads.append(download)
            }
          } else if let id = SyncRecord.batchID(fromName: record.id.name),
            record.type == SyncRecord.RecordType.batch
          {
            try Self.applyBatchRecord(id, record, account, ledger, &changed)
          }
        }
        if !modifications.isEmpty { try ledger.setZoneState(account, .created) }
        for deletion in deletions { try Self.recordVanished(deletion.id.name, account, ledger) }
        return (downloads, changed)
      })
    else { return }
    await library.publishSync(LibraryChange(updated: changed))
    await removeWhatTheLedgerRemoved()
    for download in downloads { await self.download(download, account: account) }
  }

  /// An asset record: its presence merged with the ledger's (see ``settle(_:with:isHere:)``), its home and
  /// the server's system fields taken, its listings updated.
  private static func applyAssetRecord(
    _ fields: AssetRecordFields, _ record: SyncRecord, census: Int64, _ account: String, _ ledger: SyncLedger,
    _ changed: inout [AssetID]
  ) throws(DatabaseError) -> Download? {
    var entry =
      try ledger.asset(account, fields.sha256)
      ?? SyncLedger.AssetEntry(
        sha256: fields.sha256, state: .synced, systemFields: nil, homeBatch: nil, homeKey: nil, record: nil,
        census: census)
    if entry.state == .stopped { return nil }
    entry.census = census
    let asset = try ledger.libraryAsset(sha256: fields.sha256)
    let action = settle(&entry, with: fields, isHere: asset != nil)
    try ledger.observe(entry.presence.latestStamp)
    try ledger.writeAsset(account, entry)
    if let asset, entry.presence.isPresent {
      if let name = fields.name, name != asset.name {
        try ledger.setLibraryName(assetID: asset.id.rawValue, name)
        changed.append(asset.id)
      }
      var batches = Set(try ledger.liveBatches(account, ofAsset: fields.sha256))
      if let home = entry.homeBatch { batches.insert(home) }
      for batch in batches.sorted() where try ledger.project(batch: batch, account: account) {
        changed.append(asset.id)
      }
    }
    return action == .download
      ? Download(fields: fields, path: record.fields[SyncRecord.FieldKey.bytes]?.assetPath) : nil
  }

  /// What settling a record asks for next.
  enum SettleAction: Sendable { case none, download }

  /// Merges the server's version of an asset record into its ledger entry, and decides the entry's state:
  ///
  /// - present (the last import is later than the last removal): synced when the server has exactly this,
  ///   with bytes; to upload when this device knows more (a later stamp, or bytes the server lacks); to download
  ///   when the bytes are not here;
  /// - removed: removed when the server has the tombstone, else the tombstone is to save. A photo still here is
  ///   then removed by ``removeWhatTheLedgerRemoved()``.
  static func settle(_ entry: inout SyncLedger.AssetEntry, with server: AssetRecordFields, isHere: Bool)
    -> SettleAction
  {
    let merged = entry.presence.merged(with: server.presence)
    entry.presence = merged
    entry.systemFields = server.systemFields
    if let home = server.homeBatch {
      entry.homeBatch = home
      entry.homeKey = server.homeKey.map(PositionKey.init(rawValue:)) ?? entry.homeKey
    }
    if merged.isPresent {
      if isHere {
        if entry.state != .tooLarge {
          entry.state = merged == server.presence && server.hasBytes ? .synced : .uploading
        }
        entry.record = nil
        return .none
      }
      entry.state = .downloading
      entry.record = server.json
      return server.hasBytes ? .download : .none
    }
    entry.state = merged == server.presence ? .removed : .deleting
    entry.record = nil
    return .none
  }

  /// A record that is gone from the server outright (deleted by something other than PhotoIntake, which
  /// only ever saves tombstones): a photo still here is saved again; a batch too.
  static func recordVanished(_ name: String, _ account: String, _ ledger: SyncLedger) throws(DatabaseError) {
    if let sha = SyncRecord.sha256(fromName: name), var entry = try ledger.asset(account, sha) {
      if try ledger.libraryAsset(sha256: sha) != nil && entry.presence.isPresent {
        entry.systemFields = nil
        entry.state = .uploading
        try ledger.writeAsset(account, entry)
      } else {
        try ledger.deleteAsset(account, sha)
      }
    } else if let id = SyncRecord.batchID(fromName: name), var entry = try ledger.batch(account, id) {
      entry.systemFields = nil
      entry.state = .uploading
      try ledger.writeBatch(account, entry)
    }
  }

  /// Removes here every photo the ledger of the account synced with holds as removed (and no other account
  /// holds as present): its row first, then its bytes. The ledger said so first, in its own transaction, so a
  /// crash in between is finished here on the next pass.
  func removeWhatTheLedgerRemoved() async {
    guard let account = status.account,
      let doomed = try? await library.syncRead({ ledger throws(DatabaseError) -> [String] in
        var ids: [String] = []
        for entry in try ledger.assets(account, in: [.removed, .deleting]) {
          guard let id = try ledger.libraryAssetID(sha256: entry.sha256) else { continue }
          var heldElsewhere = false
          for other in try ledger.owners(ofAsset: entry.sha256) where other != account {
            if let held = try ledger.asset(other, entry.sha256), held.presence.isPresent,
              held.state == .synced || held.state == .uploading || held.state == .conflicted
            {
              heldElsewhere = true
            }
          }
          if !heldElsewhere { ids.append(id) }
        }
        return ids
      })
    else { return }
    for id in doomed {
      try? await library.remove(AssetID(rawValue: id), tombstone: false)
    }
  }

  /// A batch record: its membership merged into the ledger's, the library's listing of it re-ordered.
  private static func applyBatchRecord(
    _ id: String, _ record: SyncRecord, _ account: String, _ ledger: SyncLedger, _ changed: inout [AssetID]
  ) throws(DatabaseError) {
    let remote = BatchMembership(encoded: record.fields[SyncRecord.FieldKey.members]?.stringValue ?? "")
    let createdAt = record.fields[SyncRecord.FieldKey.createdAt]?.dateValue?.timeIntervalSince1970 ?? 0
    let merged = try ledger.membership(account, batch: id).merged(with: remote)
    try ledger.writeMembership(account, batch: id, merged)
    try ledger.observe(merged.latestStamp)
    var entry =
      try ledger.batch(account, id)
      ?? SyncLedger.BatchEntry(id: id, state: .synced, systemFields: nil, revision: 0, createdAt: createdAt)
    entry.systemFields = record.systemFields
    // What this device holds beyond the server's version (edits not yet sent) is sent on this version.
    entry.state = merged == remote ? .synced : .uploading
    try ledger.writeBatch(account, entry)
    _ = try ledger.ensureLibraryBatch(id, createdAt: createdAt)
    var before: [SyncLedger.Listing] = []
    if let batch = try ledger.libraryBatch(id) { before = try ledger.listings(batchSequence: batch.sequence) }
    if try ledger.project(batch: id, account: account) {
      changed += before.map { AssetID(rawValue: $0.assetID) }
    }
  }

  /// Downloads one asset through the import path; a failure leaves it noted as downloading, to try again.
  func download(_ download: Download, account: String) async {
    guard let path = download.path else { return }
    let outcome = await library.importDownload(path: path, fields: download.fields, account: account)
    switch outcome {
    case .imported: break
    case .refused: status.refusedDownloads += 1
    case .failed: break
    }
  }

  /// Tries again the downloads the ledger holds as waiting (fetched records whose bytes did not make it).
  func retryDownloads(_ engine: any SyncEngine) async {
    guard let account = status.account,
      let waiting = try? await library.syncRead({ ledger throws(DatabaseError) in
        try ledger.assets(account, in: [.downloading])
      }), !waiting.isEmpty
    else { return }
    let zone = configuration.zone
    let ids = waiting.map { SyncRecordID(name: $0.sha256, zone: zone) }
    let results: [SyncRecordID: Result<SyncRecord, SyncError>]
    do {
      results = try await engine.fetchRecords(ids)
    } catch {
      await note(Self.syncError(error))
      return
    }
    var fetched = SyncEvent.FetchedRecordZoneChanges()
    for id in ids {
      switch results[id] {
      case .success(let record)?:
        fetched.modifications.append(record)
      case .failure(let error)? where error.code == .unknownItem:
        // Gone from the server since: nothing to download.
        _ = try? await write { ledger throws(DatabaseError) in
          try Self.recordVanished(id.name, account, ledger)
        }
      case .failure(let error)?:
        await note(error)
      case nil:
        break
      }
    }
    if !fetched.modifications.isEmpty { await applyFetched(fetched) }
  }
}
