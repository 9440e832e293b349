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

  /// Makes a staged file part of the library, durably, in the order DESIGN.md requires:
  ///
  /// 1. the sink fsynced the staged file (its data is durable);
  /// 2. an intent naming the object and the staged inode is committed (`synchronous=FULL`), so that a crash
  ///    from here on leaves a record of exactly what to undo;
  /// 3. the staged inode is linked into `objects/ab/<sha256>` (`linkat`, which never replaces anything);
  /// 4. `objects/ab` is fsynced (the new name is durable);
  /// 5. the asset's row is committed and the intent deleted, in one transaction.
  ///
  /// Only when this returns may the import be acknowledged. The same bytes committed again give the existing
  /// asset, listed in the new batch too; if that asset's object is missing or damaged, the new bytes take its
  /// place, and whatever was there is moved to `lost+found/`, never deleted.
  ///
  /// Steps 3 and 4 wait on the disk, so they run on an I/O lane and the library serves other calls (a grid's
  /// `list`) meanwhile. The same bytes may then be committed by another item of the batch in between: the row
  /// transaction checks again, and the later item becomes a duplicate of the earlier.
  func commit(
    _ staged: StagedFile, type: MediaType, name: String?, batch: BatchRecord, position: Int,
    metadata: MediaMetadata? = nil, locationStripped: Bool = false
  ) async throws(Importer.Error) -> CommitOutcome {
    defer { staged.discard() }
    let existing: Asset?
    do {
      existing = try fetchAsset(withSHA256: staged.digest)
    } catch {
      throw .database(reason: error.description)
    }
    let folder: Directory
    do {
      folder = try fanOutFolder(for: staged.digest)
    } catch {
      throw .libraryDamaged(reason: "objects/\(staged.digest.hex.prefix(2)) is not a folder")
    }
    if let existing, objectIsIntact(existing, in: folder) {
      try record(existing, in: batch, position: position, clearingDamage: existing.damage != nil)
      return .duplicate(existing)
    }
    let intent = try recordIntent(.place, staged)
    do {
      try await BlockingLanes.io.run { [self] () throws(SystemError) in
        try place(staged, in: folder)
        CrashPoint.afterRename.reach()
        try folder.sync()
      }
    } catch {
      forget(intent)
      throw Importer.Error(libraryFailure: error)
    }
    if let existing {
      try record(existing, in: batch, position: position, clearingDamage: true, finishing: intent)
      publish(LibraryChange(updated: [existing.id]))
      var repaired = existing
      repaired.damage = nil
      return .duplicate(repaired)
    }
    let asset = Asset(
      id: .make(), sha256: staged.digest, size: staged.size, type: type, name: name, importedAt: Date(),
      batch: batch.id, position: position, damage: nil, metadata: metadata,
      locationStripped: locationStripped)
    let earlier: String?
    do {
      earlier = try database.transaction { () throws(DatabaseError) -> String? in
        // Another item of the batch may have committed the same bytes while this one was placing them.
        let other = try database.prepare("SELECT id FROM assets WHERE sha256 = ?1")
          .bind(.text(staged.digest.hex))
        if try other.step() {
          let id = other.text(0) ?? ""
          try insertListing(batch: batch, position: position, asset: id)
          try deleteIntent(intent)
          return id
        }
        try insertRow(asset, batch: batch)
        try deleteIntent(intent)
        return nil
      }
    } catch {
      forget(intent)
      throw Self.importError(error)
    }
    if let earlier {
      guard let other = try? fetchAsset(AssetID(rawValue: earlier)) else {
        throw .database(reason: "the asset committed meanwhile could not be read back")
      }
      return .duplicate(other)
    }
    CrashPoint.afterCommit.reach()
    publish(LibraryChange(inserted: [asset.id]))
    return .imported(asset)
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

  /// Lists an existing asset in `batch` too, optionally clearing its damage mark and finishing an intent.
  private func record(
    _ asset: Asset, in batch: BatchRecord, position: Int, clearingDamage: Bool,
    finishing intent: Intent? = nil
  ) throws(Importer.Error) {
    do {
      try database.transaction { () throws(DatabaseError) in
        try insertListing(batch: batch, position: position, asset: asset.id.rawValue)
        if clearingDamage {
          try database.prepare("DELETE FROM damage WHERE asset_id = ?1").bind(.text(asset.id.rawValue)).run()
        }
        if let intent {
          try deleteIntent(intent)
        }
      }
    } catch {
      if let intent { forget(intent) }
      throw Self.importError(error)
    }
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

  /// Commits an intent about `staged`'s inode, before anything is placed.
  private func recordIntent(_ kind: Intent.Kind, _ staged: StagedFile) throws(Importer.Error) -> Intent {
    do {
      return try recordIntent(kind, digest: staged.digest, device: staged.device, inode: staged.inode)
    } catch {
      throw Self.importError(error)
    }
  }

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
