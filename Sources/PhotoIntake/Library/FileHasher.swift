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
    var folder = target.lastIndex(of: "/").map { String(target[..<$0]) } ?? "."
    if folder.isEmpty { folder = "/" }
    if (try? Syscalls.lstat(target)) != nil { throw .destinationExists(target) }
    let temporary = "\(folder)/.intake-export-\(UInt32.random(in: 0...UInt32.max)).tmp"
    defer { try? Syscalls.unlink(temporary) }
    do {
      let digest = try writeDurableCopy(of: source, path: path, to: temporary)
      if let expecting, digest != expecting { throw Library.Error.alteredObject(id) }
      try Syscalls.link(temporary, target)
      try Syscalls.fsyncDirectory(folder)
    } catch let error as SystemError {
      throw error.code == EEXIST ? .destinationExists(target) : Library.Error(error)
    } catch let error as Library.Error {
      throw error
    } catch {
      throw .io(reason: "\(error)")
    }
  }

  private static func writeDurableCopy(of input: Int32, path: String, to temporary: String)
    throws(SystemError)
    -> SHA256Digest
  {
    let output = try Syscalls.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644)
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
