import Foundation
import PhotoMetadata

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Repair's use of the identity journal (see IdentityJournal.swift): a manifest that cannot be trusted is set
// aside, and the new one gets back every asset's id, name, batches, order, import time and strip status from the
// journal, its facts re-read from the bytes. Objects the journal does not know are adopted as before.

extension Repair {
  /// Why the manifest at `root/manifest.sqlite` cannot be trusted, or nil when it can: it does not open, SQLite's
  /// integrity check fails or a relation every write keeps is broken (`Database.pageCheckProblems`), its
  /// header's schema version is not the one its tables record, it lacks commits its identity journal holds (a
  /// damaged write-ahead log that SQLite silently stopped reading at), or its assets and listings are not the
  /// ones the journal builds (a changed byte in a name, a date, a place: `differenceFromJournal`).
  ///
  /// Reads every page (repair's cost is the library's size anyway). The connection is closed on return, so that
  /// the file can be moved aside.
  ///
  /// - Throws: ``Library/Error/diskFull`` or ``Library/Error/readOnly`` when the storage, not the manifest, is
  ///   what fails (no space for the log's index, no write permission): a manifest is never set aside for that.
  static func whyNotTrusted(root: String, journal: IdentityJournal?) throws(Library.Error) -> String? {
    let database: Database
    do {
      database = try Database.open(
        path: root + "/manifest.sqlite", readOnly: true, headerCheck: Manifest.headerDamage)
    } catch {
      try refuseStorageFailure(error)
      // The header check's own sentence, or SQLite's.
      if error.message.hasPrefix("its header") { return error.message }
      return "SQLite cannot open it (\(error.message))"
    }
    do {
      if let problem = try database.pageCheckProblems(thorough: true).first { return problem }
      let version = try database.userVersion
      try Manifest.refuseDamagedVersion(version, database)
      guard let applied = try database.appliedJournalSequence() else { return nil }
      if let tail = try? journal?.tail(), tail.sequence > applied {
        return "it lacks the last \(tail.sequence - applied) of the changes its identity journal records"
      }
      if let journal, let difference = try differenceFromJournal(database, journal: journal, applied: applied)
      {
        return "it differs from its identity journal (\(difference))"
      }
    } catch {
      try refuseStorageFailure(error)
      return "SQLite cannot read it (\(error.message))"
    }
    return nil
  }

  /// Throws the library's error for a failure of the storage rather than of the manifest's bytes: a full disk
  /// (the first read makes the log's 32 KB index), storage that cannot be written.
  private static func refuseStorageFailure(_ error: DatabaseError) throws(Library.Error) {
    guard !error.isDamage else { return }
    let failure = Library.Error(error)
    if failure == .diskFull || failure == .readOnly { throw failure }
  }

  /// Where the manifest's assets (id, hash, name, size, type, import time, strip status, first listing), listings
  /// and batch ids differ from what its identity journal builds, with the outbox's frames the journal has not
  /// received yet; nil when they agree, or when the journal cannot tell (unreadable, a gap, frames behind the
  /// manifest's): a doubt never sets a manifest aside. Call it inside one read transaction (or holding the
  /// writer lock): frames and rows are then of one moment, even with writers committing.
  static func differenceFromJournal(_ database: Database, journal: IdentityJournal, applied: UInt64)
    throws(DatabaseError) -> String?
  {
    guard applied > 0, let read = try? journal.readAll() else { return nil }
    // Frames after `applied` were appended after this read's snapshot began: the state compared is the one at
    // `applied`, the journal's frames through it and the snapshot's outbox after them.
    var model = IdentityModel(frames: read.frames.filter { $0.sequence <= applied })
    guard model.problems.isEmpty, model.sequence <= applied else { return nil }
    for frame in try database.journalOutbox(after: model.sequence) { model.apply(frame) }
    guard model.problems.isEmpty, model.sequence == applied else { return nil }

    let rows = try database.prepare(
      """
      SELECT id, sha256, name, size, type, imported_at, location_stripped, batch_seq, position FROM assets
      """)
    var seen = 0
    while try rows.step() {
      let id = AssetID(rawValue: rows.text(0) ?? "")
      guard let identity = model.assets[id] else { return "asset \(id) is not in it" }
      seen += 1
      var differing: [String] = []
      if identity.digest.hex != (rows.text(1) ?? "").lowercased() { differing.append("hash") }
      if identity.name != rows.text(2) { differing.append("name") }
      if identity.size != rows.int(3) { differing.append("size") }
      if let type = identity.type, type.rawValue != rows.text(4) { differing.append("type") }
      if identity.importedAt != rows.double(5) { differing.append("import time") }
      if identity.locationStripped != (rows.int(6) != 0) { differing.append("strip status") }
      if identity.batch.sequence != rows.int(7) || identity.position != Int(rows.int(8)) {
        differing.append(
          "place \(identity.batch.sequence)/\(identity.position), row \(rows.int(7))/\(rows.int(8))")
      }
      if !differing.isEmpty { return "asset \(id): \(differing.joined(separator: ", "))" }
    }
    if seen != model.assets.count { return "\(model.assets.count - seen) of its assets are missing" }
    let items = try database.prepare("SELECT batch_seq, position, asset_id FROM batch_items")
    var listed = 0
    while try items.step() {
      let slot = IdentityModel.Slot(batchSequence: items.int(0), position: Int(items.int(1)))
      guard let id = model.listings[slot], id.rawValue == items.text(2) else {
        return "the listing at position \(slot.position) of batch \(slot.batchSequence)"
      }
      listed += 1
    }
    if listed != model.listings.count {
      return "\(model.listings.count - listed) of its listings are missing"
    }
    let batches = try database.prepare("SELECT seq, id FROM batches")
    while try batches.step() {
      if let known = model.batches[batches.int(0)], known.id.rawValue != batches.text(1) {
        return "batch \(known.id)"
      }
    }
    return nil
  }

