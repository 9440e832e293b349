import Foundation

extension LibrarySync {
  /// A fetched asset to download: its record's fields and where the engine put its bytes.
  struct Download: Sendable {
    var fields: AssetRecordFields
    var path: String?
  }

  /// Applies fetched changes. Metadata first, in one transaction: assets already here and batches are
  /// updated, and every asset to download is noted as downloading (with its record, so that a download that
  /// fails or is interrupted is tried again even after the engine's change token moved past it). Then the
  /// deletions, then the downloads, one by one, each through the import path.
  func applyFetched(_ changes: SyncEvent.FetchedRecordZoneChanges) async {
    guard let account = status.account else { return }
    let modifications = changes.modifications
    let deletions = changes.deletions
    guard
      let (downloads, changed) = try? await library.syncWrite({
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
        for deletion in deletions {
          guard let id = SyncRecord.batchID(fromName: deletion.id.name),
            var entry = try ledger.batch(account, id)
          else { continue }
          // Batch records are never deleted by PhotoIntake; one deleted elsewhere is saved again.
          entry.systemFields = nil
          entry.state = .uploading
          try ledger.writeBatch(account, entry)
        }
        return (downloads, changed)
      })
    else { return }
    await library.publishSync(LibraryChange(updated: changed))
    for deletion in deletions {
      guard let sha = SyncRecord.sha256(fromName: deletion.id.name) else { continue }
      await removeDeletedRemotely(sha, account: account)
    }
    for download in downloads { await self.download(download, account: account) }
  }

  /// An asset record: the ledger row of an asset here is updated (synced, the server's system fields and
  /// name); an asset not here is noted as downloading. A removal made here and not yet sent wins.
  private static func applyAssetRecord(
    _ fields: AssetRecordFields, _ record: SyncRecord, census: Int64, _ account: String, _ ledger: SyncLedger,
    _ changed: inout [AssetID]
  ) throws(DatabaseError) -> Download? {
    let existing = try ledger.asset(account, fields.sha256)
    if existing?.state == .deleting { return nil }
    var entry =
      existing
      ?? SyncLedger.AssetEntry(
        sha256: fields.sha256, state: .synced, systemFields: nil, homeBatch: nil, homeKey: nil, record: nil,
        census: census)
    entry.systemFields = fields.systemFields
    entry.homeBatch = fields.homeBatch
    entry.homeKey = fields.homeKey.map(PositionKey.init(rawValue:))
    entry.census = census
    if let asset = try ledger.libraryAsset(sha256: fields.sha256) {
      if entry.state != .uploading && entry.state != .conflicted { entry.state = .synced }
      entry.record = nil
      try ledger.writeAsset(account, entry)
      if let name = fields.name, name != asset.name {
        try ledger.setLibraryName(assetID: asset.id.rawValue, name)
        changed.append(asset.id)
      }
      var batches = Set(try ledger.liveBatches(account, ofAsset: fields.sha256))
      if let home = fields.homeBatch { batches.insert(home) }
      for batch in batches.sorted() where try ledger.project(batch: batch, account: account) {
        changed.append(asset.id)
      }
      return nil
    }
    entry.state = .downloading
    entry.record = fields.json
    try ledger.writeAsset(account, entry)
    return Download(fields: fields, path: record.fields[SyncRecord.FieldKey.bytes]?.assetPath)
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
    for id in ids {
      switch results[id] {
      case .success(let record)?:
        guard let fields = AssetRecordFields(record) else { continue }
        await download(
          Download(fields: fields, path: record.fields[SyncRecord.FieldKey.bytes]?.assetPath),
          account: account)
      case .failure(let error)? where error.code == .unknownItem:
        // Deleted since: nothing to download.
        _ = try? await library.syncWrite { ledger throws(DatabaseError) in
          try ledger.noteRemovedRemotely(account, sha256: id.name)
        }
      case .failure(let error)?:
        await note(error)
      case nil:
        break
      }
    }
  }

  /// An asset record deleted on the server. A save waiting here (imported again, not yet sent) wins: the
  /// record is made again. A removal waiting here is done. Otherwise the asset is removed here — its row
  /// first, then its bytes — unless another account's ledger still holds it.
  func removeDeletedRemotely(_ sha: String, account: String) async {
    guard
      let (state, assetID, heldElsewhere) = try? await library.syncRead({
        ledger throws(DatabaseError) -> (SyncLedger.State?, String?, Bool) in
        let others = try ledger.owners(ofAsset: sha).filter { $0 != account }
        var held = false
        for other in others {
          let state = try ledger.asset(other, sha)?.state
          if state == .synced || state == .uploading || state == .conflicted { held = true }
        }
        return (try ledger.asset(account, sha)?.state, try ledger.libraryAssetID(sha256: sha), held)
      })
    else { return }
    switch state {
    case .uploading?, .conflicted?:
      _ = try? await library.syncWrite { ledger throws(DatabaseError) in
        guard var entry = try ledger.asset(account, sha) else { return }
        entry.systemFields = nil
        try ledger.writeAsset(account, entry)
      }
    case .deleting?:
      _ = try? await library.syncWrite { ledger throws(DatabaseError) in try ledger.deleteAsset(account, sha)
      }
    default:
      if let assetID, !heldElsewhere {
        try? await library.remove(AssetID(rawValue: assetID)) { ledger, sha256 throws(DatabaseError) in
          try ledger.noteRemovedRemotely(account, sha256: sha256)
        }
      } else {
        _ = try? await library.syncWrite { ledger throws(DatabaseError) in
          try ledger.noteRemovedRemotely(account, sha256: sha)
        }
      }
    }
  }
}
