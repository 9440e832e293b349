import Foundation

extension Library {
  /// Removes an asset: its row (and batch listings) first, with an intent naming the object's inode, then
  /// its bytes and renditions.
  ///
  /// In that order a crash leaves at worst the intent and the bytes, which the next write removes (only if
  /// they are still that inode and no row references them). A link, FIFO or folder where the object belongs
  /// is not removed: it is left for repair to move aside.
  ///
  /// - Throws: ``Error/notFound(_:)``, ``Error/busy`` when another process keeps writing.
  public func remove(_ id: AssetID) async throws(Error) {
    try await remove(id) { ledger, sha256 throws(DatabaseError) in try ledger.noteRemoval(sha256: sha256) }
  }

  /// Removes an asset as ``remove(_:)`` does, with `note` recording the removal in the sync ledger inside the
  /// transaction that deletes the row (a removal made here leaves a tombstone to upload; one that came from
  /// another device does not).
  func remove(_ id: AssetID, note: @Sendable (SyncLedger, String) throws(DatabaseError) -> Void)
    async throws(Error)
  {
    try await beginWriting()
    defer { endWriting() }
    guard let asset = try fetchAsset(id) else { throw .notFound(id) }
    let folder = try? fanOutFolder(for: asset.sha256)
    let info = try? folder?.status(asset.sha256.hex)
    let removable = info.map { Platform.fileType($0.st_mode) == .regular } ?? false
    var intent: Intent?
    do {
      try database.transaction { () throws(DatabaseError) in
        try database.prepare("DELETE FROM batch_items WHERE asset_id = ?1").bind(.text(id.rawValue)).run()
        try database.prepare("DELETE FROM assets WHERE id = ?1").bind(.text(id.rawValue)).run()
        try note(SyncLedger(database: database), asset.sha256.hex)
        if removable, let info {
          intent = try insertIntent(
            .remove, digest: asset.sha256, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
      }
    } catch {
      throw Error(error)
    }
    if let intent { forget(intent) }
    removeRenditions(of: asset.sha256)
    publish(LibraryChange(removed: [id]))
  }

  /// Deletes the cached renditions of the object with this hash (`renditions/ab/<sha256>-*`): regular files
  /// the library made, never a link or a folder someone put there.
  func removeRenditions(of digest: SHA256Digest) {
    guard let folder = try? renditions.subdirectory(String(digest.hex.prefix(2))),
      let names = try? folder.names()
    else { return }
    for name in names where name.hasPrefix(digest.hex) {
      guard let info = try? folder.status(name), Platform.fileType(info.st_mode) == .regular else { continue }
      try? folder.unlink(name)
    }
  }

  /// Re-hashes every object and compares it with the manifest; marks and reports damaged assets, clears the
  /// mark of assets found intact again, and lists what `objects/` holds that no row references. Deletes
  /// nothing, and never blocks on what it finds (a FIFO is reported, not opened for a read that would wait).
  ///
  /// Hashing runs off the actor, on I/O lanes, two files at a time.
  public func verify(progress: (@Sendable (_ checked: Int, _ total: Int) -> Void)? = nil) async throws(Error)
    -> VerificationReport
  {
    let assets = try fetchAll(order: .date)
    let results = await Self.hashAll(assets.map { ($0.sha256, $0.id) }, library: self, progress: progress)
    var report = VerificationReport()
    report.checked = assets.count
    let now = Date().timeIntervalSince1970
    do {
      try database.transaction { () throws(DatabaseError) in
        let mark = try database.prepare(
          "INSERT INTO damage(asset_id, kind, detected_at) VALUES (?1, ?2, ?3) "
            + "ON CONFLICT(asset_id) DO UPDATE SET kind = excluded.kind")
        let clear = try database.prepare("DELETE FROM damage WHERE asset_id = ?1")
        for (asset, found) in zip(assets, results) {
          let damage: Asset.Damage? =
            switch found {
            case .missing: .missing
            case .notAFile: .notAFile
            case .digest(let digest) where digest != asset.sha256: .hashMismatch
            case .digest: nil
            }
          if let damage {
            report.damaged.append(.init(id: asset.id, damage: damage))
            try mark.bind(.text(asset.id.rawValue), .text(damage.rawValue), .double(now)).run()
          } else if asset.damage != nil {
            try clear.bind(.text(asset.id.rawValue)).run()
          }
        }
      }
      let referenced = Set(assets.map(\.sha256.hex))
      let pending = try pendingPlacements()
      for entry in try objectEntries() where !referenced.contains(entry.name) || !entry.isFanOutChild {
        if entry.isFanOutChild && pending.contains(entry.name) {
          report.interrupted += 1
        } else {
          report.unreferenced.append(entry.relativePath)
        }
      }
    } catch {
      throw Error(anyFailure: error)
    }
    return report
  }

  /// Hex names of objects that recorded intents are about (an unfinished import's placement).
  func pendingPlacements() throws(DatabaseError) -> Set<String> {
    let select = try database.prepare("SELECT object FROM intents")
    var names: Set<String> = []
    while try select.step() { names.insert(select.text(0) ?? "") }
    return names
  }

  /// What one object turned out to be when verified.
  enum ObjectCheck: Sendable {
    case missing, notAFile
    case digest(SHA256Digest)
  }

  /// Checks each object, two at a time, off the actor and on I/O lanes (opening and hashing whole files
  /// blocks: never on a thread of Swift's cooperative pool).
  private static func hashAll(
    _ objects: [(SHA256Digest, AssetID)], library: Library, progress: (@Sendable (Int, Int) -> Void)?
  ) async -> [ObjectCheck] {
    var results = [ObjectCheck](repeating: .missing, count: objects.count)
    let check: @Sendable (Int) -> (Int, ObjectCheck) = { index in
      let (digest, id) = objects[index]
      do throws(Error) {
        let descriptor = try library.openObject(digest, id: id)
        defer { Syscalls.close(descriptor) }
        let found = try? FileHasher.hash(descriptor: descriptor, path: library.objectPath(for: digest))
        return (index, found.map(ObjectCheck.digest) ?? .missing)
      } catch {
        if case .damagedObject = error { return (index, .notAFile) }
        return (index, .missing)
      }
    }
    await withTaskGroup(of: (Int, ObjectCheck).self) { group in
      var next = 0
      var done = 0
      for _ in 0..<min(2, objects.count) {
        let index = next
        next += 1
        group.addTask { await BlockingLanes.io.run { check(index) } }
      }
      while let (index, found) = await group.next() {
        results[index] = found
        done += 1
        progress?(done, objects.count)
        if next < objects.count {
          let index = next
          next += 1
          group.addTask { await BlockingLanes.io.run { check(index) } }
        }
      }
    }
    return results
  }

  /// Copies an asset's bytes to `destination` (a file path, or an existing folder to put it in under its
  /// name) without ever overwriting: written to a temporary file beside it, fsynced, then linked into place.
  ///
  /// The bytes are re-hashed while they are copied: an asset whose bytes no longer match is refused
  /// (``Error/alteredObject(_:)``) and nothing is left at the destination, unless `force` is set.
  ///
  /// - Returns: the path written.
  @discardableResult
  public func export(_ id: AssetID, to destination: String, force: Bool = false) throws(Error) -> String {
    guard let asset = try fetchAsset(id) else { throw .notFound(id) }
    if asset.damage != nil && !force { throw .alteredObject(id) }
    let target: String
    if let info = try? Syscalls.lstat(destination), Platform.fileType(info.st_mode) == .directory {
      let name = asset.name ?? "\(asset.id).\(asset.type.preferredFilenameExtension)"
      target = (destination.hasSuffix("/") ? destination : destination + "/") + name
    } else {
      target = destination
    }
    let descriptor = try openObject(asset.sha256, id: id)
    defer { Syscalls.close(descriptor) }
    try FileExporter.copyNoClobber(
      from: descriptor, path: objectPath(for: asset), to: target, expecting: force ? nil : asset.sha256,
      id: id)
    return target
  }
}
