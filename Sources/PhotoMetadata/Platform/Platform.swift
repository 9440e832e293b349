#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few POSIX calls PhotoMetadata needs, in one place: libc differences and `EINTR` retries live here,
/// and every failure becomes ``MetadataError/io(_:)`` with the `errno` value.
///
/// The same guarantees as PhotoIntake's system-call layer: opening to read never blocks (`O_NONBLOCK`, so a FIFO
/// cannot stall the caller) and must find a regular file; a file is only ever created new (`O_EXCL`), never
/// truncated, and never through a symbolic link in its last component.
enum Platform {
  /// Opens a regular file for reading. A FIFO, device or socket fails with `ESPIPE`, a folder with `EISDIR`,
  /// without a read ever being attempted.
  static func openForReading(_ path: String) throws(MetadataError) -> Int32 {
    let fd = try retrying { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      _ = systemClose(fd)
      throw .io(code)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return fd
    case S_IFDIR:
      _ = systemClose(fd)
      throw .io(EISDIR)
    default:
      _ = systemClose(fd)
      throw .io(ESPIPE)
    }
  }

  /// Creates a new file for writing, readable by the owner and others (0644). An existing file (or a link) at
  /// `path` is never truncated or followed: the call fails with `EEXIST` (`ELOOP`).
  static func createForWriting(_ path: String) throws(MetadataError) -> Int32 {
    try retrying { open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
  }

  static func size(of fd: Int32) throws(MetadataError) -> Int {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .io(errno) }
    return Int(info.st_size)
  }

  /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
  static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int)
    throws(MetadataError) -> Int
  {
    var done = 0
    while done < buffer.count {
      let result = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
      if result < 0 {
        if errno == EINTR { continue }
        throw .io(errno)
      }
      if result == 0 { break }
      done += result
    }
    return done
  }

  static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(MetadataError) {
    var done = 0
    while done < buffer.count {
      let result = systemWrite(fd, buffer.baseAddress! + done, buffer.count - done)
      if result < 0 {
        if errno == EINTR { continue }
        throw .io(errno)
      }
      done += result
    }
  }

  static func close(_ fd: Int32) {
    // close(2) must not be retried on EINTR on Linux: the descriptor is already released.
    _ = systemClose(fd)
  }

  static func remove(_ path: String) {
    _ = unlink(path)
  }

  private static func retrying(_ call: () -> Int32) throws(MetadataError) -> Int32 {
    while true {
      let fd = call()
      if fd >= 0 { return fd }
      if errno != EINTR { throw .io(errno) }
    }
  }
}

// `write` and `close` are shadowed by Platform's own names inside the enum.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}

private func systemClose(_ fd: Int32) -> Int32 {
  close(fd)
}

/// A readable sentence for an `errno` value.
func errnoDescription(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "error \(code)" }
  return String(cString: text)
}
