import Foundation

extension LibrarySync {
  /// The next records to send (`CKSyncEngineDelegate.nextRecordZoneChangeBatch(_:syncEngine:)`): removals
  /// first, then assets, then batches, within ``Configuration/recordsPerBatch`` and
  /// ``Configuration/bytesPerBatch``. Changes the ledger no longer holds as pending (a photo removed meanwhile,
  /// a save already made) are dropped from the engine's list.
  public func nextRecordZoneChangeBatch(_ context: SyncSendContext, engine: any SyncEngine) async
    -> SyncRecordBatch?
  {
    guard engine === self.engine, let account = status.account, status.condition != .zoneDeleted else {
      return nil
    }
    if let notBefore, configuration.uptime() < notBefore { return nil }
    let pending = engine.pendingRecordZoneChanges.filter(context.contains).sorted { lhs, rhs in
      (Self.sendRank(lhs), lhs.recordID.name) < (Self.sendRank(rhs), rhs.recordID.name)
    }
    guard !pending.isEmpty else { return nil }
    let plan = Plan(
      account: account, zone: configuration.zone, paused: uploadsPaused, limit: recordsPerBatch,
      byteLimit: configuration.bytesPerBatch, maximumAssetSize: configuration.maximumAssetSize)
    let library = self.library
    guard
      let built = try? await library.syncRead({ ledger throws(DatabaseError) in
        try plan.build(pending, ledger: ledger, library: library)
      })
    else { return nil }
    if !built.stale.isEmpty { engine.remove(pendingRecordZoneChanges: built.stale) }
    if !built.tooLarge.isEmpty {
      let tooLarge = built.tooLarge
      _ = try? await write { ledger throws(DatabaseError) in
        for sha in tooLarge {
          guard var entry = try ledger.asset(account, sha) else { continue }
          entry.state = .tooLarge
          try ledger.writeAsset(account, entry)
        }
      }
    }
    for (id, revision) in built.revisions { sentRevisions[id] = revision }
    lastBatchSize = built.batch.recordsToSave.count + built.batch.recordIDsToDelete.count
    return built.batch.isEmpty ? nil : built.batch
  }

  private static func sendRank(_ change: SyncPendingRecordZoneChange) -> Int {
    switch change {
    case .deleteRecord: 0
    case .saveRecord(let id): SyncRecord.sha256(fromName: id.name) != nil ? 1 : 2
    }
  }

  /// How one batch is put together from the ledger.
  struct Plan: Sendable {
    var account: String
    var zone: SyncZoneID
    var paused: Bool
    var limit: Int
    var byteLimit: Int64
    var maximumAssetSize: Int64

    struct Built: Sendable {
      var batch = SyncRecordBatch()
      var stale: [SyncPendingRecordZoneChange] = []
      var tooLarge: [String] = []
      var revisions: [String: Int64] = [:]
    }

    func build(_ pending: [SyncPendingRecordZoneChange], ledger: SyncLedger, library: Library)
      throws(DatabaseError) -> Built
    {
      var built = Built()
      var bytes: Int64 = 0
      for change in pending {
        if built.batch.recordsToSave.count + built.batch.recordIDsToDelete.count >= limit { break }
        let name = change.recordID.name
        switch change {
        case .deleteRecord:
          // PhotoIntake removes by saving tombstones; a deletion from an older state is dropped.
          built.stale.append(change)
        case .saveRecord:
          if let sha = SyncRecord.sha256(fromName: name) {
            guard let entry = try ledger.asset(account, sha) else {
              built.stale.append(change)
              continue
            }
            if entry.state == .deleting {
              // A tombstone carries no bytes, and frees storage: it goes even while uploads wait for quota.
              built.batch.recordsToSave.append(
                .tombstone(
                  sha256: sha, presence: entry.presence, systemFields: entry.systemFields, zone: zone))
              continue
            }
            guard !paused, entry.state == .uploading || entry.state == .conflicted,
              let asset = try ledger.libraryAsset(sha256: sha)
            else {
              built.stale.append(change)
              continue
            }
            if asset.size > maximumAssetSize {
              built.tooLarge.append(sha)
              built.stale.append(change)
              continue
            }
            // At least one asset per send, however large; then only as many as fit the byte budget.
            if bytes > 0 && bytes + asset.size > byteLimit { continue }
            bytes += asset.size
            let home = entry.homeBatch.flatMap { batch in entry.homeKey.map { (batch, $0) } }
            built.batch.recordsToSave.append(
              .asset(
                asset, objectPath: library.objectPath(for: asset), home: home, presence: entry.presence,
                systemFields: entry.systemFields, zone: zone))
          } else if let id = SyncRecord.batchID(fromName: name) {
            guard let entry = try ledger.batch(account, id),
              entry.state == .uploading || entry.state == .conflicted
            else {
              built.stale.append(change)
              continue
            }
            built.revisions[id] = entry.revision
            built.batch.recordsToSave.append(
              .batch(
                id: id, createdAt: entry.createdAt, membership: try ledger.membership(account, batch: id),
                systemFields: entry.systemFields, zone: zone))
          } else {
            built.stale.append(change)
          }
        }
      }
      return built
    }
  }

