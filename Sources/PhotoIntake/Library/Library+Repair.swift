import Foundation
import PhotoMetadata

#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif

/// What ``Library/repair()`` did. Nothing is ever deleted but renditions (caches the library made): whatever
/// does not belong is moved into `lost+found/`.
public struct RepairReport: Sendable, Hashable, Codable {
  /// An entry moved into `lost+found/`: where it was and where it is now, relative to the library.
  public struct Move: Sendable, Hashable, Codable {
    /// Where the entry was.
    public var from: String
    /// Where it is now, under `lost+found/`.
    public var to: String
    /// Why it did not belong ("a symbolic link", "bytes that do not match its name", …).
    public var reason: String
  }

  /// What undoing interrupted writes did first.
  public var recovery = RecoveryReport()
  /// Whether the manifest was missing, empty or unreadable and was made anew.
  public var rebuiltManifest = false
  /// Assets made for valid objects that had no row, in the batch ``adoptedBatch``.
  public var adopted: [AssetID] = []
  /// The batch that holds the adopted assets (named for the repair), if any were adopted.
  public var adoptedBatch: BatchID?
  /// Entries that were not valid objects, staging files or renditions, moved aside.
  public var moved: [Move] = []
  /// Rendition files of objects the library no longer has (and unfinished rendition writes), deleted.
  public var removedRenditions = 0
  /// Assets whose bytes are missing or are not a file, marked damaged.
  public var damaged: [AssetID] = []

  /// An empty report: nothing was repaired.
  public init() {}
}

extension Library {
  /// Repairs the library at `root` even when it cannot be opened otherwise: a missing, empty or unreadable
  /// manifest (an unreadable one, and its log, are moved into `lost+found/` first and a new one is made), or a
  /// library folder that is a link or a file (moved aside and made anew). Then runs ``repair()``.
  public static func repair(at root: String, configuration: Configuration = Configuration())
    async throws(Error)
    -> RepairReport
  {
    // Moving things aside, opening SQLite and migrating block (mkdirat, rename, fsync): on an I/O lane.
    let (library, moved, rebuilt) = try await BlockingLanes.io.run {
      () throws(Error) -> (Library, [RepairReport.Move], Bool) in
      try openForRepair(at: root, configuration: configuration)
    }
    var report = try await library.repair()
    report.moved = moved + report.moved
    report.rebuiltManifest = report.rebuiltManifest || rebuilt
    return report
  }

  /// The blocking part of ``repair(at:configuration:)``: what cannot be opened is moved aside, then the library
  /// is opened (and made anew where needed).
  private static func openForRepair(at root: String, configuration: Configuration) throws(Error)
    -> (Library, [RepairReport.Move], Bool)
  {
    var moved: [RepairReport.Move] = []
    var rebuilt = false
    let top: Directory
    do {
      top = try Directory(opening: root, create: true)
      if let layout = try? LibraryLayout.inspect(top), layout.manifestIsEmpty, layout.holdsObjects {
        rebuilt = true
      }
      for name in ["manifest.sqlite", "objects", "staging", "renditions", "lost+found"] {
        guard let info = try top.status(name) else { continue }
        let kind = Platform.fileType(info.st_mode)
        let expected: FileKind = name == "manifest.sqlite" ? .regular : .directory
        if kind != expected {
          let to = try moveAside(Array(name.utf8), in: top, relative: name, root: top)
          moved.append(.init(from: name, to: to, reason: "it was \(kind.phrase)"))
          rebuilt = rebuilt || name == "manifest.sqlite"
        }
      }
    } catch {
      throw .cannotOpen(reason: error.description)
    }
    let library: Library
    do {
      library = try openChecked(at: root, configuration: configuration, forRepair: true)
    } catch .manifestUnreadable {
      do {
        for name in ["manifest.sqlite", "manifest.sqlite-wal", "manifest.sqlite-shm"]
        where try top.status(name) != nil {
          let to = try moveAside(Array(name.utf8), in: top, relative: name, root: top)
          moved.append(.init(from: name, to: to, reason: "SQLite cannot read it"))
        }
      } catch {
        throw .cannotOpen(reason: error.description)
      }
      rebuilt = true
      library = try openChecked(at: root, configuration: configuration, forRepair: true)
    }
    return (library, moved, rebuilt)
  }

