import Foundation

extension Library {
  /// Re-hashes every object and compares it with the manifest; marks and reports damaged assets, clears the
  /// mark of assets found intact again, and lists what `objects/` holds that no row references. Deletes
  /// nothing, and never blocks on what it finds (a FIFO is reported, not opened for a read that would wait).
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
    let assets: [Asset]
    do {
      assets = try await manifest.all(order: .date)
    } catch {
      throw Library.Error(error)
    }
    let found = await check(assets.map(\.sha256), progress: progress)
    var report = VerificationReport()
    var changes: [(id: AssetID, damage: Asset.Damage?)] = []
    for (asset, found) in zip(assets, found) {
      // Not reached (the task was cancelled): nothing is known of its bytes, so its mark stays as it is.
      guard let found else { continue }
      report.checked += 1
      let damage: Asset.Damage? =
        switch found {
        case .missing: .missing
        case .notAFile: .notAFile
        case .content(let digest) where digest != asset.sha256: .hashMismatch
        case .content: nil
        }
      if let damage {
        report.damaged.append(.init(id: asset.id, damage: damage))
        changes.append((asset.id, damage))
      } else if asset.damage != nil {
        changes.append((asset.id, nil))
      }
    }
    do {
      try await manifest.setDamage(changes)
      let referenced = Set(assets.map(\.sha256.hex))
      let pending = try await manifest.pendingObjects()
      let entries = try await BlockingLanes.io.run { [store] () throws(SystemError) in try store.entries() }
      for entry in entries where !referenced.contains(entry.name) || !entry.isFanOutChild {
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
