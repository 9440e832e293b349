#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call: which operation, the `errno` it returned, and the path it was about.
///
/// The path is kept for logs and `--verbose` output; ``description`` leaves it out, as user paths may be
/// personal data.
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Operation: String, Sendable, Hashable {
    case open, read, write, fsync, rename, link, unlink, mkdir, stat, lock
    /// A check of write permission (`faccessat`).
    case access
    /// An SQLite statement or commit (injected only: SQLite does its own I/O).
    case sqlite
  }

  package var operation: Operation
  package var code: Int32
  package var path: String?

  package init(_ operation: Operation, _ code: Int32, path: String? = nil) {
    self.operation = operation
    self.code = code
    self.path = path
  }

  package var description: String {
    "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
  }

  /// Whether the failure means the storage is full (ENOSPC, or EDQUOT for a user quota).
  package var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }

  /// Whether the failure means the storage cannot be written by this process: read-only media (EROFS), or no
  /// write permission (EACCES, EPERM).
  package var isReadOnly: Bool { code == EROFS || code == EACCES || code == EPERM }
}
