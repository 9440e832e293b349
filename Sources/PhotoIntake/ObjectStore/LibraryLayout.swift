#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What is at a library's root before it is opened — enough to refuse, without creating or deleting anything,
/// a folder whose manifest is gone while photos are stored — and the opening of its parts.
struct LibraryLayout {
  /// What kind of file `manifest.sqlite` is; nil when there is none.
  var manifestKind: FileKind?
  /// The manifest is missing or has no bytes (a new library, or one whose manifest was lost).
  var manifestIsEmpty: Bool
  /// `objects/` holds at least one entry that is not an empty fan-out folder.
  var holdsObjects: Bool
  /// `objects/` exists: the folder was made a library, even if its creation was interrupted before the
  /// manifest was written.
  var hasObjectsFolder: Bool

  /// Opens the parts of the library at `root`: its folder, checked (``refuseUnlessUsable(root:createIfNeeded:)``
  /// unless `forRepair`), its object store and its manifest, making what a new library lacks. Blocks: on a lane.
  static func open(at root: String, configuration: Library.Configuration, forRepair: Bool) throws(Library
    .Error)
    -> (root: String, manifest: Manifest, store: ObjectStore)
  {
    let root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    let folder: Directory
    do {
      folder = try Directory(opening: root, create: configuration.createIfNeeded || forRepair)
    } catch  where error.code == ENOENT {
      throw .notALibrary(root)
    } catch  where error.code == EROFS {
      throw .readOnly
    } catch {
      throw .cannotOpen(reason: error.description)
    }
    let layout = try inspect(folder)
    if !forRepair { try layout.refuseUnlessUsable(root: root, createIfNeeded: configuration.createIfNeeded) }
    // Storage this process cannot write is read, never written: the writer's connection could not even open
    // (WAL needs its log and index beside the manifest), and every write is refused up front as `.readOnly`.
    let writable = layout.isWritable(folder)
    if forRepair && !writable { throw .readOnly }
    if !forRepair && (configuration.readOnly || !writable),
      let opened = try openForReading(folder, root: root, layout: layout, writable: writable)
    {
      return opened
    }
    let store = try openStore(folder, create: true)
    let manifest: Manifest
    do {
      manifest = try Manifest.open(
        at: root + "/manifest.sqlite", maximumPages: configuration.maximumManifestPages)
    } catch {
      throw Library.Error(error)
    }
    // O(1): the journal's end against the manifest's applied sequence. Repair opens whatever is there, to mend it.
    if !forRepair { try JournalCheck.check(manifest, journal: store.journal) }
    return (root, manifest, store)
  }

  /// The library's object store in `folder` (its folders made if `create`): a link or file in place of one of
  /// them is a damaged layout, anything else a library that cannot be opened.
  private static func openStore(_ folder: Directory, create: Bool) throws(Library.Error) -> ObjectStore {
    do {
      return try ObjectStore(root: folder, create: create)
    } catch  where error.code == ELOOP || error.code == ENOTDIR {
      throw .damagedLayout("\(error.path.map(lastComponent) ?? "a library folder") is not a folder")
    } catch {
      throw .cannotOpen(reason: error.description)
    }
  }

  /// Opens the parts of a library for reading only: nothing is created, made durable or migrated. A manifest
  /// that must be made or migrated first cannot be read so: nil where the storage can be written (the caller
  /// then opens it to write), else ``Library/Error/cannotOpen(reason:)`` saying why.
  private static func openForReading(_ folder: Directory, root: String, layout: LibraryLayout, writable: Bool)
    throws(Library.Error) -> (root: String, manifest: Manifest, store: ObjectStore)?
  {
    if layout.manifestIsEmpty {
      if writable { return nil }
      throw .cannotOpen(reason: "its manifest has not been made yet, and making it needs write access")
    }
    let store = try openStore(folder, create: false)
    let logHoldsCommits: Bool
    do {
      logHoldsCommits = (try folder.status("manifest.sqlite-wal")).map { $0.st_size > 0 } ?? false
    } catch {
      throw .cannotOpen(reason: error.description)
    }
    let manifest: Manifest
    do {
      manifest = try Manifest.openForReading(at: root + "/manifest.sqlite", logHoldsCommits: logHoldsCommits)
    } catch  where error.code == ExtendedCode.needsMigration && writable {
      return nil
    } catch  where error.code & 0xFF == SQLITE_CANTOPEN && logHoldsCommits {
      throw .cannotOpen(
        reason: "its manifest has recent changes in its write-ahead log, which can be read only where the "
          + "log's index (manifest.sqlite-shm) exists or can be made")
    } catch {
      throw Library.Error(error)
    }
    try JournalCheck.check(manifest, journal: store.journal)
    return (root, manifest, store)
  }

  /// Whether this process can write the library at `folder`: the folder, and its manifest and the manifest's
  /// log and index where they exist (a manifest without write permission opens read-only in SQLite, and its
  /// writes would fail). Read-only media fail this for root too; permissions do not.
  func isWritable(_ folder: Directory) -> Bool {
    let names =
      ["."] + (manifestKind == nil ? [] : ["manifest.sqlite", "manifest.sqlite-wal", "manifest.sqlite-shm"])
    return names.allSatisfy { Syscalls.isWritable(folder.descriptor, $0, path: folder.path(of: $0)) }
  }

  /// What is at the root `root`.
  static func inspect(_ root: Directory) throws(Library.Error) -> LibraryLayout {
    do {
      let manifest = try root.status("manifest.sqlite")
      let kind = manifest.map { Platform.fileType($0.st_mode) }
      let empty = manifest == nil || (kind == .regular && manifest!.st_size == 0)
      // Only a missing manifest needs the look into objects/: at most 256 small folders, until the first file.
      return LibraryLayout(
        manifestKind: kind, manifestIsEmpty: empty, holdsObjects: empty ? try holdsObjects(root) : false,
        hasObjectsFolder: try root.status("objects") != nil)
    } catch {
      throw .cannotOpen(reason: error.description)
    }
  }

  /// Refuses to open what is not a usable library, without creating or changing anything: a manifest that is
  /// not a file, a manifest gone while photos are stored, or (unless creating was asked) a stranger's folder.
  func refuseUnlessUsable(root: String, createIfNeeded: Bool) throws(Library.Error) {
    if let manifestKind, manifestKind != .regular {
      throw .damagedLayout("the manifest is \(manifestKind.phrase)")
    }
    guard manifestIsEmpty else { return }
    if holdsObjects { throw .manifestMissing }
    // A library whose creation was interrupted (its folders exist, nothing was stored) is an empty library,
    // not a stranger's folder: it is completed even when creating was not asked for.
    if !createIfNeeded && !hasObjectsFolder { throw .notALibrary(root) }
  }

  /// The last component of a path, for messages that must not show the user's whole path.
  static func lastComponent(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  private static func holdsObjects(_ root: Directory) throws(SystemError) -> Bool {
    guard let info = try root.status("objects") else { return false }
    guard Platform.fileType(info.st_mode) == .directory else { return true }
    let objects = try root.subdirectory("objects")
    for name in try objects.entries() {
      guard let text = Directory.utf8(name), let entry = try objects.status(text),
        Platform.fileType(entry.st_mode) == .directory
      else { return true }
      let folder = try objects.subdirectory(text)
      if try !folder.entries().isEmpty { return true }
    }
    return false
  }
}
