import Foundation
import PhotoMetadata

extension Library {
  /// Repairs the library at `root` even when it cannot be opened otherwise: a missing, empty or unreadable
  /// manifest (an unreadable one, and its log, are moved into `lost+found/` first and a new one is made), or a
  /// library folder that is a link or a file (moved aside and made anew; a `lost+found` that is not a folder is
  /// renamed `lost+found.<n>` beside it). Then runs ``repair()``.
  public static func repair(at root: String, configuration: Configuration = Configuration())
    async throws(Error)
    -> RepairReport
  {
    // Moving things aside, opening SQLite and migrating block (mkdirat, rename, fsync): on an I/O lane.
    let (library, moved, rebuilt) = try await BlockingLanes.io.run {
      () throws(Error) -> (Library, [RepairReport.Move], Bool) in
      try Repair.open(at: root, configuration: configuration)
    }
    // Before the repair takes the writer's turn: a manifest made anew gets back what the identity journal holds
    // (the writer's turn refuses a manifest behind its journal).
    let restored = try await Repair.restoreIdentities(manifest: library.manifest, store: library.store)
    var report = try await library.repair()
    report.restored = restored
    report.moved = moved + report.moved
    report.rebuiltManifest = report.rebuiltManifest || rebuilt
    return report
  }

  /// Brings the files and the manifest into agreement without deleting anything of the user's:
  ///
  /// - interrupted writes are undone (``recoverInterruptedWork()``);
  /// - every object without a row whose bytes hash to its name is adopted: copied to an inode of its own
  ///   (read-only, like an imported object, so that no hard link from outside the library can change it),
  ///   re-read, given a row, listed in a batch named for the repair;
  /// - anything else under `objects/` and `staging/` (wrong hash, wrong name, a folder, a FIFO, a link) is
  ///   moved into `lost+found/` without being followed; an object a row references is never moved;
  /// - renditions of objects the library does not have are deleted (they are caches);
  /// - rows whose object is missing or not a file are marked damaged.
  ///
  /// - Throws: ``Error/busy`` when another process keeps writing for longer than the wait.
  public func repair() async throws(Error) -> RepairReport {
    try await whileWriting { () throws(Error) in
      var report = try await Repair(manifest: manifest, store: store).run()
      report.recovery = lastRecovery
      if !report.adopted.isEmpty { publish(LibraryChange(inserted: report.adopted)) }
      return report
    }
  }
}

/// A library's repair, built on the ``Manifest`` and the ``ObjectStore`` alone; the library runs it while it
/// holds the writer lock. File work runs on the I/O lanes, rows on the manifest's executor.
struct Repair: Sendable {
  let manifest: Manifest
  let store: ObjectStore

  /// What one entry under `objects/` turned out to be.
  private enum Finding: Sendable {
    /// A valid object without a row: its facts, for its new row.
    case adoptable(SHA256Digest, MediaType, size: Int64, metadata: MediaMetadata?)
    /// Moved into `lost+found/`.
    case moved(RepairReport.Move)
  }

  /// Runs the repair (the writer lock is held).
  func run() async throws(Library.Error) -> RepairReport {
    var report = RepairReport()
    do {
      let rows = try await manifest.referencedObjects()
      let (present, findings, moved, removed, unreadable) = try await BlockingLanes.io.run {
        [store] () throws(SystemError) in
        let (entries, unreadable) = try store.entries()
        let (present, findings) = try Self.sort(entries, referenced: rows, store: store)
        var moved = try Self.moveAsideStaging(store)
        let removed = try Self.sweepRenditions(keeping: Set(rows.keys), store: store, moved: &moved)
        return (present, findings, moved, removed, unreadable)
      }
      report.unreadable = unreadable
      var batch: BatchRecord?
      for finding in findings {
        switch finding {
        case .moved(let move):
          report.moved.append(move)
        case .adoptable(let digest, let type, let size, let metadata):
          if batch == nil {
            batch = try await manifest.beginBatch(BatchID(rawValue: "repair-" + BatchID.make().rawValue))
            report.adoptedBatch = batch?.id
          }
          let asset = Asset(
            id: .make(), sha256: digest, size: size, type: metadata?.type ?? type, name: nil,
            importedAt: Date(),
            batch: batch!.id, position: report.adopted.count, damage: nil, metadata: metadata,
            locationStripped: false)
          _ = try await manifest.adopt([asset], batch: batch!)
          report.adopted.append(asset.id)
        }
      }
      // The adopted assets' identity records, in the journal with one fsync for them all.
      if !report.adopted.isEmpty, let failure = await manifest.flushJournal(to: try store.writableJournal()) {
        switch failure {
        case .manifest(let error): throw error
        case .storage(let error): throw error
        case .damagedLayout(let what): throw Library.Error.damagedLayout(what)
        }
      }
      report.moved += moved
      report.removedRenditions = removed
      // An object in a folder that could not be read is not known to be missing: reported, never marked.
      for (hex, id) in rows where !present.contains(hex) && !unreadable.contains("objects/" + hex.prefix(2)) {
        report.damaged.append(id)
      }
      try await manifest.setDamage(report.damaged.map { ($0, .missing) })
    } catch {
      throw Library.Error(anyFailure: error)
    }
    return report
  }

