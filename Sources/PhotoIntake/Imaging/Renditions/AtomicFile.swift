#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes whole files so that a reader sees either the old file or the complete new one, never a part.
package enum AtomicFile {
  /// Writes `bytes` to `temporary`, flushes them to stable storage, then renames the file to `destination`.
  ///
  /// The fsync comes before the rename: otherwise a crash soon after can leave `destination` naming an empty
  /// or partial file (ext4 and APFS may persist the rename before the data). The folder is not fsynced: the
  /// files written here are caches, and a rename lost in a crash only means the file is made again. A failed
  /// fsync is not retried (see ``Syscalls/fsync(_:path:)``); the temporary file, once created, is removed on any
  /// failure.
  ///
  /// Both paths must be on one file system (rename(2) does not cross them).
  package static func write(_ bytes: [UInt8], to destination: String, via temporary: String)
    throws(ImagingError)
  {
    // Removed only once created: a file already at that name (O_EXCL failed) is someone else's.
    var created = false
    do throws(SystemError) {
      try create(temporary, with: bytes, created: &created)
      try Syscalls.rename(temporary, destination)
    } catch {
      if created { try? Syscalls.unlink(temporary) }
      throw ImagingError(error)
    }
  }

  /// Creates `path` new (never over a file, never through a link) holding `bytes`, flushed to stable storage.
  ///
  /// `created` turns true as soon as the file exists, so that a caller's clean-up removes only a file it made.
  package static func create(_ path: String, with bytes: [UInt8], created: inout Bool) throws(SystemError) {
    let descriptor = try Syscalls.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644)
    created = true
    defer { Syscalls.close(descriptor) }
    // The closure cannot throw a typed error through withUnsafeBytes, so the failure is carried out.
    var failure: SystemError?
    bytes.withUnsafeBytes { buffer in
      do throws(SystemError) {
        try Syscalls.writeAll(descriptor, buffer, path: path)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    try Syscalls.fsync(descriptor, path: path)
  }

  /// Writes `bytes` as `name` in `folder` through a hidden temporary file beside it, relative to the folder's
  /// descriptor and without following links (a link planted at `name` is replaced, never written through).
  package static func write(_ bytes: [UInt8], in folder: Directory, as name: String) throws(ImagingError) {
    let temporary = ".\(name).\(UInt32.random(in: 0...UInt32.max)).tmp"
    do throws(SystemError) {
      let descriptor = try folder.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
      defer { Syscalls.close(descriptor) }
      var failure: SystemError?
      bytes.withUnsafeBytes { buffer in
        do throws(SystemError) {
          try Syscalls.writeAll(descriptor, buffer, path: folder.path(of: temporary))
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      try Syscalls.fsync(descriptor, path: folder.path(of: temporary))
      try folder.move(temporary, to: folder, as: name)
    } catch {
      try? folder.unlink(temporary)
      throw ImagingError(error)
    }
  }

  /// Writes `bytes` to `path` through a hidden temporary file in the same folder.
  package static func write(_ bytes: [UInt8], toFile path: String) throws(ImagingError) {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let temporary = "\(folder)/.\(name).\(UInt32.random(in: 0...UInt32.max)).tmp"
    try write(bytes, to: path, via: temporary)
  }
}
