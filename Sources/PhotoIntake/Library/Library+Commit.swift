import Foundation
import PhotoMetadata

#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif

/// A batch as the library knows it: its public id and its place in import order.
struct BatchRecord: Sendable {
  var id: BatchID
  var sequence: Int64
}

/// What committing a staged file did.
enum CommitOutcome: Sendable {
  /// New bytes: a new asset.
  case imported(Asset)
  /// Bytes the library already had: the existing asset, now also listed in this batch.
  case duplicate(Asset)
}

/// One staged item to commit: the file and everything its row records.
struct CommitRequest: Sendable {
  var staged: StagedFile
  var type: MediaType
  var name: String?
  var batch: BatchRecord
  var position: Int
  var metadata: MediaMetadata?
  var locationStripped: Bool
  /// The id a new asset gets, when it must be a given one (a download keeps the id its record carries).
  var assetID: AssetID? = nil
  /// When a new asset counts as imported (a download keeps its first import's time).
  var importedAt: Date? = nil
  /// Sync ledger work written in the same transaction as the row (see `SyncLedger.noteCommitted`).
  var sync: SyncCommitNote? = nil
}

/// An item of a group being committed, as the group's steps learn about it.
private struct GroupItem {
  var request: CommitRequest
  /// The asset that already holds these bytes, if any.
  var existing: Asset?
  /// Whether `existing`'s object is intact: the item is then only listed, nothing is placed.
  var listsIntactAsset = false
  /// The bytes' `objects/ab` folder.
  var folder: Directory?
  /// The committed intent of an item that places bytes.
  var intent: Intent?
  /// Set once the item has failed, or when its row is committed.
  var result: Result<CommitOutcome, Importer.Error>?
}

/// What an item's row transaction did.
private enum RowOutcome {
  /// A new asset.
  case inserted(Asset)
  /// The existing asset listed in the batch too; `repaired` when the item's bytes replaced a damaged object.
  case listed(Asset, repaired: Bool)
  /// The asset (by id) that another writer committed with the same bytes meanwhile, listed.
  case listedEarlier(String)
}

extension Library {
  /// Records a new batch (one import session).
  func beginBatch() throws(Importer.Error) -> BatchRecord {
    let id = BatchID.make()
    do {
      let insert = try database.prepare("INSERT INTO batches(id, created_at) VALUES (?1, ?2)")
      try insert.bind(.text(id.rawValue), .double(Date().timeIntervalSince1970)).run()
      return BatchRecord(id: id, sequence: sqlite3_last_insert_rowid(database.handle))
    } catch {
      throw Self.importError(error)
    }
  }

  /// Makes a group of staged files part of the library, durably, sharing every wait on the disk but the
  /// files' own fsyncs, in the order DESIGN.md requires:
  ///
  /// 1. the sinks fsynced each staged file (its data is durable);
  /// 2. one transaction (`synchronous=FULL`) commits an intent for every item that places bytes, naming the
  ///    object and the staged inode, so that a crash from here on leaves a record of exactly what to undo;
  /// 3. each staged inode is linked into `objects/ab/<sha256>` (`linkat`, which never replaces anything);
  /// 4. each distinct `objects/ab` folder of the group is fsynced once (the new names are durable);
  /// 5. one transaction commits every item's row (or listing) and deletes the group's intents.
  ///
  /// Only when this returns may the group's items be acknowledged: a crash in any window leaves either the
  /// intents (undone by the next writer) or the rows, never an acknowledged item without its row. Bytes the
  /// library already has give the existing asset, listed in the new batch too; if that asset's object is
  /// missing or damaged, the new bytes take its place, and whatever was there is moved to `lost+found/`,
  /// never deleted. Items share a group only with different bytes (see ``CommitQueue``).
  ///
  /// One item's failure is that item's result: a link that fails undoes that item's intent alone; a folder
  /// whose fsync fails fails the items placed in it; a transaction that fails for the group is retried one
  /// item at a time, so that one bad item never fails the others.
  ///
  /// Steps 3 and 4 wait on the disk, so they run on an I/O lane and the library serves other calls (a grid's
  /// `list`, the next items joining the queue) meanwhile.
  func commitGroup(_ requests: [CommitRequest]) async -> [Result<CommitOutcome, Importer.Error>] {
    defer { for request in requests { request.staged.discard() } }
    var items = requests.map { GroupItem(request: $0) }
    for index in items.indices { inspect(&items[index]) }
    recordIntents(&items)
    let placing = items.indices.filter { items[$0].intent != nil }
    if !placing.isEmpty {
      CrashPoint.afterIntentCommit.reach()
      let work = placing.map { (items[$0].request.staged, items[$0].folder!) }
      let failures = await BlockingLanes.io.run { [self] in placeAll(work) }
      for (index, failure) in zip(placing, failures) {
        guard let failure, let intent = items[index].intent else { continue }
        forget(intent)
        items[index].intent = nil
        items[index].result = .failure(Importer.Error(libraryFailure: failure))
      }
    }
    let change = commitRows(&items)
    if !change.inserted.isEmpty || !change.updated.isEmpty { publish(change) }
    return items.map { $0.result ?? .failure(.database(reason: "the item's commit did not finish")) }
  }