  /// Brings the files and the manifest into agreement without deleting anything of the user's:
  ///
  /// - interrupted writes are undone (``recoverInterruptedWork()``);
  /// - every object without a row whose bytes hash to its name is adopted: re-read, given a row, listed in a
  ///   batch named for the repair;
  /// - anything else under `objects/` and `staging/` (wrong hash, wrong name, a folder, a FIFO, a link) is
  ///   moved into `lost+found/` without being followed; an object a row references is never moved;
  /// - renditions of objects the library does not have are deleted (they are caches);
  /// - rows whose object is missing or not a file are marked damaged.
  ///
  /// - Throws: ``Error/busy`` when another process keeps writing for longer than the wait.
  public func repair() async throws(Error) -> RepairReport {
    try await beginWriting()
    defer { endWriting() }
    var report = RepairReport()
    report.recovery = lastRecovery
    do {
      let rows = try referencedObjects()
      var present: Set<String> = []
      var batch: BatchRecord?
      for entry in try objectEntries() {
        let name = Directory.utf8(entry.rawName)
        if entry.isFanOutChild, let name, rows[name] != nil {
          present.insert(name)
          continue
        }
        if entry.isFanOutChild, let name, let digest = SHA256Digest(hex: name), digest.hex == name,
          let (type, size) = try adoptable(digest, in: entry.folder)
        {
          if batch == nil {
            batch = try beginRepairBatch()
            report.adoptedBatch = batch?.id
          }
          let asset = try adopt(digest, type: type, size: size, batch: batch!, position: report.adopted.count)
          report.adopted.append(asset.id)
          continue
        }
        let reason = try whyNotAnObject(entry)
        let to = try moveAside(entry.rawName, in: entry.folder, relative: entry.relativePath)
        report.moved.append(.init(from: entry.relativePath, to: to, reason: reason))
      }
      try moveAsideStaging(into: &report)
      report.removedRenditions = try sweepRenditions(keeping: Set(rows.keys), into: &report)
      for (hex, id) in rows where !present.contains(hex) { report.damaged.append(id) }
      try mark(report.damaged)
      if !report.adopted.isEmpty { publish(LibraryChange(inserted: report.adopted)) }
    } catch {
      throw Error(anyFailure: error)
    }
    return report
  }

  /// Every row's object name and asset id.
  private func referencedObjects() throws(DatabaseError) -> [String: AssetID] {
    let select = try database.prepare("SELECT sha256, id FROM assets")
    var rows: [String: AssetID] = [:]
    while try select.step() { rows[select.text(0) ?? ""] = AssetID(rawValue: select.text(1) ?? "") }
    return rows
  }

  /// The type and size of an unreferenced object if it is a regular file whose bytes hash to its name and
  /// sniff as a supported format; nil otherwise.
  private func adoptable(_ digest: SHA256Digest, in folder: Directory) throws(SystemError) -> (
    MediaType, Int64
  )? {
    guard let (descriptor, status) = try? folder.openRegularFile(digest.hex) else { return nil }
    defer { Syscalls.close(descriptor) }
    guard try FileHasher.hash(descriptor: descriptor, path: folder.path(of: digest.hex)) == digest else {
      return nil
    }
    let prefix = UnsafeMutableRawBufferPointer.allocate(byteCount: MediaType.sniffLength, alignment: 1)
    defer { prefix.deallocate() }
    let count = try Syscalls.pread(descriptor, into: prefix, at: 0, path: folder.path(of: digest.hex))
    return MediaType.sniff(Array(prefix.prefix(count))).map { ($0, Int64(status.st_size)) }
  }

  private func beginRepairBatch() throws(DatabaseError) -> BatchRecord {
    let id = BatchID(rawValue: "repair-" + BatchID.make().rawValue)
    try database.prepare("INSERT INTO batches(id, created_at) VALUES (?1, ?2)")
      .bind(.text(id.rawValue), .double(Date().timeIntervalSince1970)).run()
    return BatchRecord(id: id, sequence: sqlite3_last_insert_rowid(database.handle))
  }

