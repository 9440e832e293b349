#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin wrappers over the system calls the durable store makes: each retries on `EINTR`, turns a failure into a
/// ``SystemError`` that names the operation, and consults ``Syscalls/faults`` so tests can inject failures
/// (ENOSPC on the n-th byte, EIO from fsync, …) without a special file system.
///
/// Modelled on swift-system's `Internals/Syscalls.swift` and `Mocking.swift`.
package enum Syscalls {
  /// The failures to inject for the current task and its children; nil in production.
  ///
  /// A task-local rather than a global, so tests running in parallel each see only their own faults.
  ///
  /// Declared as a `TaskLocal` value rather than with `@TaskLocal`, whose expansion differs between the Swift 6
  /// standard library (a macro) and the Swift 5.10 SDKs (a property wrapper that strict concurrency rejects).
  ///
  /// Only in builds with the `TestHooks` trait: elsewhere no hook exists and every call goes straight to libc.
  #if TestHooks
    package static let injectedFaults = TaskLocal<FaultInjector?>(wrappedValue: nil)

    static var faults: FaultInjector? { injectedFaults.get() }

    /// The power-loss model of the current test, if any (see ``PowerLossModel``).
    static var durability: PowerLossModel? { faults?.powerLoss }
  #else
    /// No power-loss model outside test builds.
    static var durability: NoPowerLossModel? { nil }
  #endif

  /// `body`, made to run on another thread (a lane, a queue of our own) under the faults injected for the
  /// calling task, which a task-local does not carry there by itself. Outside test builds, `body` itself.
  static func carryingFaults<T>(_ body: @escaping @Sendable () -> T) -> @Sendable () -> T {
    #if TestHooks
      let faults = injectedFaults.get()
      return { injectedFaults.withValue(faults) { body() } }
    #else
      return body
    #endif
  }

  package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> Int32
  {
    try inject(.open, path)
    while true {
      let descriptor = libc_open(path, flags | O_CLOEXEC, mode)
      if descriptor >= 0 { return descriptor }
      let error = Platform.errno
      if error != EINTR { throw SystemError(.open, error, path: path) }
    }
  }

  /// ``open(_:_:mode:)`` for a path given as raw bytes (a name someone else made need not be UTF-8); `path`
  /// is its printable form, for messages and fault rules.
  package static func open(raw: [UInt8], _ flags: Int32, path: String) throws(SystemError) -> Int32 {
    try inject(.open, path)
    let name = raw.map { CChar(bitPattern: $0) } + [0]
    while true {
      let descriptor = libc_openRaw(name, flags | O_CLOEXEC)
      if descriptor >= 0 { return descriptor }
      let error = Platform.errno
      if error != EINTR { throw SystemError(.open, error, path: path) }
    }
  }

  /// ``lstat(_:)`` for a path given as raw bytes.
  package static func lstat(raw: [UInt8], path: String) throws(SystemError) -> stat {
    try inject(.stat, path)
    let name = raw.map { CChar(bitPattern: $0) } + [0]
    var info = stat()
    while libc_lstatRaw(name, &info) != 0 {
      let error = Platform.errno
      if error != EINTR { throw SystemError(.stat, error, path: path) }
    }
    return info
  }

  /// Reads up to `buffer.count` bytes; 0 means end of file.
  package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String)
    throws(SystemError) -> Int
  {
    try inject(.read, path)
    while true {
      let count = libc_read(descriptor, buffer.baseAddress, buffer.count)
      if count >= 0 {
        #if TestHooks
          faults?.didRead(path: path, count: count)
        #endif
        return count
      }
      let error = Platform.errno
      if error != EINTR { throw SystemError(.read, error, path: path) }
    }
  }

  /// Reads up to `buffer.count` bytes at `offset`.
  package static func pread(
    _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64, path: String
  ) throws(SystemError) -> Int {
    try inject(.read, path)
    while true {
      let count = libc_pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
      if count >= 0 {
        #if TestHooks
          faults?.didRead(path: path, count: count)
        #endif
        return count
      }
      let error = Platform.errno
      if error != EINTR { throw SystemError(.read, error, path: path) }
    }
  }

  /// Writes the whole buffer, looping over short writes.
  package static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer, path: String)
    throws(SystemError)
  {
    var done = 0
    while done < buffer.count {
      try inject(.write, path, bytes: buffer.count - done)
      durability?.willWrite(descriptor)
      let count = libc_write(descriptor, buffer.baseAddress! + done, buffer.count - done)
      if count > 0 {
        done += count
        continue
      }
      let error = count == 0 ? EIO : Platform.errno
      if error != EINTR { throw SystemError(.write, error, path: path) }
    }
  }

  /// Writes all of `bytes` at `offset`, looping over short writes (the file's own offset is left alone).
  package static func pwriteAll(_ descriptor: Int32, _ bytes: [UInt8], at offset: Int64, path: String)
    throws(SystemError)
  {
    var done = 0
    while done < bytes.count {
      try inject(.write, path, bytes: bytes.count - done)
      durability?.willWrite(descriptor)
      let count = bytes.withUnsafeBytes { buffer in
        libc_pwrite(descriptor, buffer.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
      }
      if count > 0 {
        done += count
        continue
      }
      let error = count == 0 ? EIO : Platform.errno
      if error != EINTR { throw SystemError(.write, error, path: path) }
    }
  }

  /// Cuts a file to `length` bytes (only ever a torn end of the library's own records).
  package static func truncate(_ descriptor: Int32, to length: Int64, path: String) throws(SystemError) {
    try inject(.write, path)
    durability?.willWrite(descriptor)
    while ftruncate(descriptor, off_t(length)) != 0 {
      let error = Platform.errno
      if error != EINTR { throw SystemError(.write, error, path: path) }
    }
  }

  /// Flushes the file to stable storage (`F_FULLFSYNC` on Apple platforms).
  ///
  /// Never retry a failed fsync: on Linux the kernel marks the dirty pages clean after reporting the error, so a
  /// second fsync can succeed although the data is lost ("fsyncgate", PostgreSQL 2018). The caller treats the
  /// failure as final for that file.
  package static func fsync(_ descriptor: Int32, path: String) throws(SystemError) {
    try inject(.fsync, path)
    if Platform.flushToStableStorage(descriptor) != 0 {
      throw SystemError(.fsync, Platform.errno, path: path)
    }
    durability?.didSync(descriptor)
  }

  /// Makes a directory's entries (a rename, a new file) durable by fsyncing the directory itself.
  package static func fsyncDirectory(_ path: String) throws(SystemError) {
    let descriptor = try open(path, O_RDONLY | O_DIRECTORY)
    defer { close(descriptor) }
    try fsync(descriptor, path: path)
  }

  /// `rename(2)`: atomic replacement of `destination` within one file system.
  package static func rename(_ source: String, _ destination: String) throws(SystemError) {
    try inject(.rename, destination)
    while libc_rename(source, destination) != 0 {
      let error = Platform.errno
      if error != EINTR { throw SystemError(.rename, error, path: destination) }
    }
  }

  /// `link(2)`: a second name for the same inode.
  package static func link(_ source: String, _ destination: String) throws(SystemError) {
    try inject(.link, destination)
    while libc_link(source, destination) != 0 {
      let error = Platform.errno
      if error != EINTR { throw SystemError(.link, error, path: destination) }
    }
  }

  /// Removes a file; a file that is already gone is not an error.
  package static func unlink(_ path: String) throws(SystemError) {
    try inject(.unlink, path)
    while libc_unlink(path) != 0 {
      let error = Platform.errno
      if error == ENOENT { return }
      if error != EINTR { throw SystemError(.unlink, error, path: path) }
    }
  }

  /// Removes an empty directory (`rmdir(2)`); a folder that is gone or not empty is left as it is. Used only for
  /// hand-over folders outside a library that PhotoIntake made itself.
  package static func removeEmptyDirectory(_ path: String) {
    guard (try? inject(.unlink, path)) != nil else { return }
    while rmdir(path) != 0 && Platform.errno == EINTR {}
  }

  /// Creates a directory; one that already exists is not an error.
  package static func makeDirectory(_ path: String, mode: mode_t = 0o755) throws(SystemError) {
    try inject(.mkdir, path)
    while libc_mkdir(path, mode) != 0 {
      let error = Platform.errno
      if error == EEXIST { return }
      if error != EINTR { throw SystemError(.mkdir, error, path: path) }
    }
  }

  package static func fstat(_ descriptor: Int32, path: String) throws(SystemError) -> stat {
    var info = stat()
    while libc_fstat(descriptor, &info) != 0 {
      let error = Platform.errno
      if error != EINTR { throw SystemError(.stat, error, path: path) }
    }
    return info
  }

  /// `lstat(2)`: describes a symbolic link itself rather than its target.
  package static func lstat(_ path: String) throws(SystemError) -> stat {
    try inject(.stat, path)
    var info = stat()
    while libc_lstat(path, &info) != 0 {
      let error = Platform.errno
      if error != EINTR { throw SystemError(.stat, error, path: path) }
    }
    return info
  }

  /// Closes a descriptor. `close` is not retried on EINTR: on Linux the descriptor is already released.
  ///
  /// Only the owners of descriptors call it: ``OpenFile`` and ``Directory``, in `deinit`.
  package static func close(_ descriptor: Int32) {
    _ = libc_close(descriptor)
  }

  /// `dup(2)` with `O_CLOEXEC`: a second descriptor for the same open file.
  package static func duplicate(_ descriptor: Int32, path: String) throws(SystemError) -> Int32 {
    try inject(.open, path)
    let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
    guard copy >= 0 else { throw SystemError(.open, Platform.errno, path: path) }
    return copy
  }

  /// The names in a directory, without `.` and `..`.
  package static func contentsOfDirectory(_ path: String) throws(SystemError) -> [String] {
    try inject(.open, path)
    guard let stream = opendir(path) else { throw SystemError(.open, Platform.errno, path: path) }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  // MARK: Relative to a directory descriptor
  //
  // Inside the library every operation names a file relative to an open directory (`openat` and friends) and
  // never follows a symbolic link: a link planted at `objects/ab` or `staging` (a sync tool, a restore) must
  // not lead a deletion or a write outside the library (DESIGN.md invariant 8). `path` is only for messages
  // and for matching fault rules.

  /// `openat(2)` with `O_NOFOLLOW` always added: a symbolic link in the last component fails with `ELOOP`.
  package static func openAt(
    _ directory: Int32, _ name: String, _ flags: Int32, mode: mode_t = 0o644, path: String
  ) throws(SystemError) -> Int32 {
    try inject(.open, path)
    let creates = flags & O_CREAT != 0
    while true {
      let descriptor = libc_openat(directory, name, flags | O_CLOEXEC | O_NOFOLLOW, mode)
      if descriptor >= 0 {
        if creates { durability?.didCreate(in: directory, name: name, descriptor: descriptor) }
        return descriptor
      }
      let error = Platform.errno
      if error != EINTR { throw SystemError(.open, error, path: path) }
    }
  }

  /// `fstatat(2)` with `AT_SYMLINK_NOFOLLOW`; nil when nothing has that name.
  package static func statAt(_ directory: Int32, _ name: String, path: String) throws(SystemError) -> stat? {
    try inject(.stat, path)
    var info = stat()
    while libc_fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
      let error = Platform.errno
      if error == ENOENT { return nil }
      if error != EINTR { throw SystemError(.stat, error, path: path) }
    }
    return info
  }

  /// Whether this process may write the entry `name` of `directory` (`"."` for the folder itself):
  /// `faccessat(2)` with `W_OK` and `AT_EACCESS`, so with the effective user, as an `open` for writing would be
  /// judged. False on read-only media (`EROFS`, for root too) and without write permission (`EACCES`, `EPERM`);
  /// true when nothing has that name or the answer is anything else (the write itself will then say what is
  /// wrong). Tests inject `EROFS` here (operation `.access`) to take the read-only path where they run as root.
  package static func isWritable(_ directory: Int32, _ name: String, path: String) -> Bool {
    var error: Int32 = 0
    #if TestHooks
      error = faults?.error(for: .access, path: path, bytes: 0) ?? 0
    #endif
    if error == 0 {
      while libc_faccessat(directory, name, W_OK, AT_EACCESS) != 0 {
        error = Platform.errno
        if error != EINTR { break }
        error = 0
      }
    }
    return ![EROFS, EACCES, EPERM].contains(error)
  }

  /// `unlinkat(2)` of a file (never a folder); a name that is already gone is not an error.
  package static func unlinkAt(_ directory: Int32, _ name: String, path: String) throws(SystemError) {
    try inject(.unlink, path)
    let keeper = durability?.willUnlink(in: directory, name: name)
    while libc_unlinkat(directory, name, 0) != 0 {
      let error = Platform.errno
      if let keeper { _ = libc_unlink(keeper) }
      if error == ENOENT { return }
      if error != EINTR { throw SystemError(.unlink, error, path: path) }
    }
    durability?.didUnlink(in: directory, name: name, keeper: keeper)
  }

  /// `linkat(2)` without following a link at the source: a second name for the same inode. Fails with
  /// `EEXIST` rather than replacing anything.
  package static func linkAt(
    _ fromDirectory: Int32, _ fromName: String, _ toDirectory: Int32, _ toName: String, path: String
  ) throws(SystemError) {
    try inject(.link, path)
    while libc_linkat(fromDirectory, fromName, toDirectory, toName, 0) != 0 {
      let error = Platform.errno
      if error != EINTR { throw SystemError(.link, error, path: path) }
    }
    durability?.didLink(in: toDirectory, name: toName)
  }

  /// `renameat(2)`: moves a name (the link itself when it is one, never its target).
  package static func renameAt(
    _ fromDirectory: Int32, _ fromName: String, _ toDirectory: Int32, _ toName: String, path: String
  ) throws(SystemError) {
    try inject(.rename, path)
    while libc_renameat(fromDirectory, fromName, toDirectory, toName) != 0 {
      let error = Platform.errno
      if error != EINTR { throw SystemError(.rename, error, path: path) }
    }
    durability?.didRename(from: fromDirectory, fromName, to: toDirectory, toName)
  }

  /// ``renameAt(_:_:_:_:path:)`` for names given as raw bytes (an entry someone else made need not be UTF-8).
  package static func renameAt(
    _ fromDirectory: Int32, _ fromName: [UInt8], _ toDirectory: Int32, _ toName: [UInt8], path: String
  ) throws(SystemError) {
    try inject(.rename, path)
    let from = fromName.map { CChar(bitPattern: $0) } + [0]
    let to = toName.map { CChar(bitPattern: $0) } + [0]
    while renameat(fromDirectory, from, toDirectory, to) != 0 {
      let error = Platform.errno
      if error != EINTR { throw SystemError(.rename, error, path: path) }
    }
    durability?.didRename(
      from: fromDirectory, String(decoding: fromName, as: UTF8.self), to: toDirectory,
      String(decoding: toName, as: UTF8.self))
  }

  /// `mkdirat(2)`; a folder that already exists is not an error (whether it is a folder is the caller's
  /// next `openAt(… O_DIRECTORY)` to find out).
  package static func makeDirectoryAt(_ directory: Int32, _ name: String, mode: mode_t = 0o755, path: String)
    throws(SystemError)
  {
    try inject(.mkdir, path)
    while libc_mkdirat(directory, name, mode) != 0 {
      let error = Platform.errno
      if error == EEXIST { return }
      if error != EINTR { throw SystemError(.mkdir, error, path: path) }
    }
    durability?.didMakeDirectory(in: directory, name: name)
  }

  /// The names in an open directory, without `.` and `..`, read through a duplicate of its descriptor (so
  /// the caller's stays open). Names that are not valid UTF-8 are returned as raw bytes.
  package static func entries(_ directory: Int32, path: String) throws(SystemError) -> [[UInt8]] {
    try inject(.open, path)
    let duplicate = dup(directory)
    guard duplicate >= 0 else { throw SystemError(.open, Platform.errno, path: path) }
    guard let stream = fdopendir(duplicate) else {
      let error = Platform.errno
      _ = libc_close(duplicate)
      throw SystemError(.open, error, path: path)
    }
    defer { closedir(stream) }
    rewinddir(stream)
    var names: [[UInt8]] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 })
      }
      if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
    }
    return names
  }

  /// Takes `flock(2)` on a descriptor without waiting: true if taken, false if another open file description
  /// holds it. Used on the library folder's own descriptor, which no user can delete while it is open.
  package static func tryLockExclusive(_ descriptor: Int32, path: String) throws(SystemError) -> Bool {
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let error = Platform.errno
      if error == EWOULDBLOCK || error == EAGAIN { return false }
      if error != EINTR { throw SystemError(.lock, error, path: path) }
    }
    return true
  }

  /// Releases `flock(2)`.
  package static func unlock(_ descriptor: Int32) {
    _ = flock(descriptor, LOCK_UN)
  }

  private static func inject(_ operation: SystemError.Operation, _ path: String, bytes: Int = 0)
    throws(SystemError)
  {
    #if TestHooks
      guard let faults else { return }
      if let model = faults.powerLoss, model.isOff { throw SystemError(operation, EIO, path: path) }
      if let error = faults.error(for: operation, path: path, bytes: bytes) {
        throw SystemError(operation, error, path: path)
      }
    #endif
  }
}