  /// Gives a manifest that has no assets and lacks what the identity journal records (one repair made anew)
  /// every asset, name, batch, listing, import time and strip status the journal holds, in one transaction.
  /// Facts are re-read from each object's bytes; an asset whose object is missing keeps its row (the repair then
  /// marks it damaged), so its id still answers. Returns the restored assets.
  static func restoreIdentities(manifest: Manifest, store: ObjectStore) async throws(Library.Error)
    -> [AssetID]
  {
    guard let journal = store.journal else { return [] }
    do {
      let applied = try await manifest.appliedJournalSequence() ?? 0
      let (model, assets) = try await BlockingLanes.io.run {
        () throws(SystemError) -> (IdentityModel, [Asset]) in
        let model = IdentityModel(frames: try journal.readAll().frames)
        guard model.sequence > applied else { return (model, []) }
        let assets = model.assets.values.sorted {
          ($0.batch.sequence, $0.position) < ($1.batch.sequence, $1.position)
        }
        .map { identity in restoredAsset(identity, store: store) }
        return (model, assets)
      }
      guard model.sequence > applied, !assets.isEmpty || !model.batches.isEmpty else { return [] }
      return try await manifest.restore(assets, model: model) ? assets.map(\.id) : []
    } catch {
      throw Library.Error(anyFailure: error)
    }
  }

  /// The row of a journal identity: its facts re-read from its object when the object's bytes are the ones
  /// recorded, none when they are missing or altered.
  private static func restoredAsset(_ identity: IdentityModel.Identity, store: ObjectStore) -> Asset {
    var type = identity.type ?? .jpeg
    var metadata: MediaMetadata?
    if let folder = try? store.folder(for: identity.digest),
      let (sniffed, _) = try? adoptable(identity.digest, in: folder, store: store, copying: .whenShared)
    {
      type = identity.type ?? sniffed
      var limits = MetadataReader.Limits()
      limits.maxPixels = .max
      metadata = try? MetadataReader.read(
        fileAt: store.path(of: identity.digest), hint: type.preferredFilenameExtension, limits: limits)
    }
    return Asset(
      id: identity.id, sha256: identity.digest, size: identity.size, type: type, name: identity.name,
      importedAt: Date(timeIntervalSince1970: identity.importedAt), batch: identity.batch.id,
      position: identity.position, damage: nil, metadata: metadata,
      locationStripped: identity.locationStripped)
  }
}

extension Manifest {
  /// Restores `assets` (the journal's identities) and every listing and batch of `model` into a manifest that has
  /// no assets, and records the journal as applied through `model.sequence`, in one transaction. Returns false
  /// (doing nothing) when the manifest has assets or is no longer behind the journal (another repair did it).
  func restore(_ assets: [Asset], model: IdentityModel) throws(DatabaseError) -> Bool {
    let done = try database.transaction { () throws(DatabaseError) -> Bool in
      if try hasAssets() { return false }
      if (try database.appliedJournalSequence() ?? 0) >= model.sequence { return false }
      for batch in model.batches.values.sorted(by: { $0.sequence < $1.sequence }) {
        try database.prepare("INSERT OR IGNORE INTO batches(seq, id, created_at) VALUES (?1, ?2, ?3)")
          .bind(.int(batch.sequence), .text(batch.id.rawValue), .double(batch.createdAt)).run()
      }
      var own: Set<IdentityModel.Slot> = []
      for asset in assets {
        let batch = model.batches[model.assets[asset.id]?.batch.sequence ?? -1]
        guard let batch else { continue }
        try insertRow(asset, batch: batch)
        own.insert(IdentityModel.Slot(batchSequence: batch.sequence, position: asset.position))
      }
      for (slot, id) in model.orderedListings where !own.contains(slot) {
        guard let batch = model.batches[slot.batchSequence] else { continue }
        try insertListing(batch: batch, position: slot.position, asset: id)
      }
      try database.prepare("UPDATE journal_state SET applied = ?1 WHERE id = 1")
        .bind(.int(Int64(model.sequence))).run()
      return true
    }
    if done { noteJournaled(model.sequence) }
    return done
  }
}
