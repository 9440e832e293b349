#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Hashes whole files, for verification.
enum FileHasher {
  static func hash(path: String, chunkSize: Int = 1 << 20) throws(SystemError) -> SHA256Digest {
    let descriptor = try Syscalls.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
    defer { Syscalls.close(descriptor) }
    return try hash(descriptor: descriptor, path: path, chunkSize: chunkSize)
  }

  /// Hashes an open file from its start, with `pread` (the descriptor's offset is left alone).
  static func hash(descriptor: Int32, path: String, chunkSize: Int = 1 << 20) throws(SystemError)
    -> SHA256Digest
  {
    let hasher = SHA256Hasher()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    var offset: Int64 = 0
    while true {
      let count = try Syscalls.pread(descriptor, into: buffer, at: offset, path: path)
      if count == 0 { break }
      hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      offset += Int64(count)
    }
    return hasher.finalize()
  }
}

/// Durable copies out of the library.
enum FileExporter {
  /// Copies the open object `source` to `target`: temp file in the target's folder → fsync → `link(2)` (fails
  /// if the target exists, so nothing is overwritten) → unlink temp → fsync folder.
  ///
  /// With `expecting`, the bytes are hashed as they are copied and nothing appears at `target` unless they
  /// hash to it.
  static func copyNoClobber(
    from source: Int32, path: String, to target: String, expecting: SHA256Digest?, id: AssetID
  ) throws(Library.Error) {
    if (try? Syscalls.lstat(target)) != nil { throw .destinationExists(target) }
    let temporary = temporaryPath(beside: target)
    // Removed only once created: a file already at that name (O_EXCL failed) is someone else's.
    var created = false
    defer { if created { try? Syscalls.unlink(temporary) } }
    let digest: SHA256Digest
    do throws(SystemError) {
      digest = try writeDurableCopy(of: source, path: path, to: temporary, created: &created)
    } catch {
      throw Library.Error(error)
    }
    if let expecting, digest != expecting { throw .alteredObject(id) }
    try publish(temporary, at: target)
  }

  /// A hidden name in `target`'s folder for the file that becomes `target`: on the same file system, so that
  /// `link(2)` can give it its final name.
  static func temporaryPath(beside target: String) -> String {
    "\(folder(of: target))/.intake-export-\(UInt32.random(in: 0...UInt32.max)).tmp"
  }

  /// Gives the complete, fsynced file at `temporary` its final name `target` and makes that durable: `link(2)`
  /// fails if anything (even a dangling symbolic link) is at `target`, so nothing is overwritten or followed;
  /// then the folder is fsynced. The caller removes `temporary`.
  ///
  /// If the folder cannot be fsynced, the name just linked is removed again: a failed export leaves nothing
  /// (and a Live Photo's first half, already written, is removed by the caller).
  static func publish(_ temporary: String, at target: String) throws(Library.Error) {
    do throws(SystemError) {
      try Syscalls.link(temporary, target)
    } catch {
      throw error.code == EEXIST ? .destinationExists(target) : Library.Error(error)
    }
    do throws(SystemError) {
      try Syscalls.fsyncDirectory(folder(of: target))
    } catch {
      try? Syscalls.unlink(target)
      throw Library.Error(error)
    }
  }

  /// Writes `bytes` to a new file at `target`: temporary file beside it, fsync, ``publish(_:at:)``.
  static func writeNoClobber(_ bytes: [UInt8], to target: String) throws(Library.Error) {
    if (try? Syscalls.lstat(target)) != nil { throw .destinationExists(target) }
    let temporary = temporaryPath(beside: target)
    // Removed only once created: a file already at that name (O_EXCL failed) is someone else's.
    var created = false
    defer { if created { try? Syscalls.unlink(temporary) } }
    do throws(SystemError) {
      try AtomicFile.create(temporary, with: bytes, created: &created)
    } catch {
      throw Library.Error(error)
    }
    try publish(temporary, at: target)
  }

  private static func folder(of target: String) -> String {
    let folder = target.lastIndex(of: "/").map { String(target[..<$0]) } ?? "."
    return folder.isEmpty ? "/" : folder
  }

  private static func writeDurableCopy(
    of input: Int32, path: String, to temporary: String, created: inout Bool
  ) throws(SystemError) -> SHA256Digest {
    let output = try Syscalls.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644)
    created = true
    defer { Syscalls.close(output) }
    let hasher = SHA256Hasher()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    var offset: Int64 = 0
    while true {
      let count = try Syscalls.pread(input, into: buffer, at: offset, path: path)
      if count == 0 { break }
      let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
      hasher.update(chunk)
      try Syscalls.writeAll(output, chunk, path: temporary)
      offset += Int64(count)
    }
    try Syscalls.fsync(output, path: temporary)
    return hasher.finalize()
  }
}
