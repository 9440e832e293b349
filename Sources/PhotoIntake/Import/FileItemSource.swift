/// A file on disk as an ``ItemSource``: copied in chunks, never followed if it is a symbolic link, refused if
/// it is a FIFO, device or socket, and checked for changes during the copy.
public struct FileItemSource: ItemSource, Hashable {
  /// The file's path.
  public let path: String

  public init(path: String) { self.path = path }

  public var suggestedName: String? {
    path.split(separator: "/").last.map(String.init)
  }

  /// The extension, if any: compared with the bytes, never trusted.
  public var typeHints: [String] { [] }

  public func deliver(to sink: StagingSink) async throws(Importer.Error) {
    try sink.copyFile(atPath: path)
  }

  /// The items under `paths`, in order: each path as given; folders walked recursively with entries sorted by
  /// name.
  ///
  /// Hidden entries (names starting with ".") inside folders are skipped. Symbolic links, FIFOs, devices and
  /// sockets inside folders are returned as sources that fail with ``Importer/Error/notRegularFile(_:)`` when
  /// imported, so the user hears about them; they are never followed or opened. A path given explicitly that
  /// is itself a symbolic link is resolved once, since the user named it.
  public static func walk(_ paths: [String]) -> [FileItemSource] {
    var result: [FileItemSource] = []
    var visited = Set<DirectoryIdentity>()
    for path in paths {
      let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
      var resolved = trimmed
      if let info = try? Syscalls.lstat(trimmed), Platform.fileType(info.st_mode) == .symbolicLink,
        let real = realpath(trimmed, nil)
      {
        resolved = String(cString: real)
        free(real)
      }
      walk(resolved, into: &result, visited: &visited, depth: 0)
    }
    return result
  }

  /// Deeper than this, a folder is treated as a loop or an attack and not entered.
  static let maximumDepth = 64

  private struct DirectoryIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  private static func walk(
    _ path: String, into result: inout [FileItemSource], visited: inout Set<DirectoryIdentity>, depth: Int
  ) {
    guard let info = try? Syscalls.lstat(path), Platform.fileType(info.st_mode) == .directory else {
      // Files, special files and missing paths: the import reports what is wrong with each.
      result.append(FileItemSource(path: path))
      return
    }
    let identity = DirectoryIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    guard depth < maximumDepth, visited.insert(identity).inserted,
      let names = try? Syscalls.contentsOfDirectory(path)
    else { return }
    for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) where !name.hasPrefix(".") {
      walk(path == "/" ? "/" + name : path + "/" + name, into: &result, visited: &visited, depth: depth + 1)
    }
  }
}
