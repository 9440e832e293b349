#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open file descriptor with one owner, which closes it when it goes away.
///
/// Every file PhotoIntake opens is held by one of these (folders by ``Directory``): no path through the code
/// can leak a descriptor or close it twice, and none needs a hand-written `close`. Modelled on swift-system's
/// `FileDescriptor`, with the close its owner would otherwise have to remember done in `deinit`.
///
/// Each call goes through ``Syscalls`` (EINTR retried, errors typed, test hooks). `path` is for messages and
/// fault rules only: nothing is opened through it after `init`.
package final class OpenFile: Sendable {
  /// The descriptor; valid while this object lives. Never close it.
  package let descriptor: Int32
  /// The file's path, for messages.
  package let path: String

  /// Takes ownership of `descriptor`.
  package init(adopting descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  /// Opens `path` (`O_CLOEXEC` is always added).
  package convenience init(path: String, flags: Int32, mode: mode_t = 0o644) throws(SystemError) {
    self.init(adopting: try Syscalls.open(path, flags, mode: mode), path: path)
  }

  /// Opens a path given as raw bytes (a name someone else made need not be UTF-8); `path` is its printable form.
  package convenience init(raw: [UInt8], flags: Int32, path: String) throws(SystemError) {
    self.init(adopting: try Syscalls.open(raw: raw, flags, path: path), path: path)
  }

  deinit { Syscalls.close(descriptor) }

  /// Reads up to `buffer.count` bytes at the file's offset; 0 means end of file.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    try Syscalls.read(descriptor, into: buffer, path: path)
  }

  /// Reads up to `buffer.count` bytes at `offset`, leaving the file's offset alone.
  package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemError) -> Int {
    try Syscalls.pread(descriptor, into: buffer, at: offset, path: path)
  }

  /// Up to `length` bytes at `offset`: fewer only at the end of the file.
  package func bytes(at offset: Int64, length: Int) throws(SystemError) -> [UInt8] {
    guard length > 0 else { return [] }
    var result = [UInt8](repeating: 0, count: length)
    var done = 0
    while done < length {
      // The closure cannot throw a typed error through withUnsafeMutableBytes, so the failure is carried out.
      var failure: SystemError?
      let count = result.withUnsafeMutableBytes { buffer -> Int in
        do throws(SystemError) {
          return try read(
            into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: offset + Int64(done))
        } catch {
          failure = error
          return 0
        }
      }
      if let failure { throw failure }
      if count == 0 { break }
      done += count
    }
    result.removeLast(length - done)
    return result
  }

  /// Writes the whole buffer at the file's offset.
  package func write(_ buffer: UnsafeRawBufferPointer) throws(SystemError) {
    try Syscalls.writeAll(descriptor, buffer, path: path)
  }

  /// Flushes the file to stable storage. A failure is final: never call it again after one (see
  /// ``Syscalls/fsync(_:path:)``).
  package func sync() throws(SystemError) {
    try Syscalls.fsync(descriptor, path: path)
  }

  /// The file's status.
  package func status() throws(SystemError) -> stat {
    try Syscalls.fstat(descriptor, path: path)
  }

  /// Takes away every write permission: objects are read-only, so that a stray write fails loudly.
  package func makeReadOnly() {
    _ = fchmod(descriptor, 0o444)
  }

  /// A new descriptor for the same open file, owned by the caller (for `FileHandle`, which closes its own).
  package func duplicate() throws(SystemError) -> Int32 {
    try Syscalls.duplicate(descriptor, path: path)
  }
}
