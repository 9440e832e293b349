import Foundation

extension Library {
  /// Removes an asset: its row (and batch listings) first, then its bytes and renditions.
  ///
  /// In that order, a crash leaves at worst an object without a row, which the next open deletes.
  public func remove(_ id: AssetID) throws(Error) {
    guard let asset = try asset(id) else { throw .notFound(id) }
    do {
      try database.transaction { () throws(DatabaseError) in
        try database.prepare("DELETE FROM batch_items WHERE asset_id = ?1").bind(.text(id.rawValue)).run()
        try database.prepare("DELETE FROM assets WHERE id = ?1").bind(.text(id.rawValue)).run()
      }
    } catch {
      throw Error(error)
    }
    try? Syscalls.unlink(objectPath(for: asset))
    removeRenditions(of: asset.sha256)
    publish(LibraryChange(removed: [id]))
  }

  /// Deletes the cached renditions of the object with this hash (`renditions/ab/<sha256>-*`).
  func removeRenditions(of digest: SHA256Digest) {
    let folder = "\(renditionsPath)/\(digest.hex.prefix(2))"
    guard let names = try? Syscalls.contentsOfDirectory(folder) else { return }
    for name in names where name.hasPrefix(digest.hex) {
      try? Syscalls.unlink(folder + "/" + name)
    }
  }

  /// Re-hashes every object and compares it with the manifest; marks and reports damaged assets, and clears
  /// the mark of assets found intact again.
  ///
  /// Hashing runs off the actor, two files at a time.
  public func verify(progress: (@Sendable (_ checked: Int, _ total: Int) -> Void)? = nil) async throws(Error)
    -> VerificationReport
  {
    let assets = try all(order: .date)
    let paths = assets.map { objectPath(for: $0) }
    let results = await Self.hashAll(paths, progress: progress)
    var report = VerificationReport()
    report.checked = assets.count
    let now = Date().timeIntervalSince1970
    do {
      try database.transaction { () throws(DatabaseError) in
        let mark = try database.prepare(
          "INSERT INTO damage(asset_id, kind, detected_at) VALUES (?1, ?2, ?3) "
            + "ON CONFLICT(asset_id) DO UPDATE SET kind = excluded.kind")
        let clear = try database.prepare("DELETE FROM damage WHERE asset_id = ?1")
        for (asset, digest) in zip(assets, results) {
          let damage: Asset.Damage? =
            switch digest {
            case .none: .missing
            case .some(let found) where found != asset.sha256: .hashMismatch
            default: nil
            }
          if let damage {
            report.damaged.append(.init(id: asset.id, damage: damage))
            try mark.bind(.text(asset.id.rawValue), .text(damage.rawValue), .double(now)).run()
          } else if asset.damage != nil {
            try clear.bind(.text(asset.id.rawValue)).run()
          }
        }
      }
    } catch {
      throw Error(error)
    }
    return report
  }

  /// SHA-256 of each file (nil when it cannot be read), computed on two tasks.
  private static func hashAll(
    _ paths: [String], progress: (@Sendable (Int, Int) -> Void)?
  ) async -> [SHA256Digest?] {
    var results = [SHA256Digest?](repeating: nil, count: paths.count)
    await withTaskGroup(of: (Int, SHA256Digest?).self) { group in
      var next = 0
      var done = 0
      let width = min(2, paths.count)
      for _ in 0..<width {
        let index = next
        next += 1
        group.addTask { (index, try? FileHasher.hash(path: paths[index])) }
      }
      while let (index, digest) = await group.next() {
        results[index] = digest
        done += 1
        progress?(done, paths.count)
        if next < paths.count {
          let index = next
          next += 1
          group.addTask { (index, try? FileHasher.hash(path: paths[index])) }
        }
      }
    }
    return results
  }

  /// Copies an asset's bytes to `destination` (a file path, or an existing folder to put it in under its
  /// name) without ever overwriting: written to a temporary file beside it, fsynced, then linked into place.
  ///
  /// - Returns: the path written.
  @discardableResult
  public func export(_ id: AssetID, to destination: String) throws(Error) -> String {
    guard let asset = try asset(id) else { throw .notFound(id) }
    if asset.damage == .missing { throw .io(reason: "the asset's bytes are missing") }
    let target: String
    if let info = try? Syscalls.lstat(destination), Platform.fileType(info.st_mode) == .directory {
      let name = asset.name ?? "\(asset.id).\(asset.type.preferredFilenameExtension)"
      target = (destination.hasSuffix("/") ? destination : destination + "/") + name
    } else {
      target = destination
    }
    try FileExporter.copyNoClobber(from: objectPath(for: asset), to: target)
    return target
  }
}
