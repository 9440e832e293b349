#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open image file read with `pread(2)` through ``Syscalls`` (so tests can inject read failures): how the
/// backends fetch an embedded preview's byte range without reading the rest of the file.
final class HeaderFile {
  let path: String
  let count: Int
  /// The open file, for a decoder that reads it itself (movie posters); valid while this object lives.
  let descriptor: Int32

  /// Opens `path` for reading. A symbolic link is followed (a user may name one); anything but a regular file
  /// is refused.
  init(path: String) throws(ImagingError) {
    self.path = path
    do {
      // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat below then refuses it.
      descriptor = try Syscalls.open(path, O_RDONLY | O_NONBLOCK)
    } catch {
      throw ImagingError(error)
    }
    let info: stat
    do {
      info = try Syscalls.fstat(descriptor, path: path)
    } catch {
      Syscalls.close(descriptor)
      throw ImagingError(error)
    }
    guard Platform.fileType(info.st_mode) == .regular else {
      Syscalls.close(descriptor)
      throw .unsupportedContent(type: nil)
    }
    count = Int(info.st_size)
  }

  /// Opens the library's own file `name` in `folder` for reading, never following a link (DESIGN.md invariant
  /// 8): a link, FIFO or folder planted at that name is refused as ``ImagingError/unsupportedContent(type:)``
  /// and never opened through.
  init(in folder: Directory, name: String) throws(ImagingError) {
    path = folder.path(of: name)
    let opened: (descriptor: Int32, status: stat)?
    do {
      opened = try folder.openRegularFile(name)
    } catch {
      switch error {
      case .notRegular: throw .unsupportedContent(type: nil)
      case .system(let failure): throw ImagingError(failure)
      }
    }
    guard let opened else { throw ImagingError(SystemError(.open, ENOENT, path: folder.path(of: name))) }
    descriptor = opened.descriptor
    count = Int(opened.status.st_size)
  }

  deinit { Syscalls.close(descriptor) }

  /// Up to `length` bytes at `offset` (fewer at the end of the file, none past it).
  func bytes(at offset: Int, length: Int) throws(ImagingError) -> [UInt8] {
    guard offset >= 0, length > 0, offset < count else { return [] }
    let wanted = min(length, count - offset)
    var result = [UInt8](repeating: 0, count: wanted)
    var done = 0
    while done < wanted {
      // The closure cannot throw a typed error through withUnsafeMutableBytes, so the failure is carried out.
      var failure: SystemError?
      let read = result.withUnsafeMutableBytes { buffer -> Int in
        do throws(SystemError) {
          return try Syscalls.pread(
            descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]),
            at: Int64(offset + done), path: path)
        } catch {
          failure = error
          return 0
        }
      }
      if let failure { throw ImagingError(failure) }
      if read == 0 { break }
      done += read
    }
    if done < wanted { result.removeLast(wanted - done) }
    return result
  }
}
