import Dispatch
import Foundation

/// The library's files: each asset's bytes as an object named by their SHA-256 in one of 256 fan-out folders
/// (`objects/ab/<sha256>`), the staging folder where items arrive, the renditions, and `lost+found/`, where
/// whatever does not belong is moved — never deleted.
///
/// Every operation goes through the folders' descriptors and never follows a link (DESIGN.md invariant 8).
/// Objects are read through the one ``ChunkedReader``; every file is written through ``DurableFile``.
/// Its calls wait on the disk: callers make them on the blocking lanes or on the manifest's executor, never
/// on Swift's cooperative pool.
///
/// The store knows nothing of the manifest: which objects are assets, and which placements are unfinished, is
/// the ``Manifest``'s to say; the ``Library`` composes the two.
final class ObjectStore: Sendable {
  /// The library's root folder, and its folders, open for the store's lifetime.
  let root: Directory
  let objects: Directory
  let staging: Directory
  let renditions: Directory
  /// `objects/ab` folders, opened as first needed; at most ``openFolderLimit`` are kept open.
  private let fanOut = Protected<[Substring: Directory]>([:])
  /// How many fan-out folders stay open between uses. An app has few descriptors (iOS starts a process with
  /// 256), and a library that kept all 256 folders open would take them all; opening a folder again costs one
  /// `openat`. A folder in use stays open however many are evicted: each user holds its own reference.
  static let openFolderLimit = 16
  /// How many fan-out folders are open now (for tests).
  var openFolderCount: Int { fanOut.withLock { $0.count } }
  /// A new library's fan-out folders being made in the background (``makeFanOutFoldersInBackground()``).
  private let making = Protected(FanOutMaking())
  /// How objects are read.
  let reader = ChunkedReader()
  /// The identity journal (`journal/`); nil only for a library made before it whose folder cannot be written
  /// (such a library can be read, not changed).
  let journal: IdentityJournal?

  /// Opens (creating where missing) `objects/`, `staging/`, `renditions/` and `journal/` under `root`.
  ///
  /// - Throws: `ELOOP` or `ENOTDIR` when one of them is a link or a file (damage, not followed).
  /// With `create` false (a library opened for reading only), nothing is made: the folders must exist, and
  /// a missing `journal/` is no journal.
  init(root: Directory, create: Bool = true) throws(SystemError) {
    self.root = root
    objects = try root.subdirectory("objects", create: create)
    staging = try root.subdirectory("staging", create: create)
    renditions = try root.subdirectory("renditions", create: create)
    do {
      journal = try IdentityJournal(root: root, create: create)
    } catch  where [EROFS, EACCES, EPERM, ENOSPC].contains(error.code) || !create && error.code == ENOENT {
      journal = nil
    }
  }

  /// The identity journal, for a writer.
  ///
  /// - Throws: why `journal/` could not be made (read-only storage).
  func writableJournal() throws(SystemError) -> IdentityJournal {
    if let journal { return journal }
    return try IdentityJournal(root: root, create: true)
  }

  // MARK: Objects

  /// The path of the object with `digest` (for readers that take a path, and for messages).
  func path(of digest: SHA256Digest) -> String {
    "\(objects.path)/\(digest.hex.prefix(2))/\(digest.hex)"
  }

  /// The `objects/ab` folder of `digest`, opened once without following links (and made if missing).
  func folder(for digest: SHA256Digest) throws(Directory.OpenFailure) -> Directory {
    let prefix = digest.hex.prefix(2)
    if let open = fanOut.withLock({ $0[prefix] }) { return open }
    do {
      try fanOutFoldersMade()
      let folder = try objects.subdirectory(String(prefix), create: true)
      return fanOut.withLock { opened in
        if let existing = opened[prefix] { return existing }
        if opened.count >= Self.openFolderLimit { opened.remove(at: opened.startIndex) }
        opened[prefix] = folder
        return folder
      }
    } catch  where error.code == ELOOP || error.code == ENOTDIR {
      throw .notRegular(.symbolicLink)
    } catch {
      throw .system(error)
    }
  }