  /// Links every staged file of a group into its folder, then fsyncs each distinct folder once. Returns each
  /// item's failure, if any: a failed link fails its item; a failed fsync, never retried (see `Syscalls.fsync`),
  /// fails every item linked into that folder.
  private nonisolated func placeAll(_ work: [(staged: StagedFile, folder: Directory)]) -> [SystemError?] {
    var failures = [SystemError?](repeating: nil, count: work.count)
    // Folders in the order of their first item, with the items linked into each.
    var folders: [(prefix: Substring, folder: Directory, members: [Int])] = []
    for (index, (staged, folder)) in work.enumerated() {
      do {
        try place(staged, in: folder)
      } catch {
        failures[index] = error
        continue
      }
      CrashPoint.afterRename.reach()
      let prefix = staged.digest.hex.prefix(2)
      if let slot = folders.firstIndex(where: { $0.prefix == prefix }) {
        folders[slot].members.append(index)
      } else {
        folders.append((prefix, folder, [index]))
      }
    }
    for (_, folder, members) in folders {
      do {
        try folder.sync()
      } catch {
        for index in members { failures[index] = error }
        continue
      }
      CrashPoint.afterFolderSync.reach()
    }
    return failures
  }

  /// Decides what an item's commit needs: a listing of an intact existing asset, or placing its bytes (new
  /// bytes, or bytes replacing a damaged asset's object).
  private func inspect(_ item: inout GroupItem) {
    let digest = item.request.staged.digest
    do {
      item.existing = try fetchAsset(withSHA256: digest)
    } catch {
      item.result = .failure(.database(reason: error.description))
      return
    }
    do {
      item.folder = try fanOutFolder(for: digest)
    } catch {
      item.result = .failure(.libraryDamaged(reason: "objects/\(digest.hex.prefix(2)) is not a folder"))
      return
    }
    if let existing = item.existing, objectIsIntact(existing, in: item.folder!) {
      item.listsIntactAsset = true
    }
  }

  /// Commits the intents of every item that places bytes, in one transaction; if that fails, one transaction
  /// per item, so that the items that can go on do.
  private func recordIntents(_ items: inout [GroupItem]) {
    let placing = items.indices.filter { items[$0].result == nil && !items[$0].listsIntactAsset }
    guard !placing.isEmpty else { return }
    for (index, result) in inOneTransactionOrEach(
      placing,
      { index throws(DatabaseError) in
        try insertIntent(.place, items[index].request.staged)
      })
    {
      switch result {
      case .success(let intent): items[index].intent = intent
      case .failure(let error): items[index].result = .failure(Self.importError(error))
      }
    }
  }

  /// Commits the rows and listings of every item still going, and deletes their intents, in one transaction;
  /// if that fails, one transaction per item. Sets each item's result; returns the change to publish.
  private func commitRows(_ items: inout [GroupItem]) -> LibraryChange {
    let going = items.indices.filter { items[$0].result == nil }
    guard !going.isEmpty else { return LibraryChange() }
    var rows: [(index: Int, row: RowOutcome)] = []
    for (index, result) in inOneTransactionOrEach(
      going,
      { index throws(DatabaseError) in
        try writeRow(items[index])
      })
    {
      switch result {
      case .success(let row):
        rows.append((index, row))
      case .failure(let error):
        if let intent = items[index].intent { forget(intent) }
        items[index].result = .failure(Self.importError(error))
      }
    }
    guard !rows.isEmpty else { return LibraryChange() }
    CrashPoint.afterCommit.reach()
    var change = LibraryChange()
    for (index, row) in rows {
      switch row {
      case .inserted(let asset):
        change.inserted.append(asset.id)
        items[index].result = .success(.imported(asset))
      case .listed(let asset, let repaired):
        if repaired { change.updated.append(asset.id) }
        items[index].result = .success(.duplicate(asset))
      case .listedEarlier(let id):
        // Another writer's row for the same bytes appeared between the lookup and this transaction.
        if let other = try? fetchAsset(AssetID(rawValue: id)) {
          items[index].result = .success(.duplicate(other))
        } else {
          items[index].result = .failure(
            .database(reason: "the asset committed meanwhile could not be read back"))
        }
      }
    }
    return change
  }

