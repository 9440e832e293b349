import PhotoMetadata
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Makes a staged copy of an item without its location, durable like any staged file.
enum LocationRemoval {
  /// Writes `staged` without location to `destination`, then hashes and fsyncs the copy.
  ///
  /// - Returns: the copy, or nil when the file carries no location (the original bytes are then kept as
  ///   they are, so the stored file stays byte-exact).
  /// - Throws: ``Importer/Error/metadata(_:)`` when the location cannot be removed losslessly;
  ///   I/O errors of the copy.
  static func strip(_ staged: StagedFile, as name: String) throws(Importer.Error) -> StagedFile? {
    let destination = staged.folder.path(of: name)
    let report: StripReport
    do {
      report = try LocationStripper.strip(fileAt: staged.path, to: destination)
    } catch .io(let code) {
      throw Importer.Error(libraryFailure: SystemError(.write, code, path: destination))
    } catch {
      throw .metadata(error)
    }
    guard report.removedLocation else {
      try? staged.folder.unlink(name)
      return nil
    }
    do {
      return try seal(name, in: staged.folder)
    } catch {
      throw Importer.Error(libraryFailure: error)
    }
  }

  /// Hashes a file written by someone else, makes it read-only and flushes it to stable storage.
  private static func seal(_ name: String, in folder: Directory) throws(SystemError) -> StagedFile {
    let path = folder.path(of: name)
    let descriptor = try folder.open(name, O_RDONLY)
    defer { Syscalls.close(descriptor) }
    let hasher = SHA256Hasher()
    var prefix: [UInt8] = []
    var size: Int64 = 0
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = try Syscalls.read(descriptor, into: buffer, path: path)
      if count == 0 { break }
      let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
      hasher.update(chunk)
      if prefix.count < MediaType.sniffLength {
        prefix += chunk.prefix(MediaType.sniffLength - prefix.count)
      }
      size += Int64(count)
    }
    _ = fchmod(descriptor, 0o444)
    try Syscalls.fsync(descriptor, path: path)
    let info = try Syscalls.fstat(descriptor, path: path)
    return StagedFile(
      folder: folder, name: name, digest: hasher.finalize(), size: size, prefix: prefix,
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }
}
