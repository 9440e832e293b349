import Foundation

/// One entry under `objects/`, as verification and repair walk them.
struct ObjectEntry {
  /// The entry's name as raw bytes (a name someone else made need not be UTF-8).
  var rawName: [UInt8]
  /// The folder that holds it, and that folder's path relative to the library.
  var folder: Directory
  var folderRelative: String
  /// Whether it sits in a fan-out folder (`objects/ab/`) and its name starts with that folder's prefix.
  var isFanOutChild: Bool

  var name: String { String(decoding: rawName, as: UTF8.self) }
  /// Its path relative to the library, with bytes that are not printable UTF-8 escaped.
  var relativePath: String { folderRelative + "/" + ObjectEntry.escaped(rawName) }

  /// A name as text, with control characters and invalid UTF-8 bytes as `\xNN` escapes.
  static func escaped(_ bytes: [UInt8]) -> String { FileItemSource.printable(bytes) }
}

extension ObjectStore {
  /// Every entry under `objects/`: the children of fan-out folders, and anything else found at the top; and the
  /// fan-out folders that could not be opened or read (relative to the library). One unreadable folder is one
  /// item to report, never the end of the walk. Nothing is followed: a link in place of a fan-out folder is
  /// itself an entry.
  func entries() throws(SystemError) -> (entries: [ObjectEntry], unreadable: [String]) {
    var found: [ObjectEntry] = []
    var unreadable: [String] = []
    for raw in try objects.entries() {
      let name = Directory.utf8(raw)
      if let name, name.count == 2, name.allSatisfy(\.isHexDigit), name == name.lowercased(),
        let info = try objects.status(name), Platform.fileType(info.st_mode) == .directory
      {
        let folder: Directory
        let children: [[UInt8]]
        do {
          folder = try objects.subdirectory(name)
          children = try folder.entries()
        } catch {
          // Gone meanwhile (a concurrent change) is nothing to report; anything else (EACCES, EIO) is.
          if error.code != ENOENT { unreadable.append("objects/" + name) }
          continue
        }
        for child in children {
          let text = Directory.utf8(child)
          found.append(
            ObjectEntry(
              rawName: child, folder: folder, folderRelative: "objects/" + name,
              isFanOutChild: text?.hasPrefix(name) ?? false))
        }
      } else {
        found.append(
          ObjectEntry(rawName: raw, folder: objects, folderRelative: "objects", isFanOutChild: false))
      }
    }
    return (found, unreadable)
  }

  /// Moves an entry (whatever it is; a link is moved, never followed) into `lost+found/`, under a name that
  /// says where it was and when, and makes the move durable. Nothing is deleted.
  ///
  /// - Returns: the new path, relative to the library.
  @discardableResult
  func moveAside(_ rawName: [UInt8], in folder: Directory, relative: String) throws(SystemError) -> String {
    try Self.moveAside(rawName, in: folder, relative: relative, root: root)
  }

  /// ``moveAside(_:in:relative:)`` for a UTF-8 name.
  @discardableResult
  func moveAside(_ name: String, in folder: Directory, relative: String) throws(SystemError) -> String {
    try moveAside(Array(name.utf8), in: folder, relative: relative)
  }

  /// ``moveAside(_:in:relative:)`` before a store exists (repairing the layout itself).
  static func moveAside(_ rawName: [UInt8], in folder: Directory, relative: String, root: Directory)
    throws(SystemError) -> String
  {
    let keep = try lostAndFound(in: root).folder
    let stamp = Int(Date().timeIntervalSince1970)
    let flat = relative.replacingOccurrences(of: "/", with: "_")
    let newName = "\(stamp)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))-\(flat)"
    try Syscalls.renameAt(
      folder.descriptor, rawName, keep.descriptor, Array(newName.utf8), path: keep.path(of: newName))
    try keep.sync()
    try folder.sync()
    return "lost+found/" + newName
  }

  /// The library's `lost+found/`, made if missing. Anything else that holds its name (a file, a symbolic link,
  /// a FIFO someone put there) is first renamed to `lost+found.<n>` (the first free `n`) beside it, never
  /// followed, opened or deleted: otherwise nothing could be moved aside again and every repair would fail.
  ///
  /// - Returns: the folder, and the new name of what held its name, if anything was renamed.
  static func lostAndFound(in root: Directory) throws(SystemError) -> (folder: Directory, setAside: String?) {
    var setAside: String?
    if let info = try root.status("lost+found"), Platform.fileType(info.st_mode) != .directory {
      // The writer lock is held: no one else makes `lost+found.<n>` between the look and the rename.
      var number = 1
      while try root.status("lost+found.\(number)") != nil { number += 1 }
      try Syscalls.renameAt(
        root.descriptor, "lost+found", root.descriptor, "lost+found.\(number)",
        path: root.path(of: "lost+found"))
      try root.sync()
      setAside = "lost+found.\(number)"
    }
    return (try root.subdirectory("lost+found", create: true), setAside)
  }
}