  /// Runs `body` for every index of a group in one transaction; if that transaction fails, in one transaction
  /// per index, so that one bad item never fails the others. Returns each index's value or error, in order.
  private func inOneTransactionOrEach<Value>(
    _ indices: [Int], _ body: (Int) throws(DatabaseError) -> Value
  ) -> [(index: Int, result: Result<Value, DatabaseError>)] {
    if indices.count > 1,
      let values = try? database.transaction({ () throws(DatabaseError) -> [Value] in
        // A loop, not `map`: before the iOS 18 SDK the standard library's `map` rethrows `any Error`, not the
        // closure's typed error.
        var values: [Value] = []
        for index in indices { values.append(try body(index)) }
        return values
      })
    {
      return zip(indices, values).map { ($0, .success($1)) }
    }
    var results: [(index: Int, result: Result<Value, DatabaseError>)] = []
    for index in indices {
      do {
        results.append(
          (index, .success(try database.transaction { () throws(DatabaseError) in try body(index) })))
      } catch {
        results.append((index, .failure(error)))
      }
    }
    return results
  }

  /// Writes one item's row or listing and deletes its intent, inside the caller's transaction.
  private func writeRow(_ item: GroupItem) throws(DatabaseError) -> RowOutcome {
    var request = item.request
    let batch = request.batch
    // Sync may have re-ordered this batch meanwhile (another device's edit arrived): the item's place is then
    // after the others rather than on top of one.
    request.position = try SyncLedger(database: database).freePosition(
      batchSequence: batch.sequence, preferred: request.position)
    if let existing = item.existing {
      // Listed in this batch too; its damage mark goes when its object is intact again (a new copy placed).
      let repaired = !item.listsIntactAsset
      try insertListing(batch: batch, position: request.position, asset: existing.id.rawValue)
      try noteSync(request)
      if repaired || existing.damage != nil {
        try database.prepare("DELETE FROM damage WHERE asset_id = ?1").bind(.text(existing.id.rawValue)).run()
      }
      if let intent = item.intent { try deleteIntent(intent) }
      var listed = existing
      if repaired { listed.damage = nil }
      return .listed(listed, repaired: repaired)
    }
    // Another writer may have committed the same bytes since the lookup.
    let other = try database.prepare("SELECT id FROM assets WHERE sha256 = ?1")
      .bind(.text(request.staged.digest.hex))
    if try other.step() {
      let id = other.text(0) ?? ""
      try insertListing(batch: batch, position: request.position, asset: id)
      try noteSync(request)
      if let intent = item.intent { try deleteIntent(intent) }
      return .listedEarlier(id)
    }
    let asset = Asset(
      id: request.assetID ?? .make(), sha256: request.staged.digest, size: request.staged.size,
      type: request.type, name: request.name, importedAt: request.importedAt ?? Date(), batch: batch.id,
      position: request.position, damage: nil, metadata: request.metadata,
      locationStripped: request.locationStripped)
    try insertRow(asset, batch: batch)
    try noteSync(request)
    if let intent = item.intent { try deleteIntent(intent) }
    return .inserted(asset)
  }

  /// Records the item in the sync ledger, inside the row's transaction.
  private func noteSync(_ request: CommitRequest) throws(DatabaseError) {
    try SyncLedger(database: database).noteCommitted(
      sha256: request.staged.digest.hex, batch: request.batch, position: request.position, note: request.sync)
  }

  /// Whether an asset's object is where it belongs, a regular file of the recorded size (one `fstatat`).
  private func objectIsIntact(_ asset: Asset, in folder: Directory) -> Bool {
    guard let info = try? folder.status(asset.sha256.hex) else { return false }
    return Platform.fileType(info.st_mode) == .regular && Int64(info.st_size) == asset.size
  }

