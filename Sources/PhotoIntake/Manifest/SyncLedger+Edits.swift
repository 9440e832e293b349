import Foundation

/// What the ledger records when the library changes, inside the transaction of the change itself.
extension SyncLedger {
  /// Notes an imported item (a new asset, or bytes already here listed in a new batch) for the account the
  /// library syncs with, if any: its batch entry, and its record to save with a new import stamp (an import
  /// made after a removal on another device wins over it, see `AssetPresence`).
  func noteImport(sha256: String, batch: BatchRecord, position: Int, createdAt: Double) throws(DatabaseError)
  {
    guard let account = try currentAccount() else { return }
    let key = PositionKey.initial(position)
    let stamp = try tick()
    let device = try deviceID()
    try writeMember(
      account, batch: batch.id.rawValue, sha256, BatchMembership.Entry(key: key, stamp: stamp, device: device)
    )
    try markBatchEdited(account, batch.id.rawValue, createdAt: createdAt)
    var entry =
      try asset(account, sha256)
      ?? AssetEntry(
        sha256: sha256, state: .uploading, systemFields: nil, homeBatch: batch.id.rawValue, homeKey: key,
        record: nil, census: 0)
    let wasHere = entry.presence.isPresent && entry.state != .downloading
    entry.presence.added = AssetPresence.Mark(stamp: stamp, device: device)
    switch entry.state {
    case .tooLarge, .stopped: break
    case .synced, .uploading, .conflicted, .deleting, .removed, .downloading:
      entry.state = .uploading
      entry.record = nil
    }
    if !wasHere {
      // Imported anew (first here, or again after a removal): its home is this batch.
      entry.homeBatch = batch.id.rawValue
      entry.homeKey = key
    }
    try writeAsset(account, entry)
  }

  /// Notes a removal made here, for every account that holds the asset: a removal stamp, its tombstone to
  /// save, and its entries in batches marked removed, so that no device lists it again.
  func noteRemoval(sha256: String) throws(DatabaseError) {
    let stamp = try tick()
    let device = try deviceID()
    for (account, batch, entry) in try memberEntries(ofAsset: sha256) where !entry.removed {
      var removed = entry
      removed.removed = true
      removed.stamp = stamp
      removed.device = device
      try writeMember(account, batch: batch, sha256, removed)
      let created = try self.batch(account, batch)?.createdAt ?? 0
      try markBatchEdited(account, batch, createdAt: created)
    }
    for account in try owners(ofAsset: sha256) {
      guard var entry = try asset(account, sha256) else { continue }
      switch entry.state {
      case .tooLarge, .stopped:
        // Never on the server: nothing to tell it.
        try deleteAsset(account, sha256)
      case .synced, .uploading, .conflicted, .deleting, .removed, .downloading:
        entry.presence.removed = AssetPresence.Mark(stamp: stamp, device: device)
        entry.state = .deleting
        entry.record = nil
        try writeAsset(account, entry)
      }
    }
  }

  /// Notes a re-ordered batch for every account that holds it: only the photos that moved get new keys (the
  /// longest run of photos already in key order keeps its keys), so that a concurrent move of another photo
  /// on another device survives the merge.
  func noteReorder(batch id: String, order: [String]) throws(DatabaseError) {
    for account in try owners(ofBatch: id) {
      var membership = try self.membership(account, batch: id)
      let keys = order.map { member -> PositionKey? in
        guard let entry = membership.entries[member], !entry.removed else { return nil }
        return entry.key
      }
      let kept = Self.longestIncreasingRun(keys)
      var stamp: Int64?
      var index = 0
      while index < order.count {
        if kept.contains(index) {
          index += 1
          continue
        }
        var end = index
        while end < order.count && !kept.contains(end) { end += 1 }
        let lower = (0..<index).reversed().first(where: kept.contains).flatMap { keys[$0] }
        let upper = (end..<order.count).first(where: kept.contains).flatMap { keys[$0] }
        let fresh = PositionKey.sequence(end - index, between: lower, upper)
        if stamp == nil { stamp = try tick() }
        for (offset, key) in fresh.enumerated() {
          membership.entries[order[index + offset]] = BatchMembership.Entry(
            key: key, stamp: stamp!, device: try deviceID())
        }
        index = end
      }
      guard stamp != nil else { continue }
      try writeMembership(account, batch: id, membership)
      let created = try batch(account, id)?.createdAt ?? 0
      try markBatchEdited(account, id, createdAt: created)
    }
  }

