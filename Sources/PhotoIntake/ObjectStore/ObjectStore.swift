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

  /// The `objects/ab` folder of `digest`, opened without following links; kept open for the next use (at most
  /// ``openFolderLimit`` are). A missing folder is not made: it throws `ENOENT` (``placingFolders(for:)`` makes
  /// the folders a commit needs).
  func folder(for digest: SHA256Digest) throws(Directory.OpenFailure) -> Directory {
    let prefix = digest.hex.prefix(2)
    if let open = fanOut.withLock({ $0[prefix] }) { return open }
    do {
      let folder = try objects.subdirectory(String(prefix))
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

  // MARK: Placing

  /// The fan-out folders that a commit of `digests` links into, made where missing: a library makes a folder
  /// when its first object arrives, not 256 up front (each `mkdir` in a fresh `objects/` cost about 0.3 ms of
  /// CPU here, more than a photo's hash). The folders made are made durable together, by one fsync of
  /// `objects/`, before anything is linked into them (step 3 of ``GroupCommit``'s order).
  ///
  /// - Returns: for each digest, its folder or why there is none: a link or a file in a folder's place is
  ///   ``Directory/OpenFailure/notRegular(_:)``; a failed `mkdir`, or the fsync after it, fails the digests of
  ///   the folders it concerns.
  func placingFolders(for digests: [SHA256Digest]) -> [Result<Directory, Directory.OpenFailure>] {
    var found: [Substring: Result<Directory, Directory.OpenFailure>] = [:]
    var made: [Substring] = []
    for digest in digests {
      let prefix = digest.hex.prefix(2)
      guard found[prefix] == nil else { continue }
      do {
        found[prefix] = .success(try folder(for: digest))
      } catch {
        guard case .system(let failure) = error, failure.code == ENOENT else {
          found[prefix] = .failure(error)
          continue
        }
        do throws(SystemError) {
          let name = String(prefix)
          try Syscalls.makeDirectoryAt(objects.descriptor, name, path: objects.path(of: name))
          made.append(prefix)
        } catch  where error.code == EEXIST {
          // Made since the look (or a file planted there, which the open below reports).
        } catch {
          found[prefix] = .failure(.system(error))
          continue
        }
        found[prefix] = Result { () throws(Directory.OpenFailure) in try folder(for: digest) }
      }
    }
    if !made.isEmpty {
      do {
        try objects.sync()
      } catch {
        for prefix in made { found[prefix] = .failure(.system(error)) }
      }
    }
    return digests.map { found[$0.hex.prefix(2)]! }
  }

  /// Steps 3 and 4 of the commit order (see ``GroupCommit``): gives each staged file its object name in its
  /// fan-out folder (``DurableFile/link(_:in:to:as:)``, which never replaces), then fsyncs each distinct folder
  /// once, shared by the items linked into it.
  ///
  /// - Parameter folders: each file's folder, from ``placingFolders(for:)``.
  /// - Returns: each item's failure, if any: a failed link fails its item; a failed folder fsync, never
  ///   retried, fails every item linked into that folder.
  func place(_ staged: [StagedFile], in folders: [Directory]) -> [SystemError?] {
    var failures = [SystemError?](repeating: nil, count: staged.count)
    // Folders in the order of their first item, with the items linked into each.
    var touched: [(prefix: Substring, folder: Directory, members: [Int])] = []
    for (index, (file, folder)) in zip(staged, folders).enumerated() {
      do throws(SystemError) {
        try place(file, in: folder)
      } catch {
        failures[index] = error
        continue
      }
      CrashPoint.afterRename.reach()
      let prefix = file.digest.hex.prefix(2)
      if let slot = touched.firstIndex(where: { $0.prefix == prefix }) {
        touched[slot].members.append(index)
      } else {
        touched.append((prefix, folder, [index]))
      }
    }
    for (_, folder, members) in touched {
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
      if case .system(let error) = error, error.code == ENOENT { return .absent }
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