  /// Opens the object with `digest` for reading if it is a regular file; nil when nothing has its name.
  ///
  /// - Throws: ``Directory/OpenFailure/notRegular(_:)`` for a link, FIFO, device or folder in its place.
  func open(_ digest: SHA256Digest) throws(Directory.OpenFailure) -> (file: OpenFile, status: stat)? {
    try folder(for: digest).openRegularFile(digest.hex)
  }

  /// Opens an asset's object as a regular file, never through a link (blocking).
  ///
  /// - Throws: ``Library/Error/notFound(_:)`` when it is gone, ``Library/Error/damagedObject(_:_:)`` for a
  ///   link, FIFO or folder in its place.
  func open(_ asset: Asset) throws(Library.Error) -> OpenFile {
    let opened: (file: OpenFile, status: stat)?
    do {
      opened = try open(asset.sha256)
    } catch {
      switch error {
      case .notRegular(let kind): throw .damagedObject(asset.id, kind)
      case .system(let error) where error.code == ENOENT: throw .notFound(asset.id)
      case .system(let error) where error.isDiskFull: throw Library.Error(error)
      // There but not readable (EACCES, EIO): not to be confused with bytes that changed.
      case .system(let error): throw .unreadableObject(asset.id, reason: error.description)
      }
    }
    guard let opened else { throw .notFound(asset.id) }
    return opened.file
  }

  /// What the object with `digest` is now: missing, not a regular file, or bytes with these facts.
  func check(_ digest: SHA256Digest) -> ObjectCheck {
    do {
      guard let (file, _) = try open(digest) else { return .missing }
      return (try? reader.facts(of: file)).map { .content($0.digest) } ?? .unreadable
    } catch {
      switch error {
      case .notRegular: return .notAFile
      // The object, or its fan-out folder, is there but cannot be opened (EACCES, EIO): nothing is known.
      case .system(let error) where error.code != ENOENT: return .unreadable
      case .system: return .missing
      }
    }
  }

  /// Whether the object with `digest` is where it belongs, a regular file of `size` bytes (one `fstatat`).
  func isIntact(_ digest: SHA256Digest, size: Int64) -> Bool {
    guard let info = try? folder(for: digest).status(digest.hex) else { return false }
    return Platform.fileType(info.st_mode) == .regular && Int64(info.st_size) == size
  }

  /// The object's own status (a link is described, not followed); nil when missing.
  func status(of digest: SHA256Digest) -> stat? {
    try? folder(for: digest).status(digest.hex)
  }

  /// Makes all 256 fan-out folders of a new library up front, so that a commit rarely has to make (and
  /// fsync) one. Whatever it made is fsynced, even when it stops at a failure.
  func makeFanOutFolders() throws(SystemError) {
    let digits = Array("0123456789abcdef")
    var created = false
    var failure: SystemError?
    making: for high in digits {
      for low in digits {
        do {
          guard try objects.status("\(high)\(low)") == nil else { continue }
          try Syscalls.makeDirectoryAt(
            objects.descriptor, "\(high)\(low)", path: objects.path(of: "\(high)\(low)"))
          created = true
        } catch {
          failure = error
          break making
        }
      }
    }
    if created {
      try objects.sync()
      try root.sync()
    }
    if let failure { throw failure }
  }

  /// The state of ``makeFanOutFoldersInBackground()``.
  private struct FanOutMaking {
    /// Left when the folders are made (or their making ended in a failure).
    var running: DispatchGroup?
    /// The making failed: a folder it made may not be durable yet, so `objects/` is fsynced before any
    /// folder is used.
    var needsSync = false
  }

