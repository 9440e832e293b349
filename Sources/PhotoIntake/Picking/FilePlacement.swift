#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Puts a file that is about to disappear (a provider's temporary file) at a path of ours.
enum FilePlacement {
  /// Hard-links `source` to `destination`, or copies it when a link is impossible (another volume: EXDEV; a
  /// file system without hard links: EPERM). `destination` must not exist.
  ///
  /// The copy is written to `destination` directly: callers place into staging or a hand-over folder, which are
  /// swept, never into a final path (DESIGN.md "Avoid").
  static func place(_ source: String, at destination: String) throws(Importer.Error) {
    _ = try regularFileStatus(source)
    if try link(source, at: destination) { return }
    try copy(source, to: destination)
  }

  /// The status of `source`, which must be a regular file. Symbolic links, FIFOs and devices are refused from
  /// `lstat` alone, without being opened (opening a FIFO blocks; opening some devices has side effects).
  static func regularFileStatus(_ source: String) throws(Importer.Error) -> stat {
    try regularFileStatus(raw: Array(source.utf8), path: source)
  }

  /// ``regularFileStatus(_:)`` for a path given as raw bytes.
  static func regularFileStatus(raw source: [UInt8], path: String) throws(Importer.Error) -> stat {
    let info: stat
    do throws(SystemError) {
      info = try Syscalls.lstat(raw: source, path: path)
    } catch {
      throw Importer.Error(sourceFailure: error)
    }
    let kind = Platform.fileType(info.st_mode)
    guard kind == .regular else { throw .notRegularFile(kind) }
    return info
  }

  /// Hard-links `source` to `destination`, so nothing is copied.
  ///
  /// - Returns: false when the link cannot be made (another volume: EXDEV; a file system without hard links:
  ///   EPERM; a source already gone), and the caller copies instead, which reports what is wrong with the
  ///   source if anything is.
  static func link(_ source: String, at destination: String) throws(Importer.Error) -> Bool {
    do throws(SystemError) {
      try Syscalls.link(source, destination)
      return true
    } catch  where error.operation == .link {
      return false
    } catch {
      throw Importer.Error(sourceFailure: error)
    }
  }

  /// Hard-links `source` (a path outside the library) into `folder` as `name`, so nothing is copied.
  ///
  /// - Returns: false when the link cannot be made; see ``link(_:at:)``.
  static func link(_ source: String, into folder: Directory, as name: String) throws(Importer.Error) -> Bool {
    do throws(SystemError) {
      try Syscalls.linkAt(AT_FDCWD, source, folder.descriptor, name, path: folder.path(of: name))
      return true
    } catch  where error.operation == .link {
      return false
    } catch {
      throw Importer.Error(sourceFailure: error)
    }
  }

  /// Copies `source` to the new file `destination` through the one chunked reader, without an fsync: the
  /// copy lives in a hand-over or staging folder only until it is imported, which makes it durable.
  private static func copy(_ source: String, to destination: String) throws(Importer.Error) {
    let input: OpenFile
    do throws(SystemError) {
      input = try OpenFile(path: source, flags: O_RDONLY | O_NOFOLLOW)
    } catch {
      throw Importer.Error(sourceFailure: error)
    }
    let output: DurableFile
    do throws(SystemError) {
      let (folder, name) = try DurableFile.split(destination)
      output = try DurableFile.create(in: folder, name: name, mode: 0o600)
    } catch {
      throw Importer.Error(libraryFailure: error)
    }
    do throws(Importer.Error) {
      try ChunkedReader().read(input, tallying: nil, failure: Importer.Error.init(sourceFailure:)) {
        chunk throws(Importer.Error) in
        do throws(SystemError) { try output.write(chunk) } catch {
          throw Importer.Error(libraryFailure: error)
        }
      }
    } catch {
      output.discard()
      throw error
    }
  }
}
