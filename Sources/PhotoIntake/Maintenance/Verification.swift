import Foundation

extension Library {
  /// Re-hashes every object and compares it with the manifest; marks and reports damaged assets, clears the
  /// mark of assets found intact again, and lists what `objects/` holds that no row references. Deletes
  /// nothing, and never blocks on what it finds (a FIFO is reported, not opened for a read that would wait).
  ///
  /// Safe while other processes (or this one) import and remove: the rows and intents it checks are read in one
  /// snapshot on the readers' connection, after listing `objects/`, so an object of an import under way is
  /// counted in ``VerificationReport/interrupted`` (in flight), never as unreferenced, and an asset removed
  /// meanwhile is neither reported nor marked damaged.
  ///
  /// Cancelling the task stops the verification: the assets it did not reach keep their marks and are not
  /// counted in ``VerificationReport/checked``.
  ///
  /// Hashing runs on the I/O lanes, never on the cooperative pool.
  public func verify(progress: (@Sendable (_ checked: Int, _ total: Int) -> Void)? = nil) async throws(Error)
    -> VerificationReport
  {
    try await Verification(manifest: manifest, store: store).run(progress: progress)
  }
}

/// A library's verification: every object re-read through the one chunked reader and compared with its row.
///
/// Built on the ``Manifest`` and the ``ObjectStore`` alone. The hashing runs on the I/O lanes, two objects at a
/// time through a ``WorkQueue``, so that reading one object overlaps hashing another.
struct Verification: Sendable {
  let manifest: Manifest
  let store: ObjectStore

  /// Checks every asset, records what changed, and reports.
  func run(progress: (@Sendable (Int, Int) -> Void)?) async throws(Library.Error) -> VerificationReport {
    // Every page and index of the manifest first: a damaged manifest is refused, never verified against.
    try await BlockingLanes.io.run { [manifest, store] () throws(Library.Error) in
      try manifest.refuseIfDamagedForReading(thorough: true)
      try JournalCheck.check(manifest, journal: store.journal)
    }
    // The objects' listing first, then the rows and intents in one snapshot: an object is linked only after its
    // intent committed, and its intent goes only in the transaction that commits its row, so every object
    // listed before the snapshot is, in it, either referenced or in flight — never falsely unreferenced.
    let listed: [ObjectEntry]
    let unreadable: [String]
    let assets: [Asset]
    let pending: Set<String>
    let difference: String?
    do {
      (listed, unreadable) = try await BlockingLanes.io.run { [store] () throws(SystemError) in
        try store.entries()
      }
      (assets, pending, difference) = try await manifest.read {
        [journal = store.journal] database throws(DatabaseError) in
        try database.readTransaction { () throws(DatabaseError) in
          // The rows against the identity journal: a changed byte in a name, a date or a place, which SQLite's
          // checks cannot see, is damage that repair mends.
          var difference: String?
          if let journal, let applied = try database.appliedJournalSequence() {
            difference = try Repair.differenceFromJournal(database, journal: journal, applied: applied)
          }
          return (try database.all(order: .date), try database.pendingObjects(), difference)
        }
      }
    } catch {
      throw Library.Error(anyFailure: error)
    }
    if let difference {
      throw .manifestDamaged(reason: "it differs from its identity journal (\(difference))")
    }
    let found = await check(assets.map(\.sha256), progress: progress)
    var report = VerificationReport()
    report.unreadable = unreadable
    var changes: [(id: AssetID, damage: Asset.Damage?)] = []
    for (asset, found) in zip(assets, found) {
      // Not reached (the task was cancelled): nothing is known of its bytes, so its mark stays as it is.
      guard let found else { continue }
      if found == .unreadable {
        // Nothing is known of bytes that could not be read: reported (once per folder), never marked.
        let hex = asset.sha256.hex
        if !unreadable.contains("objects/" + hex.prefix(2)) {
          report.unreadable.append("objects/\(hex.prefix(2))/\(hex)")
        }
        continue
      }
      report.checked += 1
      let damage: Asset.Damage? =
        switch found {
        case .missing: .missing
        case .notAFile: .notAFile
        case .content(let digest) where digest != asset.sha256: .hashMismatch
        case .content, .unreadable: nil
        }
      if let damage {
        report.damaged.append(.init(id: asset.id, damage: damage))
        changes.append((asset.id, damage))
      } else if asset.damage != nil {
        changes.append((asset.id, nil))
      }
    }
    do {
      // An asset removed while its bytes were being checked is gone, not damaged.
      if !report.damaged.isEmpty {
        let ids = report.damaged.map(\.id)
        let remaining = try await manifest.read { database throws(DatabaseError) in
          var remaining: Set<AssetID> = []
          for id in ids where try database.asset(id) != nil { remaining.insert(id) }
          return remaining
        }
        report.damaged.removeAll { !remaining.contains($0.id) }
        changes.removeAll { $0.damage != nil && !remaining.contains($0.id) }
      }
      // Opened for reading only (read-only storage, a full disk): the damage is reported, not recorded.
      if !manifest.isReadOnly { try await manifest.setDamage(changes) }
      let referenced = Set(assets.map(\.sha256.hex))
      let unreferenced = listed.filter { !referenced.contains($0.name) || !$0.isFanOutChild }
      let stillThere = try await BlockingLanes.io.run { () throws(SystemError) -> [Bool] in
        // An object removed (or an interrupted placement undone) after the listing is no longer there to report.
        var present: [Bool] = []
        for entry in unreferenced {
          guard let name = Directory.utf8(entry.rawName) else {
            present.append(true)
            continue
          }
          present.append(try entry.folder.status(name) != nil)
        }
        return present
      }
      for (entry, present) in zip(unreferenced, stillThere) where present {
        if entry.isFanOutChild && pending.contains(entry.name) {
          report.interrupted += 1
        } else {
          report.unreferenced.append(entry.relativePath)
        }
      }
    } catch {
      throw Library.Error(anyFailure: error)
    }
    return report
  }

  /// Objects are read two at a time, so that reading one overlaps hashing the other.
  private static let queue = WorkQueue(label: "PhotoIntake.Verification", width: 2)

  /// What each object is now, read on the I/O lanes; nil for those a cancellation left unread.
  private func check(_ digests: [SHA256Digest], progress: (@Sendable (Int, Int) -> Void)?) async
    -> [ObjectCheck?]
  {
    var results = [ObjectCheck?](repeating: nil, count: digests.count)
    var done = 0
    await Self.queue.forEach(count: digests.count) { [store] index, _ in
      await BlockingLanes.io.run { store.check(digests[index]) }
    } each: { index, found in
      results[index] = found
      done += 1
      progress?(done, digests.count)
      return true
    }
    return results
  }
}
