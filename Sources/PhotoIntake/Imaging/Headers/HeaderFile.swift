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
  /// The open file, which closes itself.
  private let file: OpenFile
  /// The open file's descriptor, for a decoder that reads it itself (movie posters); valid while this object
  /// lives.
  var descriptor: Int32 { file.descriptor }

  /// Opens `path` for reading. A symbolic link is followed (a user may name one); anything but a regular file
  /// is refused.
  init(path: String) throws(ImagingError) {
    self.path = path
    let info: stat
    do {
      // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat below then refuses it.
      file = try OpenFile(path: path, flags: O_RDONLY | O_NONBLOCK)
      info = try file.status()
    } catch {
      throw ImagingError(error)
    }
    guard Platform.fileType(info.st_mode) == .regular else { throw .unsupportedContent(type: nil) }
    count = Int(info.st_size)
  }

  /// Opens the library's own file `name` in `folder` for reading, never following a link (DESIGN.md invariant
  /// 8): a link, FIFO or folder planted at that name is refused as ``ImagingError/unsupportedContent(type:)``
  /// and never opened through.
  init(in folder: Directory, name: String) throws(ImagingError) {
    path = folder.path(of: name)
    let opened: (file: OpenFile, status: stat)?
    do {
      opened = try folder.openRegularFile(name)
    } catch {
      switch error {
      case .notRegular: throw .unsupportedContent(type: nil)
      case .system(let failure): throw ImagingError(failure)
      }
    }
    guard let opened else { throw ImagingError(SystemError(.open, ENOENT, path: folder.path(of: name))) }
    file = opened.file
    count = Int(opened.status.st_size)
  }

  /// Up to `length` bytes at `offset` (fewer at the end of the file, none past it).
  func bytes(at offset: Int, length: Int) throws(ImagingError) -> [UInt8] {
    guard offset >= 0, length > 0, offset < count else { return [] }
    do {
      return try file.bytes(at: Int64(offset), length: min(length, count - offset))
    } catch {
      throw ImagingError(error)
    }
  }
}
