#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open folder inside the library, through which every file operation in it goes.
///
/// Each operation names an entry relative to this descriptor and never follows a symbolic link (DESIGN.md
/// invariant 8): a link planted where `objects/ab` or a file should be is damage to report, not a way out of
/// the library. A subfolder is opened with `O_DIRECTORY | O_NOFOLLOW`, so a link in its place fails with
/// ``SystemError`` instead of being entered.
///
/// Modelled on the `openat` family as swift-system exposes it (`FileDescriptor` with a directory base).
package final class Directory: Sendable {
  /// The open descriptor; closed in `deinit`.
  package let descriptor: Int32
  /// The folder's path, for messages and fault rules only: nothing is opened through it after `init`.
  package let path: String

  /// Opens the folder at `path`, creating it (one level) if asked. The path itself is resolved by the kernel
  /// as given (the caller chose it); everything below it is not.
  package init(opening path: String, create: Bool) throws(SystemError) {
    if create { try Syscalls.makeDirectory(path) }
    descriptor = try Syscalls.open(path, O_RDONLY | O_DIRECTORY)
    self.path = path
  }

  private init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit { Syscalls.close(descriptor) }

  /// The display path of an entry.
  package func path(of name: String) -> String { path + "/" + name }

  /// Opens the subfolder `name`, creating it first if asked (then, unless `durably` is false, the creation is
  /// made durable in this folder before the subfolder is used). A symbolic link or a file in its place fails
  /// (`ELOOP`, `ENOTDIR`).
  package func subdirectory(_ name: String, create: Bool = false, durably: Bool = true) throws(SystemError)
    -> Directory
  {
    if create, try Syscalls.statAt(descriptor, name, path: path(of: name)) == nil {
      try Syscalls.makeDirectoryAt(descriptor, name, path: path(of: name))
      if durably { try sync() }
    }
    let opened = try Syscalls.openAt(descriptor, name, O_RDONLY | O_DIRECTORY, path: path(of: name))
    return Directory(descriptor: opened, path: path(of: name))
  }

  /// Opens an entry with `flags` (`O_NOFOLLOW` is always added).
  package func open(_ name: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> OpenFile {
    OpenFile(
      adopting: try Syscalls.openAt(descriptor, name, flags, mode: mode, path: path(of: name)),
      path: path(of: name))
  }

  /// Opens an entry for reading if it is a regular file, without ever blocking: `O_NONBLOCK` keeps a FIFO
  /// from stalling the open, and `fstat` then refuses anything but a regular file.
  ///
  /// - Returns: the open file and its status, or nil when nothing has that name.
  /// - Throws: ``OpenFailure/notRegular(_:)`` when the entry is a link, a FIFO, a device or a folder.
  package func openRegularFile(_ name: String) throws(OpenFailure) -> (file: OpenFile, status: stat)? {
    let opened: OpenFile
    do {
      opened = try open(name, O_RDONLY | O_NONBLOCK)
    } catch  where error.code == ENOENT {
      return nil
    } catch  where error.code == ELOOP {
      throw .notRegular(.symbolicLink)
    } catch {
      if let info = try? status(name) { throw .notRegular(Platform.fileType(info.st_mode)) }
      throw .system(error)
    }
    let info: stat
    do {
      info = try opened.status()
    } catch {
      throw .system(error)
    }
    let kind = Platform.fileType(info.st_mode)
    guard kind == .regular else { throw .notRegular(kind) }
    return (opened, info)
  }

  /// Why ``openRegularFile(_:)`` failed.
  package enum OpenFailure: Error, Sendable {
    /// The entry is not a regular file (a link, FIFO, device or folder): damage to report, never followed.
    case notRegular(FileKind)
    case system(SystemError)
  }

  /// The entry's own status (a link is described, not followed); nil when nothing has that name.
  package func status(_ name: String) throws(SystemError) -> stat? {
    try Syscalls.statAt(descriptor, name, path: path(of: name))
  }

  /// Removes a file entry (never a folder, and a link itself rather than its target).
  package func unlink(_ name: String) throws(SystemError) {
    try Syscalls.unlinkAt(descriptor, name, path: path(of: name))
  }

  /// Gives the inode named `name` here a second name in `folder`; fails with `EEXIST` rather than replace.
  package func link(_ name: String, to folder: Directory, as newName: String) throws(SystemError) {
    try Syscalls.linkAt(descriptor, name, folder.descriptor, newName, path: folder.path(of: newName))
  }

  /// Moves the entry `name` (whatever it is, a link itself) to `folder` under `newName`.
  package func move(_ name: String, to folder: Directory, as newName: String) throws(SystemError) {
    try Syscalls.renameAt(descriptor, name, folder.descriptor, newName, path: folder.path(of: newName))
  }

  /// The names in this folder, without `.` and `..`, as raw bytes (a name need not be UTF-8).
  package func entries() throws(SystemError) -> [[UInt8]] {
    try Syscalls.entries(descriptor, path: path)
  }

  /// The names in this folder that are valid UTF-8 (the library's own names all are).
  package func names() throws(SystemError) -> [String] {
    try entries().compactMap(Self.utf8)
  }

  /// The name as a String if its bytes are valid UTF-8, else nil.
  package static func utf8(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    return Array(text.utf8) == bytes ? text : nil
  }

  /// Makes the entries' changes (creations, renames, unlinks) durable.
  package func sync() throws(SystemError) {
    try Syscalls.fsync(descriptor, path: path)
  }
}