  /// Gives a valid object a row, with the facts read from its bytes.
  private func adopt(_ digest: SHA256Digest, type: MediaType, size: Int64, batch: BatchRecord, position: Int)
    throws -> Asset
  {
    let path = objectPath(for: digest)
    var limits = MetadataReader.Limits()
    limits.maxPixels = .max
    let metadata = try? MetadataReader.read(
      fileAt: path, hint: type.preferredFilenameExtension, limits: limits)
    let asset = Asset(
      id: .make(), sha256: digest, size: size, type: metadata?.type ?? type, name: nil, importedAt: Date(),
      batch: batch.id,
      position: position, damage: nil, metadata: metadata, locationStripped: false)
    try database.transaction { () throws(DatabaseError) in
      try insertRow(asset, batch: batch)
    }
    return asset
  }

  private func whyNotAnObject(_ entry: ObjectEntry) throws(SystemError) -> String {
    guard let name = Directory.utf8(entry.rawName), let info = try entry.folder.status(name) else {
      return "its name is not an object's name"
    }
    let kind = Platform.fileType(info.st_mode)
    if kind != .regular { return "it was \(kind.phrase)" }
    if !entry.isFanOutChild || SHA256Digest(hex: name)?.hex != name {
      return "its name is not an object's name"
    }
    return "its bytes do not match its name, or are not a supported format"
  }

  /// Staging holds nothing of a running writer now (this one holds the lock and stages nothing): every entry
  /// is moved aside, except a file parked by a pick still under way (younger than an hour).
  private func moveAsideStaging(into report: inout RepairReport) throws(SystemError) {
    let now = Date().timeIntervalSince1970
    for raw in try staging.entries() {
      if let name = Directory.utf8(raw), name.hasPrefix("parked-"), let info = try staging.status(name),
        now - Double(Platform.modificationNanoseconds(info)) / 1e9 < 3600
      {
        continue
      }
      let relative = "staging/" + ObjectEntry.escaped(raw)
      let to = try moveAside(raw, in: staging, relative: relative)
      report.moved.append(.init(from: relative, to: to, reason: "no unfinished write owns it"))
    }
  }

  /// Deletes rendition files whose object the library does not have, and unfinished rendition writes; moves
  /// aside anything in `renditions/` that is not a regular file.
  private func sweepRenditions(keeping objects: Set<String>, into report: inout RepairReport)
    throws(SystemError) -> Int
  {
    var removed = 0
    for raw in try renditions.entries() {
      let relative = "renditions/" + ObjectEntry.escaped(raw)
      guard let name = Directory.utf8(raw), let info = try renditions.status(name),
        Platform.fileType(info.st_mode) == .directory
      else {
        let to = try moveAside(raw, in: renditions, relative: relative)
        report.moved.append(.init(from: relative, to: to, reason: "not a renditions folder"))
        continue
      }
      let folder = try renditions.subdirectory(name)
      for child in try folder.entries() {
        let childRelative = relative + "/" + ObjectEntry.escaped(child)
        guard let text = Directory.utf8(child), let info = try folder.status(text),
          Platform.fileType(info.st_mode) == .regular
        else {
          let to = try moveAside(child, in: folder, relative: childRelative)
          report.moved.append(.init(from: childRelative, to: to, reason: "not a rendition file"))
          continue
        }
        if !objects.contains(String(text.prefix(64))) || text.hasPrefix(".") {
          try folder.unlink(text)
          removed += 1
        }
      }
    }
    return removed
  }

  private func mark(_ damaged: [AssetID]) throws(DatabaseError) {
    guard !damaged.isEmpty else { return }
    let now = Date().timeIntervalSince1970
    try database.transaction { () throws(DatabaseError) in
      let mark = try database.prepare(
        "INSERT INTO damage(asset_id, kind, detected_at) VALUES (?1, ?2, ?3) "
          + "ON CONFLICT(asset_id) DO UPDATE SET kind = excluded.kind")
      for id in damaged {
        try mark.bind(.text(id.rawValue), .text(Asset.Damage.missing.rawValue), .double(now)).run()
      }
    }
  }
}
