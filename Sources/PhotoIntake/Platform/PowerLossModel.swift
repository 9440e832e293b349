#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Test machinery: compiled only with the `TestHooks` trait (see Package.swift), never into apps.
#if TestHooks
  /// A model of what a power cut would lose, kept by ``Syscalls`` while a test runs under it.
  ///
  /// `kill -9` proves little about durability: the kernel still writes out everything in its page cache. A power
  /// cut (or a kernel panic) keeps only what was made durable: a file's data once the file was `fsync`ed, a new
  /// name, a rename or an unlink once its folder was `fsync`ed (ext4 with `data=ordered` and APFS both give no
  /// more; see the `fsync(2)` and `rename(2)` man pages and "All File Systems Are Not Created Equal", OSDI 2014).
  ///
  /// The model records every effect the library makes through ``Syscalls`` and, at ``cut()``, rolls back on the
  /// real disk each one that is not yet durable, newest first:
  /// - a name created (file, hard link, folder) in a folder not since fsynced: removed again;
  /// - a name unlinked in such a folder: restored (the model kept a hard link to the inode);
  /// - a rename whose destination folder was not since fsynced: moved back;
  /// - file data written since the file's last fsync: truncated to the length it had then.
  ///
  /// From the ``cutAfter`` recorded effect on, the power is off: every later ``Syscalls`` call and every SQLite
  /// statement fails with `EIO`, as nothing would reach the disk. SQLite's own files are outside the model:
  /// SQLite fsyncs its write-ahead log at each commit with `synchronous=FULL` (asserted by a test), so a
  /// committed transaction is treated as durable and an uncommitted one is ignored by SQLite's recovery.
  ///
  /// For tests only: production code never sets it, and every hook is one nil check then.
  package final class PowerLossModel: @unchecked Sendable {
    // @unchecked: every mutable field is read and written only inside `lock`.

    private struct DirectoryKey: Hashable {
      var device: UInt64
      var inode: UInt64
    }

    private enum Effect {
      case created(directory: DirectoryKey, name: String, inode: UInt64)
      case unlinked(directory: DirectoryKey, name: String, keeper: String)
      case renamed(from: DirectoryKey, String, to: DirectoryKey, String, inode: UInt64)
    }

    private struct FileState {
      var descriptor: Int32
      var syncedLength: Int64
      var dirty = false
    }

    private let lock = NSLockLike()
    private var pending: [Effect] = []
    private var directories: [DirectoryKey: Int32] = [:]
    private var files: [DirectoryKey: FileState] = [:]
    private var recorded = 0
    private var commits = 0
    private var off = false
    private var keeperCount = 0
    private let keeperFolder: String
    /// The number of effects after which the power goes off; nil: never (the test calls ``cut()`` itself).
    package let cutAfter: Int?

    /// - Parameters:
    ///   - cutAfter: the power goes off once this many effects were recorded.
    ///   - keeperFolder: a folder on the same file system as the library where unlinked inodes are kept (as
    ///     hard links) until ``cut()`` decides whether to restore them.
    package init(cutAfter: Int?, keeperFolder: String) {
      self.cutAfter = cutAfter
      self.keeperFolder = keeperFolder
    }

    deinit {
      for descriptor in directories.values { _ = close(descriptor) }
      for state in files.values { _ = close(state.descriptor) }
    }

    /// How many effects were recorded (run once without a cut to learn how many cut points an operation has).
    package var recordedCount: Int { lock.run { recorded } }

    /// How many SQLite commits were recorded (each one an fsync of the write-ahead log, `synchronous=FULL`).
    package var commitCount: Int { lock.run { commits } }

    /// Whether the power is off.
    package var isOff: Bool { lock.run { off } }

    // MARK: Recording (called by Syscalls)

    func didCreate(in directory: Int32, name: String, descriptor: Int32) {
      guard let info = Self.status(descriptor) else { return }
      lock.run {
        let key = remember(directory)
        pending.append(.created(directory: key, name: name, inode: UInt64(info.st_ino)))
        if Platform.fileType(info.st_mode) == .regular { track(descriptor, info: info, length: 0) }
        tick()
      }
    }

    func didLink(in directory: Int32, name: String) {
      var info = stat()
      guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
      lock.run {
        pending.append(.created(directory: remember(directory), name: name, inode: UInt64(info.st_ino)))
        tick()
      }
    }

    func didMakeDirectory(in directory: Int32, name: String) {
      didLink(in: directory, name: name)
    }

    /// Keeps the inode alive under another name, so that an unlink the cut undoes can be restored.
    func willUnlink(in directory: Int32, name: String) -> String? {
      let keeper = lock.run { () -> String in
        keeperCount += 1
        return "\(keeperFolder)/kept-\(keeperCount)"
      }
      return linkat(directory, name, AT_FDCWD, keeper, 0) == 0 ? keeper : nil
    }

    func didUnlink(in directory: Int32, name: String, keeper: String?) {
      guard let keeper else { return }
      lock.run {
        pending.append(.unlinked(directory: remember(directory), name: name, keeper: keeper))
        tick()
      }
    }

    func didRename(from: Int32, _ fromName: String, to: Int32, _ toName: String) {
      var info = stat()
      guard fstatat(to, toName, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
      lock.run {
        pending.append(
          .renamed(from: remember(from), fromName, to: remember(to), toName, inode: UInt64(info.st_ino)))
        tick()
      }
    }

    func willWrite(_ descriptor: Int32) {
      guard let info = Self.status(descriptor) else { return }
      lock.run {
        let key = DirectoryKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if files[key] == nil { track(descriptor, info: info, length: Int64(info.st_size)) }
        files[key]?.dirty = true
        tick()
      }
    }

    func didSync(_ descriptor: Int32) {
      guard let info = Self.status(descriptor) else { return }
      let key = DirectoryKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      lock.run {
        if Platform.fileType(info.st_mode) == .directory {
          // Every entry change in this folder is now durable (for a rename: its destination folder).
          pending.removeAll { effect in
            switch effect {
            case .created(let directory, _, _), .unlinked(let directory, _, _): directory == key
            case .renamed(_, _, let to, _, _): to == key
            }
          }
        } else if files[key] != nil {
          files[key]!.syncedLength = Int64(info.st_size)
          files[key]!.dirty = false
        }
        tick()
      }
    }

    /// An SQLite commit is a recorded point too (a cut may fall just before or after it).
    func willCommit() throws(SystemError) {
      try lock.run { () throws(SystemError) in
        if off { throw SystemError(.sqlite, EIO) }
        commits += 1
        tick()
      }
    }

    // MARK: The cut

    /// Turns the power off (if it is not yet) and rolls back, on disk, every effect that was not durable.
    package func cut() {
      lock.run {
        off = true
        for effect in pending.reversed() { undo(effect) }
        pending = []
        for state in files.values where state.dirty {
          _ = ftruncate(state.descriptor, off_t(state.syncedLength))
        }
      }
    }

    private func undo(_ effect: Effect) {
      switch effect {
      case .created(let directory, let name, let inode):
        guard let folder = directories[directory] else { return }
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, UInt64(info.st_ino) == inode else {
          return
        }
        if Platform.fileType(info.st_mode) == .directory {
          Self.removeTree(folder, name)
        } else {
          _ = unlinkat(folder, name, 0)
        }
      case .unlinked(let directory, let name, let keeper):
        guard let folder = directories[directory] else { return }
        _ = linkat(AT_FDCWD, keeper, folder, name, 0)
      case .renamed(let from, let fromName, let to, let toName, let inode):
        guard let source = directories[from], let destination = directories[to] else { return }
        var info = stat()
        guard fstatat(destination, toName, &info, AT_SYMLINK_NOFOLLOW) == 0, UInt64(info.st_ino) == inode
        else {
          return
        }
        _ = renameat(destination, toName, source, fromName)
      }
    }

    private static func removeTree(_ parent: Int32, _ name: String) {
      let folder = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      if folder >= 0 {
        if let names = try? Syscalls.entries(folder, path: name) {
          for entry in names {
            let child = String(decoding: entry, as: UTF8.self)
            if unlinkat(folder, child, 0) != 0 { removeTree(folder, child) }
          }
        }
        _ = close(folder)
      }
      _ = unlinkat(parent, name, AT_REMOVEDIR)
    }

    // MARK: Helpers (called with the lock held)

    private func tick() {
      recorded += 1
      if let cutAfter, recorded >= cutAfter { off = true }
    }

    private func remember(_ directory: Int32) -> DirectoryKey {
      var info = stat()
      _ = fstat(directory, &info)
      let key = DirectoryKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      if directories[key] == nil { directories[key] = dup(directory) }
      return key
    }

    private func track(_ descriptor: Int32, info: stat, length: Int64) {
      let key = DirectoryKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      guard files[key] == nil else { return }
      files[key] = FileState(descriptor: dup(descriptor), syncedLength: length)
    }

    private static func status(_ descriptor: Int32) -> stat? {
      var info = stat()
      return fstat(descriptor, &info) == 0 ? info : nil
    }
  }

  /// A lock whose critical section may throw a typed error.
  private final class NSLockLike: @unchecked Sendable {
    // @unchecked: a pthread mutex, initialised once and only used through lock/unlock.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }

    func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body()
    }
  }
#else
  /// What ``Syscalls/durability`` is outside test builds: a type without values, so that each
  /// `durability?.…` hook is a constant nil the compiler removes, and no power-loss code ships.
  enum NoPowerLossModel {
    func didCreate(in directory: Int32, name: String, descriptor: Int32) {}
    func didLink(in directory: Int32, name: String) {}
    func didMakeDirectory(in directory: Int32, name: String) {}
    func willUnlink(in directory: Int32, name: String) -> String? { nil }
    func didUnlink(in directory: Int32, name: String, keeper: String?) {}
    func didRename(from: Int32, _ fromName: String, to: Int32, _ toName: String) {}
    func willWrite(_ descriptor: Int32) {}
    func didSync(_ descriptor: Int32) {}
  }
#endif
