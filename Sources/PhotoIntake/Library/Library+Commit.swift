import Foundation
import PhotoMetadata

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
  /// the file was fsynced by the sink → `rename(2)` into `objects/` → fsync(folder) → row committed with
  /// `synchronous=FULL`. Only when this returns may the import be acknowledged.
  ///
  /// The same bytes committed again give the existing asset, listed in the new batch too; if that asset had
  /// been marked damaged, the new bytes repair it.
  func commit(
    _ staged: StagedFile, type: MediaType, name: String?, batch: BatchRecord, position: Int,
    metadata: MediaMetadata? = nil, locationStripped: Bool = false
  ) throws(Importer.Error) -> CommitOutcome {
    let existing: Asset?
    do {
      existing = try asset(withSHA256: staged.digest)
    } catch {
      try? Syscalls.unlink(staged.path)
      throw .database(reason: error.description)
    }
    let destination = objectPath(for: staged.digest)
    let folder = String(destination[..<destination.lastIndex(of: "/")!])
    if let existing {
      do {
        if existing.damage != nil {
          try Syscalls.rename(staged.path, destination)
          try Syscalls.fsyncDirectory(folder)
        } else {
          try Syscalls.unlink(staged.path)
        }
      } catch {
        try? Syscalls.unlink(staged.path)
        throw Importer.Error(libraryFailure: error)
      }
      do {
        try database.transaction { () throws(DatabaseError) in
          try database.prepare(
            "INSERT INTO batch_items(batch_seq, position, asset_id) VALUES (?1, ?2, ?3)"
          ).bind(.int(batch.sequence), .int(Int64(position)), .text(existing.id.rawValue)).run()
          if existing.damage != nil {
            try database.prepare("DELETE FROM damage WHERE asset_id = ?1")
              .bind(.text(existing.id.rawValue)).run()
          }
        }
      } catch {
        throw Self.importError(error)
      }
      var repaired = existing
      repaired.damage = nil
      if existing.damage != nil { publish(LibraryChange(updated: [existing.id])) }
      return .duplicate(repaired)
    }

    do {
      try Syscalls.rename(staged.path, destination)
      CrashPoint.afterRename.reach()
      try Syscalls.fsyncDirectory(folder)
    } catch {
      try? Syscalls.unlink(staged.path)
      try? Syscalls.unlink(destination)
      throw Importer.Error(libraryFailure: error)
    }
    let now = Date()
    let asset = Asset(
      id: .make(), sha256: staged.digest, size: staged.size, type: type, name: name, importedAt: now,
      batch: batch.id, position: position, damage: nil, metadata: metadata,
      locationStripped: locationStripped)
    let sortDate = metadata?.captureDate.flatMap(\.sortTimestamp) ?? now.timeIntervalSince1970
    let metadataJSON = metadata.flatMap { try? JSONEncoder().encode($0) }.map {
      String(decoding: $0, as: UTF8.self)
    }
    do {
      try database.transaction { () throws(DatabaseError) in
        try database.prepare(
          """
          INSERT INTO assets(id, sha256, size, type, name, imported_at, sort_date, batch_seq, position,
            metadata, live_photo_id, location_stripped)
          VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
          """
        ).bind(
          .text(asset.id.rawValue), .text(asset.sha256.hex), .int(asset.size), .text(type.rawValue),
          .optional(name), .double(now.timeIntervalSince1970), .double(sortDate), .int(batch.sequence),
          .int(Int64(position)), .optional(metadataJSON), .optional(metadata?.livePhotoID),
          .int(locationStripped ? 1 : 0)
        ).run()
        try database.prepare(
          "INSERT INTO batch_items(batch_seq, position, asset_id) VALUES (?1, ?2, ?3)"
        ).bind(.int(batch.sequence), .int(Int64(position)), .text(asset.id.rawValue)).run()
      }
    } catch {
      // No row, so the object must go too (invariant 2); were this unlink to fail, the next open removes it.
      try? Syscalls.unlink(destination)
      throw Self.importError(error)
    }
    CrashPoint.afterCommit.reach()
    publish(LibraryChange(inserted: [asset.id]))
    return .imported(asset)
  }

  static func importError(_ error: DatabaseError) -> Importer.Error {
    error.isDiskFull ? .diskFull : .database(reason: error.description)
  }

  /// A new staging path for one item (`staging/<uuid>.part`).
  nonisolated func newStagingPath() -> String {
    "\(stagingPath)/\(UUID().uuidString.lowercased()).part"
  }
}
