#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The audit's reads of a folder tree, straight from the file system: a walk with `opendir`/`readdir` and
/// whole-file reads with `open`/`read`. Foundation's `FileManager` enumerator and `contents(atPath:)` cost
/// about a tenth of an audit of a typical project on Linux (an object per entry, a `Data` copied again
/// into bytes); these cost the system calls.
enum FolderReader {
  /// Every entry below `root`, as a path relative to it with `/` separators, in no particular order.
  /// Symbolic links are listed but never followed into, as `FileManager.enumerator(atPath:)` does; a
  /// folder for which `descend` returns false is listed but not entered. Unreadable folders are skipped.
  static func walk(_ root: String, descend: (_ name: String) -> Bool, _ body: (_ path: String) -> Void) {
    var pending: [String] = [""]
    while let relative = pending.popLast() {
      guard let directory = opendir(relative.isEmpty ? root : root + "/" + relative) else { continue }
      defer { closedir(directory) }
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name == "." || name == ".." { continue }
        let path = relative.isEmpty ? name : relative + "/" + name
        body(path)
        let type = entry.pointee.d_type
        var isFolder = type == UInt8(DT_DIR)
        if type == UInt8(DT_UNKNOWN) {
          var status = stat()
          isFolder = lstat(root + "/" + path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
        }
        if isFolder, descend(name) { pending.append(path) }
      }
    }
  }

  /// The bytes of the file at `path` (following links), or nil when it cannot be opened or read or is not
  /// a regular file.
  static func bytes(atPath path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
    var bytes: [UInt8] = []
    var capacity = max(Int(status.st_size), 0) + 1
    var count = 0
    while true {
      if count == bytes.count {
        bytes.append(contentsOf: repeatElement(0, count: capacity))
        capacity = bytes.count
      }
      let done = bytes.withUnsafeMutableBytes { buffer -> Int in
        read(descriptor, buffer.baseAddress! + count, buffer.count - count)
      }
      if done < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if done == 0 { break }
      count += done
    }
    bytes.removeSubrange(count...)
    return bytes
  }
}