  /// Links the staged inode into `folder` under its hash. Whatever already holds that name is kept: a valid
  /// copy of the same bytes (an object whose row was lost) is used as it is; anything else is moved aside.
  private nonisolated func place(_ staged: StagedFile, in folder: Directory) throws(SystemError) {
    let hex = staged.digest.hex
    for attempt in 0..<2 {
      do {
        try staged.folder.link(staged.name, to: folder, as: hex)
        return
      } catch  where error.code == EEXIST && attempt == 0 {
        if try holdsValidCopy(of: staged.digest, in: folder) { return }
        try moveAside(hex, in: folder, relative: "objects/\(hex.prefix(2))/\(hex)")
      } catch  where [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK].contains(error.code) {
        // A file system without hard links: a rename, after checking that nothing holds the name (the
        // writer lock keeps anyone else from placing it meanwhile).
        if try folder.status(hex) != nil { throw SystemError(.link, EEXIST, path: folder.path(of: hex)) }
        try staged.folder.move(staged.name, to: folder, as: hex)
        return
      }
    }
  }

  /// Whether `folder` holds a regular file named for `digest` whose bytes hash to it.
  private nonisolated func holdsValidCopy(of digest: SHA256Digest, in folder: Directory) throws(SystemError)
    -> Bool
  {
    guard let (descriptor, _) = try? folder.openRegularFile(digest.hex) else { return false }
    defer { Syscalls.close(descriptor) }
    return try FileHasher.hash(descriptor: descriptor, path: folder.path(of: digest.hex)) == digest
  }

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
    try insertListing(batch: batch, position: asset.position, asset: asset.id.rawValue)
  }

  /// Lists the asset with id `asset` in `batch` at `position`.
  private func insertListing(batch: BatchRecord, position: Int, asset: String) throws(DatabaseError) {
    try database.prepare("INSERT INTO batch_items(batch_seq, position, asset_id) VALUES (?1, ?2, ?3)")
      .bind(.int(batch.sequence), .int(Int64(position)), .text(asset)).run()
  }

  /// Forgets an intent whose work is finished or undone, inside the caller's transaction.
  func deleteIntent(_ intent: Intent) throws(DatabaseError) {
    try database.prepare("DELETE FROM intents WHERE id = ?1").bind(.int(intent.id)).run()
  }

  /// Inserts an intent about `staged`'s inode inside the caller's transaction, before anything is placed.
  private func insertIntent(_ kind: Intent.Kind, _ staged: StagedFile) throws(DatabaseError) -> Intent {
    try insertIntent(kind, digest: staged.digest, device: staged.device, inode: staged.inode)
  }

  /// Commits an intent on its own (tests record one to simulate an interrupted write).
  func recordIntent(_ kind: Intent.Kind, digest: SHA256Digest, device: UInt64, inode: UInt64)
    throws(DatabaseError) -> Intent
  {
    try database.transaction { () throws(DatabaseError) in
      try insertIntent(kind, digest: digest, device: device, inode: inode)
    }
  }

  /// Inserts an intent inside the caller's transaction.
  func insertIntent(_ kind: Intent.Kind, digest: SHA256Digest, device: UInt64, inode: UInt64)
    throws(DatabaseError) -> Intent
  {
    let token = currentWriter.withLock { $0 } ?? "unowned"
    try database.prepare(
      "INSERT INTO intents(token, kind, object, device, inode, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    ).bind(
      .text(token), .text(kind.rawValue), .text(digest.hex), .int(Int64(bitPattern: device)),
      .int(Int64(bitPattern: inode)), .double(Date().timeIntervalSince1970)
    ).run()
    return Intent(
      id: sqlite3_last_insert_rowid(database.handle), kind: kind, digest: digest, device: device, inode: inode
    )
  }

  /// Undoes an intent of this writer after its operation failed. If that fails too (the disk is gone), the
  /// intent stays recorded and the end of the write, or the next writer, undoes it.
  func forget(_ intent: Intent) {
    var report = RecoveryReport()
    try? undo(intent, into: &report)
  }

  static func importError(_ error: DatabaseError) -> Importer.Error {
    error.isDiskFull ? .diskFull : .database(reason: error.description)
  }
}