  /// Makes a new library's 256 fan-out folders (``makeFanOutFolders()``) in the background, while the first
  /// items are received: 256 `mkdir`s and two fsyncs that no longer delay the first copy. The first use of a
  /// folder (``folder(for:)``, which every commit and read of an object goes through) waits until they are
  /// made and durable.
  func makeFanOutFoldersInBackground() {
    let group = DispatchGroup()
    group.enter()
    making.withLock { $0.running = group }
    // A queue of its own for each new library (a thread of PhotoIntake's own, never the cooperative pool): one
    // shared queue would make a library wait for the folders of every other library opened before it.
    let queue = DispatchQueue(label: "PhotoIntake.FanOut")
    OwnQueues.mark(queue)
    let make = Syscalls.carryingFaults { [self] in (try? makeFanOutFolders()) == nil }
    queue.async { [self] in
      let failed = make()
      making.withLock { state in
        state.running = nil
        if failed { state.needsSync = true }
      }
      group.leave()
    }
  }

  /// Waits for the background making of the fan-out folders, if it runs (blocking: on a lane or the library's
  /// executor, as every caller of ``folder(for:)`` is); after a failed making, fsyncs `objects/` once.
  private func fanOutFoldersMade() throws(SystemError) {
    making.withLock { $0.running }?.wait()
    guard making.withLock({ $0.needsSync }) else { return }
    try objects.sync()
    making.withLock { $0.needsSync = false }
  }

  // MARK: Placing

  /// Steps 3 and 4 of the commit order (see ``GroupCommit``): gives each staged file its object name in its
  /// fan-out folder (``DurableFile/link(_:in:to:as:)``, which never replaces), then fsyncs each distinct folder
  /// once, shared by the items linked into it.
  ///
  /// - Returns: each item's failure, if any: a failed link fails its item; a failed folder fsync, never
  ///   retried, fails every item linked into that folder.
  func place(_ staged: [StagedFile]) -> [SystemError?] {
    var failures = [SystemError?](repeating: nil, count: staged.count)
    // Folders in the order of their first item, with the items linked into each.
    var folders: [(prefix: Substring, folder: Directory, members: [Int])] = []
    for (index, file) in staged.enumerated() {
      let folder: Directory
      do throws(SystemError) {
        folder = try self.placingFolder(for: file.digest)
        try place(file, in: folder)
      } catch {
        failures[index] = error
        continue
      }
      CrashPoint.afterRename.reach()
      let prefix = file.digest.hex.prefix(2)
      if let slot = folders.firstIndex(where: { $0.prefix == prefix }) {
        folders[slot].members.append(index)
      } else {
        folders.append((prefix, folder, [index]))
      }
    }
    for (_, folder, members) in folders {
      do {
        try folder.sync()
      } catch {
        for index in members { failures[index] = error }
        continue
      }
      CrashPoint.afterFolderSync.reach()
    }
    return failures
  }

  /// The fan-out folder of `digest` for placing into: a link or a file in its place fails like `mkdirat` would.
  private func placingFolder(for digest: SHA256Digest) throws(SystemError) -> Directory {
    do {
      return try folder(for: digest)
    } catch {
      switch error {
      case .notRegular:
        throw SystemError(.mkdir, ENOTDIR, path: objects.path(of: String(digest.hex.prefix(2))))
      case .system(let error): throw error
      }
    }
  }

  /// Links one staged inode into `folder` under its hash. Whatever already holds that name is kept: a valid
  /// copy of the same bytes (an object whose row was lost) is used as it is; anything else is moved aside.
  private func place(_ staged: StagedFile, in folder: Directory) throws(SystemError) {
    let hex = staged.digest.hex
    for attempt in 0..<2 {
      do {
        try DurableFile.link(staged.name, in: staged.folder, to: folder, as: hex)
        return
      } catch  where error.code == EEXIST && attempt == 0 {
        if holdsValidCopy(of: staged.digest, in: folder) { return }
        try moveAside(hex, in: folder, relative: "objects/\(hex.prefix(2))/\(hex)")
      } catch  where [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK].contains(error.code) {
        // A file system without hard links: a rename, after checking that nothing holds the name (the
        // writer lock keeps anyone else from placing it meanwhile).
        if try folder.status(hex) != nil { throw SystemError(.link, EEXIST, path: folder.path(of: hex)) }
        try staged.folder.move(staged.name, to: folder, as: hex)
        return
      }
    }
  }

