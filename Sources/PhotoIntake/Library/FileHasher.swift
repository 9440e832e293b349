/// Hashes whole files, for verification.
enum FileHasher {
  static func hash(path: String, chunkSize: Int = 1 << 20) throws(SystemError) -> SHA256Digest {
    let descriptor = try Syscalls.open(path, O_RDONLY | O_NOFOLLOW)
    defer { Syscalls.close(descriptor) }
    let hasher = SHA256Hasher()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = try Syscalls.read(descriptor, into: buffer, path: path)
      if count == 0 { break }
      hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
    return hasher.finalize()
  }
}

/// Durable copies out of the library.
enum FileExporter {
  /// Copies `source` to `target`: temp file in the target's folder → fsync → `link(2)` (fails if the target
  /// exists, so nothing is overwritten) → unlink temp → fsync folder.
  static func copyNoClobber(from source: String, to target: String) throws(Library.Error) {
    var folder = target.lastIndex(of: "/").map { String(target[..<$0]) } ?? "."
    if folder.isEmpty { folder = "/" }
    if (try? Syscalls.lstat(target)) != nil { throw .destinationExists(target) }
    let temporary = "\(folder)/.intake-export-\(UInt32.random(in: 0...UInt32.max)).tmp"
    defer { try? Syscalls.unlink(temporary) }
    do {
      try writeDurableCopy(of: source, to: temporary)
      try Syscalls.link(temporary, target)
      try Syscalls.fsyncDirectory(folder)
    } catch {
      throw error.code == EEXIST ? .destinationExists(target) : Library.Error(error)
    }
  }

  private static func writeDurableCopy(of source: String, to temporary: String) throws(SystemError) {
    let input = try Syscalls.open(source, O_RDONLY | O_NOFOLLOW)
    defer { Syscalls.close(input) }
    let output = try Syscalls.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
    defer { Syscalls.close(output) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = try Syscalls.read(input, into: buffer, path: source)
      if count == 0 { break }
      try Syscalls.writeAll(output, UnsafeRawBufferPointer(rebasing: buffer[0..<count]), path: temporary)
    }
    try Syscalls.fsync(output, path: temporary)
  }
}