// The libc functions under names that do not collide with the wrappers above.
private func libc_open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func libc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}
private func libc_pread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int
{
  pread(fd, buffer, count, offset)
}
private func libc_write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(fd, buffer, count)
}
private func libc_pwrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: off_t) -> Int {
  pwrite(fd, buffer, count, offset)
}
private func libc_rename(_ a: String, _ b: String) -> Int32 { rename(a, b) }
private func libc_link(_ a: String, _ b: String) -> Int32 { link(a, b) }
private func libc_unlink(_ path: String) -> Int32 { unlink(path) }
private func libc_mkdir(_ path: String, _ mode: mode_t) -> Int32 { mkdir(path, mode) }
private func libc_fstat(_ fd: Int32, _ info: UnsafeMutablePointer<stat>) -> Int32 { fstat(fd, info) }
private func libc_lstat(_ path: String, _ info: UnsafeMutablePointer<stat>) -> Int32 { lstat(path, info) }
private func libc_close(_ fd: Int32) -> Int32 { close(fd) }
private func libc_openRaw(_ path: [CChar], _ flags: Int32) -> Int32 { open(path, flags, 0) }
private func libc_lstatRaw(_ path: [CChar], _ info: UnsafeMutablePointer<stat>) -> Int32 { lstat(path, info) }
private func libc_openat(_ dir: Int32, _ name: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  openat(dir, name, flags, mode)
}
private func libc_fstatat(_ dir: Int32, _ name: String, _ info: UnsafeMutablePointer<stat>, _ flags: Int32)
  -> Int32
{
  fstatat(dir, name, info, flags)
}
private func libc_faccessat(_ dir: Int32, _ name: String, _ mode: Int32, _ flags: Int32) -> Int32 {
  faccessat(dir, name, mode, flags)
}
private func libc_unlinkat(_ dir: Int32, _ name: String, _ flags: Int32) -> Int32 {
  unlinkat(dir, name, flags)
}
private func libc_linkat(_ a: Int32, _ b: String, _ c: Int32, _ d: String, _ flags: Int32) -> Int32 {
  linkat(a, b, c, d, flags)
}
private func libc_renameat(_ a: Int32, _ b: String, _ c: Int32, _ d: String) -> Int32 { renameat(a, b, c, d) }
private func libc_mkdirat(_ dir: Int32, _ name: String, _ mode: mode_t) -> Int32 { mkdirat(dir, name, mode) }