  /// Whether `folder` holds a regular file named for `digest` whose bytes hash to it.
  private func holdsValidCopy(of digest: SHA256Digest, in folder: Directory) -> Bool {
    guard let (file, _) = try? folder.openRegularFile(digest.hex) else { return false }
    return (try? reader.facts(of: file))?.digest == digest
  }

  /// Deletes the object with `digest` if it is still the very inode recorded (`device`, `inode`), and makes
  /// the removal durable. Anything else under that name — another file, a link, a folder — is kept.
  ///
  /// The caller checks, in the same manifest transaction, that no row references those bytes.
  func remove(_ digest: SHA256Digest, device: UInt64, inode: UInt64) throws(SystemError) -> Removal {
    let folder: Directory
    do {
      folder = try self.folder(for: digest)
    } catch {
      return .kept("objects/\(digest.hex.prefix(2))")
    }
    guard let info = try folder.status(digest.hex) else { return .absent }
    guard Platform.fileType(info.st_mode) == .regular, UInt64(info.st_ino) == inode,
      UInt64(info.st_dev) == device
    else {
      return .kept("objects/\(digest.hex.prefix(2))/\(digest.hex)")
    }
    try folder.unlink(digest.hex)
    try folder.sync()
    return .removed
  }

  /// What ``remove(_:device:inode:)`` did.
  enum Removal: Sendable, Equatable {
    /// The recorded inode was removed.
    case removed
    /// Nothing had the name.
    case absent
    /// Something else had the name (path relative to the library); it was kept.
    case kept(String)
  }

  // MARK: Renditions

  /// Deletes the cached renditions of the object with `digest` (`renditions/ab/<sha256>-*`): regular files the
  /// library made, never a link or a folder someone put there.
  func removeRenditions(of digest: SHA256Digest) {
    guard let folder = try? renditions.subdirectory(String(digest.hex.prefix(2))),
      let names = try? folder.names()
    else { return }
    for name in names where name.hasPrefix(digest.hex) {
      guard let info = try? folder.status(name), Platform.fileType(info.st_mode) == .regular else { continue }
      try? folder.unlink(name)
    }
  }

  // MARK: Staging

  /// A staging name for one item of the writer `token` (`<token>-<uuid>.part`), which recovery finds again
  /// after a crash.
  func stagingName(token: String) -> String {
    "\(token)-\(UUID().uuidString.lowercased()).part"
  }

  /// A staging path for a file parked outside a write (a Live Photo's movie between two deliveries). Such
  /// files belong to no writer, so recovery never removes them; their owner does.
  func parkingPath() -> String {
    staging.path(of: "parked-\(UUID().uuidString.lowercased()).part")
  }

  /// Deletes the regular staging files whose names start with `prefix` (a recorded writer's); anything else
  /// there is kept and returned (relative to the library).
  func sweepStaging(prefix: String) throws(SystemError) -> (removed: Int, kept: [String]) {
    var removed = 0
    var kept: [String] = []
    for name in try staging.names() where name.hasPrefix(prefix) {
      guard let info = try staging.status(name) else { continue }
      if Platform.fileType(info.st_mode) == .regular {
        try staging.unlink(name)
        removed += 1
      } else {
        kept.append("staging/" + name)
      }
    }
    return (removed, kept)
  }
}

/// What one object turned out to be when checked.
enum ObjectCheck: Sendable, Equatable {
  case missing, notAFile
  /// There, but it (or its folder) could not be opened or read: neither intact nor damaged as far as is known.
  case unreadable
  /// A regular file whose bytes hash to this.
  case content(SHA256Digest)
}
