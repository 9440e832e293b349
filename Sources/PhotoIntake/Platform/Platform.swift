// All differences between the C libraries of Linux (Glibc/Musl) and Apple platforms (Darwin) live here, so that
// the rest of the target calls one spelling.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

enum Platform {
  /// `errno` of the calling thread.
  static var errno: Int32 {
    #if canImport(Darwin)
      Darwin.errno
    #elseif canImport(Glibc)
      Glibc.errno
    #else
      Musl.errno
    #endif
  }

  /// The file-type bits of `st_mode` (S_IFMT), as the Swift importer does not import the macros on Linux.
  static func fileType(_ mode: mode_t) -> FileKind {
    switch mode & mode_t(S_IFMT) {
    case mode_t(S_IFREG): .regular
    case mode_t(S_IFDIR): .directory
    case mode_t(S_IFLNK): .symbolicLink
    case mode_t(S_IFIFO): .fifo
    case mode_t(S_IFCHR): .characterDevice
    case mode_t(S_IFBLK): .blockDevice
    case mode_t(S_IFSOCK): .socket
    default: .unknown
    }
  }

  /// Modification time of a stat buffer in nanoseconds (the field is `st_mtim` on Linux, `st_mtimespec` on Apple).
  static func modificationNanoseconds(_ info: stat) -> Int64 {
    #if canImport(Darwin)
      Int64(info.st_mtimespec.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtimespec.tv_nsec)
    #else
      Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
    #endif
  }

  /// Status-change time in nanoseconds.
  static func changeNanoseconds(_ info: stat) -> Int64 {
    #if canImport(Darwin)
      Int64(info.st_ctimespec.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctimespec.tv_nsec)
    #else
      Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
    #endif
  }

  /// SQLite settings that make a commit reach stable storage: on Apple platforms SQLite's `fsync` is not
  /// enough either, and `fullfsync` makes it use `F_FULLFSYNC` (https://sqlite.org/pragma.html#pragma_fullfsync).
  static var sqliteDurabilityPragmas: [String] {
    #if canImport(Darwin)
      ["PRAGMA fullfsync=ON", "PRAGMA checkpoint_fullfsync=ON"]
    #else
      []
    #endif
  }

  /// Flushes a file's data to stable storage.
  ///
  /// On Apple platforms `fsync(2)` only moves data to the drive, which may keep it in a volatile cache;
  /// `F_FULLFSYNC` asks the drive to flush too (see `man fsync` on macOS). Some file systems (network, FUSE)
  /// refuse `F_FULLFSYNC`; only then do we fall back to `fsync`.
  static func flushToStableStorage(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
      if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
      let error = errno
      if error == ENOTSUP || error == EINVAL || error == ENOTTY { return fsync(descriptor) }
      return -1
    #else
      return fsync(descriptor)
    #endif
  }
}

/// What kind of file a directory entry is.
public enum FileKind: String, Sendable, Hashable, Codable {
  /// The kinds `lstat` reports; `unknown` for anything else.
  case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, unknown

  /// Words for error messages: "a symbolic link".
  var phrase: String {
    switch self {
    case .regular: "a regular file"
    case .directory: "a folder"
    case .symbolicLink: "a symbolic link"
    case .fifo: "a named pipe (FIFO)"
    case .characterDevice: "a character device"
    case .blockDevice: "a block device"
    case .socket: "a socket"
    case .unknown: "an unknown kind of file"
    }
  }
}