  /// Sorts the entries of `objects/`: the objects rows reference (present), valid objects without a row
  /// (adoptable), and everything else, moved aside.
  private static func sort(_ entries: [ObjectEntry], referenced rows: [String: AssetID], store: ObjectStore)
    throws(SystemError) -> (present: Set<String>, findings: [Finding])
  {
    var present: Set<String> = []
    var findings: [Finding] = []
    for entry in entries {
      let name = Directory.utf8(entry.rawName)
      if entry.isFanOutChild, let name, rows[name] != nil {
        present.insert(name)
        continue
      }
      if entry.isFanOutChild, let name, let digest = SHA256Digest(hex: name), digest.hex == name,
        let (type, size) = try adoptable(digest, in: entry.folder, store: store, copying: .always)
      {
        var limits = MetadataReader.Limits()
        limits.maxPixels = .max
        let metadata = try? MetadataReader.read(
          fileAt: store.path(of: digest), hint: type.preferredFilenameExtension, limits: limits)
        findings.append(.adoptable(digest, type, size: size, metadata: metadata))
        continue
      }
      let reason = try whyNotAnObject(entry)
      let to = try store.moveAside(entry.rawName, in: entry.folder, relative: entry.relativePath)
      findings.append(.moved(.init(from: entry.relativePath, to: to, reason: reason)))
    }
    return (present, findings)
  }

  /// The type and size of an object repair takes in if it is a regular file whose bytes hash to its name and
  /// sniff as a supported format; nil otherwise. The object is first made the library's own
  /// (``ObjectStore/takeIn(_:in:copying:)``: an inode of its own, read-only) as `rule` says.
  ///
  /// - Throws: a failure to make the copy (a full disk).
  static func adoptable(
    _ digest: SHA256Digest, in folder: Directory, store: ObjectStore, copying rule: ObjectStore.Ownership
  ) throws(SystemError) -> (MediaType, Int64)? {
    guard let facts = try store.takeIn(digest, in: folder, copying: rule) else { return nil }
    return MediaType.sniff(facts.prefix).map { ($0, facts.size) }
  }