  /// The indexes of a longest strictly increasing run of keys (nil keys never belong to it).
  static func longestIncreasingRun(_ keys: [PositionKey?]) -> Set<Int> {
    // Patience sorting: tails[k] is the index ending the best run of length k + 1.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: keys.count)
    for (index, key) in keys.enumerated() {
      guard let key else { continue }
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if keys[tails[middle]]! < key { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var result: Set<Int> = []
    var cursor = tails.last ?? -1
    while cursor >= 0 {
      result.insert(cursor)
      cursor = previous[cursor]
    }
    return result
  }

  /// Makes `account` the owner of everything no account holds yet (imported while syncing was off or no
  /// account was signed in): each such batch with its listings in their order, each such asset to upload.
  /// Assets another account holds are not adopted, nor listed in adopted batches: one account's photos are
  /// never uploaded into another's.
  func adoptUnowned(into account: String) throws(DatabaseError) {
    let device = try deviceID()
    let unownedAssets = try unownedLibraryAssets()
    let adopted = Set(unownedAssets.map(\.sha256))
    var stamp: Int64?
    for batch in try unownedLibraryBatches() {
      if stamp == nil { stamp = try tick() }
      for listing in try listings(batchSequence: batch.sequence) {
        let owners = try owners(ofAsset: listing.sha256)
        guard adopted.contains(listing.sha256) || owners.contains(account) else { continue }
        try writeMember(
          account, batch: batch.id, listing.sha256,
          BatchMembership.Entry(key: .initial(listing.position), stamp: stamp!, device: device))
      }
      try writeBatch(
        account,
        BatchEntry(
          id: batch.id, state: .uploading, systemFields: nil, revision: 1, createdAt: batch.createdAt))
    }
    if !unownedAssets.isEmpty && stamp == nil { stamp = try tick() }
    for asset in unownedAssets {
      try writeAsset(
        account,
        AssetEntry(
          sha256: asset.sha256, state: .uploading, systemFields: nil, homeBatch: asset.batch,
          homeKey: .initial(asset.position), record: nil, census: 0,
          presence: AssetPresence(added: .init(stamp: stamp!, device: device))))
    }
  }

  /// Lists a batch's members in the library as the ledger orders them for `account`: its live members that
  /// are here, plus any asset here whose home it is and which no batch of the account lists (its batch
  /// record has not arrived yet). An asset is never left without a listing. Returns whether anything changed.
  ///
  /// An asset newly listed here may have been kept in another batch only so as not to be left without a
  /// listing: that batch is listed again too (`cascade`), so that every device ends with the same listings
  /// whatever order the records arrived in.
  @discardableResult
  func project(batch id: String, account: String, cascade: Bool = true) throws(DatabaseError) -> Bool {
    guard let batch = try libraryBatch(id) else { return false }
    let membership = try membership(account, batch: id)
    var placed: [(key: PositionKey, sha: String, assetID: String)] = []
    for (sha, entry) in membership.entries where !entry.removed {
      if let assetID = try libraryAssetID(sha256: sha) { placed.append((entry.key, sha, assetID)) }
    }
    let homeless = try database.prepare(
      """
      SELECT s.sha256, s.home_key, a.id FROM sync_assets s JOIN assets a ON a.sha256 = s.sha256
      WHERE s.account = ?1 AND s.home_batch = ?2
        AND NOT EXISTS (SELECT 1 FROM sync_members m
          WHERE m.account = s.account AND m.sha256 = s.sha256 AND m.removed = 0)
      """
    ).bind(.text(account), .text(id))
    while try homeless.step() {
      placed.append(
        (PositionKey(rawValue: homeless.text(1) ?? ""), homeless.text(0) ?? "", homeless.text(2) ?? ""))
    }
    placed.sort { ($0.key, $0.sha) < ($1.key, $1.sha) }
    var desired = placed.map(\.assetID)
    let current = try listings(batchSequence: batch.sequence)
    // Whatever would be left without any listing stays, after the ordered members.
    let wanted = Set(desired)
    for listing in current where !wanted.contains(listing.assetID) {
      if try listingCount(assetID: listing.assetID) <= 1 { desired.append(listing.assetID) }
    }
    if desired == current.map(\.assetID) { return false }
    try rewriteListings(batchSequence: batch.sequence, desired)
    if cascade {
      let added = Set(placed.map(\.sha)).subtracting(current.map(\.sha256))
      var others: Set<String> = []
      for sha in added { others.formUnion(try listedBatchIDs(sha256: sha)) }
      others.remove(id)
      for other in others.sorted() where try self.batch(account, other) != nil {
        try project(batch: other, account: account, cascade: false)
      }
    }
    return true
  }
}

/// What the ledger records when the zone goes away, or comes back.
extension SyncLedger {
  /// The zone was deleted: every row of the account forgets the server and stops (kept here, not uploaded
  /// again unless the app asks); removals and downloads that were waiting have nothing left to do.
  func stopAfterZoneDeletion(_ account: String) throws(DatabaseError) {
    try setZoneState(account, .deleted)
    try setEngineState(account, nil)
    try database.prepare(
      """
      UPDATE sync_assets SET state = 'stopped', system_fields = NULL, record = NULL
      WHERE account = ?1 AND state IN ('synced', 'uploading', 'conflicted')
      """
    ).bind(.text(account)).run()
    try database.prepare(
      "DELETE FROM sync_assets WHERE account = ?1 AND state IN ('deleting', 'downloading')"
    )
    .bind(.text(account)).run()
    try database.prepare(
      "UPDATE sync_batches SET state = 'stopped', system_fields = NULL WHERE account = ?1"
    ).bind(.text(account)).run()
  }

  /// The app asked to upload everything again after a zone deletion: a new zone, every stopped row pending.
  func restartAfterZoneDeletion(_ account: String) throws(DatabaseError) {
    try setZoneState(account, .unknown)
    try database.prepare(
      "UPDATE sync_assets SET state = 'uploading' WHERE account = ?1 AND state = 'stopped'"
    )
    .bind(.text(account)).run()
    try database.prepare(
      "UPDATE sync_batches SET state = 'uploading', revision = revision + 1 WHERE account = ?1 AND state = 'stopped'"
    ).bind(.text(account)).run()
  }

  /// An asset removed on another device (and so here, or never here): a tombstone the server holds, with the
  /// presence that says so.
  func noteRemovedRemotely(_ account: String, sha256: String, presence: AssetPresence) throws(DatabaseError) {
    var entry =
      try asset(account, sha256)
      ?? AssetEntry(
        sha256: sha256, state: .removed, systemFields: nil, homeBatch: nil, homeKey: nil, record: nil,
        census: 0)
    entry.presence = entry.presence.merged(with: presence)
    entry.state = .removed
    entry.record = nil
    try writeAsset(account, entry)
  }
}
