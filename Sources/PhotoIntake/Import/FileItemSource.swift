#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file on disk as an ``ItemSource``: copied in chunks, never followed if it is a symbolic link, refused if
/// it is a FIFO, device or socket, and checked for changes during the copy.
///
/// A file whose name is not valid UTF-8 is still imported: it is opened by its raw bytes; ``path`` shows the
/// bytes that are not UTF-8, or are control characters, as `\xNN`, and the display name as `%XX`.
public struct FileItemSource: ItemSource, Hashable {
  /// The file's path, as text: exactly the path when it is valid, printable UTF-8, else with the other bytes
  /// escaped (`\xE9`).
  public let path: String
  /// The path's bytes, as the file system has them.
  let rawPath: [UInt8]
  /// Why walking a folder could not list this entry (a folder too deep or unreadable), reported by the import.
  let problem: WalkProblem?

  /// What a folder walk could not do.
  enum WalkProblem: Hashable {
    case tooDeep
    case unreadable(Int32)
  }

  /// A source that copies the regular file at `path` (links, FIFOs and devices are refused).
  public init(path: String) {
    self.init(raw: Array(path.utf8), problem: nil)
  }

  init(raw: [UInt8], problem: WalkProblem? = nil) {
    rawPath = raw
    path = Self.printable(raw)
    self.problem = problem
  }

  /// The last path component. Bytes that are not printable UTF-8 are shown as `%XX` (a backslash would read as
  /// a path separator to the name sanitizer).
  public var suggestedName: String? {
    let last = rawPath.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? []
    return last.isEmpty ? nil : Self.printable(last, escape: "%")
  }

  /// The extension, if any: compared with the bytes, never trusted.
  public var typeHints: [String] { [] }

  public func deliver(to sink: StagingSink) async throws(Importer.Error) {
    switch problem {
    case .tooDeep: throw .folderTooDeep(limit: Self.maximumDepth)
    case .unreadable(let code): throw Importer.Error(sourceFailure: SystemError(.open, code, path: path))
    case nil:
      // The copy blocks on the disk: it runs on a lane of its own, not on a cooperative thread.
      let (raw, path) = (rawPath, path)
      try await BlockingLanes.io.run { () throws(Importer.Error) in try sink.copyFile(raw: raw, path: path) }
    }
  }

  /// The items under `paths`, in order: each path as given; folders walked recursively with entries sorted by
  /// name (byte order).
  ///
  /// Hidden entries (names starting with ".") inside folders are skipped. Symbolic links, FIFOs, devices and
  /// sockets inside folders are returned as sources that fail with ``Importer/Error/notRegularFile(_:)`` when
  /// imported, so the user hears about them; they are never followed or opened. So are folders that cannot be
  /// read (``Importer/Error/permissionDenied``) and folders deeper than `maximumDepth`
  /// (``Importer/Error/folderTooDeep(limit:)``): nothing is skipped without a word. A path given explicitly
  /// that is itself a symbolic link is resolved once, since the user named it.
  ///
  /// This blocks while it reads the folders: from async code, call ``walking(_:)``.
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
      walk(Array(resolved.utf8), into: &result, visited: &visited, depth: 0)
    }
    return result
  }

  /// The items under `paths`, as ``walk(_:)`` lists them, walked on a thread of PhotoIntake's own: listing a large
  /// or slow folder blocks, and an async caller must not block a thread of Swift's cooperative pool.
  public static func walking(_ paths: [String]) async -> [FileItemSource] {
    await BlockingLanes.io.run { walk(paths) }
  }

  /// Deeper than this, a folder is treated as a loop or an attack and not entered.
  static let maximumDepth = 64

  private struct DirectoryIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  private static func walk(
    _ path: [UInt8], into result: inout [FileItemSource], visited: inout Set<DirectoryIdentity>, depth: Int
  ) {
    let shown = printable(path)
    guard let info = try? Syscalls.lstat(raw: path, path: shown),
      Platform.fileType(info.st_mode) == .directory
    else {
      // Files, special files and missing paths: the import reports what is wrong with each.
      result.append(FileItemSource(raw: path))
      return
    }
    let identity = DirectoryIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    // The same folder twice (named twice by the user, or a bind mount): its items are listed once already.
    guard visited.insert(identity).inserted else { return }
    guard depth < maximumDepth else {
      result.append(FileItemSource(raw: path, problem: .tooDeep))
      return
    }
    let names: [[UInt8]]
    do {
      let folder = try OpenFile(
        raw: path, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK, path: shown)
      names = try Syscalls.entries(folder.descriptor, path: shown)
    } catch {
      result.append(FileItemSource(raw: path, problem: .unreadable(error.code)))
      return
    }
    for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) where name.first != UInt8(ascii: ".") {
      let child = path == [UInt8(ascii: "/")] ? path + name : path + [UInt8(ascii: "/")] + name
      walk(child, into: &result, visited: &visited, depth: depth + 1)
    }
  }

  /// A path's bytes as text: valid UTF-8 without control characters is kept; any other byte is `\xNN`.
  static func printable(_ bytes: [UInt8], escape: String = "\\x") -> String {
    if let text = Directory.utf8(bytes),
      !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    {
      return text
    }
    var result = ""
    var index = 0
    while index < bytes.count {
      // Keep each valid, printable UTF-8 sequence; escape the rest byte by byte.
      let length = utf8Length(bytes, at: index)
      if length > 0,
        let scalar = String(decoding: bytes[index..<index + length], as: UTF8.self).unicodeScalars.first,
        scalar.properties.generalCategory != .control
      {
        result.unicodeScalars.append(scalar)
        index += length
      } else {
        let hex = String(bytes[index], radix: 16, uppercase: true)
        result += escape + (hex.count < 2 ? "0" + hex : hex)
        index += 1
      }
    }
    return result
  }

  /// The length of the valid UTF-8 sequence at `index`, or 0 if none starts there.
  private static func utf8Length(_ bytes: [UInt8], at index: Int) -> Int {
    let lead = bytes[index]
    let length =
      switch lead {
      case 0..<0x80: 1
      case 0xC2..<0xE0: 2
      case 0xE0..<0xF0: 3
      case 0xF0..<0xF5: 4
      default: 0
      }
    guard length > 0, index + length <= bytes.count else { return 0 }
    let slice = Array(bytes[index..<index + length])
    return Directory.utf8(slice) != nil ? length : 0
  }
}