  private static func whyNotAnObject(_ entry: ObjectEntry) throws(SystemError) -> String {
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

  /// Staging holds nothing of a running writer now (the repair holds the lock and stages nothing): every entry
  /// is moved aside, except a file parked by a pick still under way (younger than an hour).
  private static func moveAsideStaging(_ store: ObjectStore) throws(SystemError) -> [RepairReport.Move] {
    let now = Date().timeIntervalSince1970
    var moved: [RepairReport.Move] = []
    for raw in try store.staging.entries() {
      if let name = Directory.utf8(raw), name.hasPrefix("parked-"), let info = try store.staging.status(name),
        now - Double(Platform.modificationNanoseconds(info)) / 1e9 < 3600
      {
        continue
      }
      let relative = "staging/" + ObjectEntry.escaped(raw)
      let to = try store.moveAside(raw, in: store.staging, relative: relative)
      moved.append(.init(from: relative, to: to, reason: "no unfinished write owns it"))
    }
    return moved
  }

  /// Deletes rendition files whose object the library does not have, and unfinished rendition writes; moves
  /// aside anything in `renditions/` that is not a regular file. Returns how many files were deleted.
  private static func sweepRenditions(
    keeping objects: Set<String>, store: ObjectStore, moved: inout [RepairReport.Move]
  ) throws(SystemError) -> Int {
    var removed = 0
    let renditions = store.renditions
    for raw in try renditions.entries() {
      let relative = "renditions/" + ObjectEntry.escaped(raw)
      guard
        let name = try keep(
          raw, in: renditions, if: .directory, relative: relative, reason: "not a renditions folder",
          store: store, moved: &moved)
      else { continue }
      let folder = try renditions.subdirectory(name)
      for child in try folder.entries() {
        guard
          let text = try keep(
            child, in: folder, if: .regular, relative: relative + "/" + ObjectEntry.escaped(child),
            reason: "not a rendition file", store: store, moved: &moved)
        else { continue }
        if !objects.contains(String(text.prefix(64))) || text.hasPrefix(".") {
          try folder.unlink(text)
          removed += 1
        }
      }
    }
    return removed
  }

  /// The name of the entry `raw` in `folder` if it is of `kind`; otherwise the entry is moved aside (and the
  /// move recorded in `moved`) and the result is nil.
  private static func keep(
    _ raw: [UInt8], in folder: Directory, if kind: FileKind, relative: String, reason: String,
    store: ObjectStore, moved: inout [RepairReport.Move]
  ) throws(SystemError) -> String? {
    if let name = Directory.utf8(raw), let info = try folder.status(name),
      Platform.fileType(info.st_mode) == kind
    {
      return name
    }
    let to = try store.moveAside(raw, in: folder, relative: relative)
    moved.append(.init(from: relative, to: to, reason: reason))
    return nil
  }

  /// The blocking part of ``Library/repair(at:configuration:)``: what cannot be opened is moved aside, then
  /// the library is opened (and made anew where needed).
  static func open(at root: String, configuration: Library.Configuration) throws(Library.Error)
    -> (Library, [RepairReport.Move], Bool)
  {
    var moved: [RepairReport.Move] = []
    var rebuilt = false
    let top: Directory
    var storageFailure: Library.Error?
    if configuration.readOnly { throw .readOnly }
    do throws(SystemError) {
      top = try Directory(opening: root, create: true)
      // Storage this process cannot write is refused before anything is moved.
      guard Syscalls.isWritable(top.descriptor, ".", path: root) else { throw SystemError(.access, EROFS) }
      if let layout = try? LibraryLayout.inspect(top), layout.manifestIsEmpty, layout.holdsObjects {
        rebuilt = true
      }
      // A `lost+found` that is not a folder first (everything else is moved into it): renamed beside it.
      if let info = try top.status("lost+found"), Platform.fileType(info.st_mode) != .directory,
        let to = try ObjectStore.lostAndFound(in: top).setAside
      {
        moved.append(
          .init(from: "lost+found", to: to, reason: "it was \(Platform.fileType(info.st_mode).phrase)"))
      }
      for name in ["manifest.sqlite", "objects", "staging", "renditions", "journal"] {
        guard let info = try top.status(name) else { continue }
        let kind = Platform.fileType(info.st_mode)
        let expected: FileKind = name == "manifest.sqlite" ? .regular : .directory
        if kind != expected {
          let to = try ObjectStore.moveAside(Array(name.utf8), in: top, relative: name, root: top)
          moved.append(.init(from: name, to: to, reason: "it was \(kind.phrase)"))
          rebuilt = rebuilt || name == "manifest.sqlite"
        }
      }
      // A manifest that opens but cannot be trusted (damaged pages or header, commits lost from its log) is set
      // aside like an unreadable one; the identity journal gives the new one back what it held.
      if let info = try top.status("manifest.sqlite"), Platform.fileType(info.st_mode) == .regular,
        info.st_size > 0
      {
        let why: String?
        do {
          why = try whyNotTrusted(root: root, journal: try? IdentityJournal(root: top, create: false))
        } catch {
          // A full disk or read-only storage is the storage's failure, not the manifest's: it is kept as it is.
          storageFailure = error
          why = nil
        }
        if let why {
          moved += try setAside(
            ["manifest.sqlite", "manifest.sqlite-wal", "manifest.sqlite-shm"], in: top, why)
          rebuilt = true
        }
      }
    } catch {
      // A full disk and read-only storage are named as such; anything else is the folder's failure to open.
      throw error.isDiskFull || error.code == EROFS
        ? Library.Error(error) : .cannotOpen(reason: error.description)
    }
    if let storageFailure { throw storageFailure }
    let library: Library
    do {
      library = try Library.openChecked(at: root, configuration: configuration, forRepair: true)
    } catch .manifestUnreadable, .manifestDamaged {
      do {
        for name in ["manifest.sqlite", "manifest.sqlite-wal", "manifest.sqlite-shm"]
        where try top.status(name) != nil {
          let to = try ObjectStore.moveAside(Array(name.utf8), in: top, relative: name, root: top)
          moved.append(.init(from: name, to: to, reason: "SQLite cannot read it"))
        }
      } catch {
        throw .cannotOpen(reason: error.description)
      }
      rebuilt = true
      library = try Library.openChecked(at: root, configuration: configuration, forRepair: true)
    }
    return (library, moved, rebuilt)
  }

  /// Moves the entries `names` of `top` that exist into `lost+found/`, for `reason`.
  private static func setAside(_ names: [String], in top: Directory, _ reason: String) throws(SystemError)
    -> [RepairReport.Move]
  {
    var moved: [RepairReport.Move] = []
    for name in names where try top.status(name) != nil {
      let to = try ObjectStore.moveAside(Array(name.utf8), in: top, relative: name, root: top)
      moved.append(.init(from: name, to: to, reason: reason))
    }
    return moved
  }
}
