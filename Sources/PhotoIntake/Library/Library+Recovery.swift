import Foundation

extension Library {
  /// Brings the files and the manifest back into agreement after a crash (invariant 2 of DESIGN.md).
  ///
  /// - Staging files are parts of imports that were never acknowledged: deleted.
  /// - An object with no row is the window between `rename` and `COMMIT`: the import was not acknowledged, so
  ///   the object is deleted.
  /// - A row whose object is missing was acknowledged and then lost outside our control (a restore, a user
  ///   deleting files): it is kept, marked damaged and reported, never dropped silently.
  /// - A row whose object has another size than recorded (truncated or overwritten by someone else) is marked
  ///   damaged too. Comparing sizes costs one `lstat` per object; comparing hashes would read the whole
  ///   library at every open, so that is ``verify(progress:)``'s job.
  ///
  /// The reconciliation walks the 256 fan-out folders and, for each, the manifest rows of that hash prefix
  /// (an index range scan), so memory stays proportional to one folder.
  static func recover(root: String, database: Database, reconcile: Bool) throws -> RecoveryReport {
    var report = RecoveryReport()
    let staging = root + "/staging"
    for name in try Syscalls.contentsOfDirectory(staging) {
      try Syscalls.unlink(staging + "/" + name)
      report.removedStagingFiles += 1
    }
    guard reconcile else { return report }
    let select = try database.prepare(
      "SELECT sha256, id, size FROM assets WHERE sha256 >= ?1 AND sha256 < ?2")
    let digits = Array("0123456789abcdef")
    var missing: [AssetID] = []
    var altered: [AssetID] = []
    for (index, prefix) in (0..<256).map({ "\(digits[$0 >> 4])\(digits[$0 & 15])" }).enumerated() {
      let folder = "\(root)/objects/\(prefix)"
      var onDisk = Set(try Syscalls.contentsOfDirectory(folder))
      let upper = index == 255 ? "g" : "\(digits[(index + 1) >> 4])\(digits[(index + 1) & 15])"
      try select.bind(.text(prefix), .text(upper))
      while try select.step() {
        let hex = select.text(0) ?? ""
        guard let id = select.text(1).map(AssetID.init(rawValue:)) else { continue }
        if onDisk.remove(hex) == nil {
          missing.append(id)
        } else if let info = try? Syscalls.lstat(folder + "/" + hex), Int64(info.st_size) != select.int(2) {
          altered.append(id)
        }
      }
      for orphan in onDisk {
        try Syscalls.unlink(folder + "/" + orphan)
        report.removedOrphanObjects += 1
      }
    }
    if !missing.isEmpty || !altered.isEmpty {
      let now = Date().timeIntervalSince1970
      try database.transaction { () throws(DatabaseError) in
        let mark = try database.prepare(
          "INSERT INTO damage(asset_id, kind, detected_at) VALUES (?1, ?2, ?3) "
            + "ON CONFLICT(asset_id) DO UPDATE SET kind = excluded.kind")
        for id in missing {
          try mark.bind(.text(id.rawValue), .text(Asset.Damage.missing.rawValue), .double(now)).run()
        }
        for id in altered {
          try mark.bind(.text(id.rawValue), .text(Asset.Damage.hashMismatch.rawValue), .double(now)).run()
        }
      }
    }
    report.missingObjects = missing
    report.alteredObjects = altered
    return report
  }
}