  /// What a send did, record by record (`SentRecordZoneChanges`).
  func applySent(_ sent: SyncEvent.SentRecordZoneChanges) async {
    guard let account = status.account else { return }
    let revisions = sentRevisions
    let saved = sent.savedRecords
    _ = try? await write { ledger throws(DatabaseError) in
      for record in saved {
        if let sha = SyncRecord.sha256(fromName: record.id.name), var entry = try ledger.asset(account, sha) {
          entry.systemFields = record.systemFields
          // Only what was sent is now on the server: an import or removal made meanwhile is still to send.
          if entry.presence == record.presence {
            if entry.state == .uploading || entry.state == .conflicted { entry.state = .synced }
            if entry.state == .deleting { entry.state = .removed }
          }
          try ledger.writeAsset(account, entry)
        } else if let id = SyncRecord.batchID(fromName: record.id.name),
          var entry = try ledger.batch(account, id)
        {
          entry.systemFields = record.systemFields
          if (entry.state == .uploading || entry.state == .conflicted) && revisions[id] == entry.revision {
            entry.state = .synced
          }
          try ledger.writeBatch(account, entry)
          // The library lists the batch as its record does (a photo picked twice in one session is listed once).
          try ledger.project(batch: id, account: account)
        }
      }
      if !saved.isEmpty { try ledger.setZoneState(account, .created) }
    }
    for failure in sent.failedRecordSaves {
      await failedSave(failure.record, failure.error, account: account)
    }
    for (_, error) in sent.failedRecordDeletes where error.code != .unknownItem { await note(error) }
  }

  /// One record that could not be saved, and what its failure calls for.
  func failedSave(_ record: SyncRecord, _ error: SyncError, account: String) async {
    switch error.code {
    case .serverRecordChanged:
      await merge(record, with: error.serverRecord, account: account)
    case .unknownItem:
      // The record was deleted on the server since this device last saw it: saved again, as a new record.
      _ = try? await write { ledger throws(DatabaseError) in
        if let sha = SyncRecord.sha256(fromName: record.id.name), var entry = try ledger.asset(account, sha) {
          entry.systemFields = nil
          try ledger.writeAsset(account, entry)
        } else if let id = SyncRecord.batchID(fromName: record.id.name),
          var entry = try ledger.batch(account, id)
        {
          entry.systemFields = nil
          try ledger.writeBatch(account, entry)
        }
      }
      engine?.add(pendingRecordZoneChanges: [.saveRecord(record.id)])
    case .limitExceeded:
      if lastBatchSize > 1 {
        // The request was too large: fewer records per send, and this one again.
        recordsPerBatch = max(1, recordsPerBatch / 2)
        engine?.add(pendingRecordZoneChanges: [.saveRecord(record.id)])
      } else if let sha = SyncRecord.sha256(fromName: record.id.name) {
        // One asset alone is too large for a record: kept on this device only.
        _ = try? await write { ledger throws(DatabaseError) in
          guard var entry = try ledger.asset(account, sha) else { return }
          entry.state = .tooLarge
          try ledger.writeAsset(account, entry)
        }
        status.lastError = error
      } else {
        await note(error)
      }
    case .batchRequestFailed:
      // Another record of an atomic batch failed; this one is sent again.
      engine?.add(pendingRecordZoneChanges: [.saveRecord(record.id)])
    default:
      await note(error)
    }
  }

  /// `serverRecordChanged`: the server has a version this device has not seen. An asset's content cannot
  /// differ (its name is its hash): the server's version is taken. A batch's membership is merged entry by
  /// entry (`BatchMembership`) and saved again on the server's version when the merge adds anything.
  func merge(_ record: SyncRecord, with server: SyncRecord?, account: String) async {
    guard let server else {
      engine?.add(pendingRecordZoneChanges: [.saveRecord(record.id)])
      return
    }
    let saveAgain = try? await write { ledger throws(DatabaseError) -> Bool in
      if let sha = SyncRecord.sha256(fromName: record.id.name) {
        guard var entry = try ledger.asset(account, sha), let fields = AssetRecordFields(server) else {
          return false
        }
        let asset = try ledger.libraryAsset(sha256: sha)
        _ = Self.settle(&entry, with: fields, isHere: asset != nil)
        try ledger.observe(entry.presence.latestStamp)
        try ledger.writeAsset(account, entry)
        if let asset, entry.presence.isPresent {
          if let name = fields.name, asset.name != name {
            try ledger.setLibraryName(assetID: asset.id.rawValue, name)
          }
          var batches = Set(try ledger.liveBatches(account, ofAsset: sha))
          if let home = entry.homeBatch { batches.insert(home) }
          for batch in batches.sorted() { try ledger.project(batch: batch, account: account) }
        }
        return entry.state == .uploading || entry.state == .deleting
      }
      guard let id = SyncRecord.batchID(fromName: record.id.name) else { return false }
      let remote = BatchMembership(encoded: server.fields[SyncRecord.FieldKey.members]?.stringValue ?? "")
      let merged = try ledger.membership(account, batch: id).merged(with: remote)
      try ledger.writeMembership(account, batch: id, merged)
      try ledger.observe(merged.latestStamp)
      var entry =
        try ledger.batch(account, id)
        ?? SyncLedger.BatchEntry(id: id, state: .conflicted, systemFields: nil, revision: 1, createdAt: 0)
      entry.systemFields = server.systemFields
      entry.state = merged == remote ? .synced : .conflicted
      try ledger.writeBatch(account, entry)
      try ledger.project(batch: id, account: account)
      return entry.state == .conflicted
    }
    if saveAgain == true { engine?.add(pendingRecordZoneChanges: [.saveRecord(record.id)]) }
    await removeWhatTheLedgerRemoved()
  }
}
