/// What is at a library's root before it is opened: enough to refuse, without creating or deleting anything,
/// a folder whose manifest is gone while photos are stored.
struct LibraryLayout {
  /// What kind of file `manifest.sqlite` is; nil when there is none.
  var manifestKind: FileKind?
  /// The manifest is missing or has no bytes (a new library, or one whose manifest was lost).
  var manifestIsEmpty: Bool
  /// `objects/` holds at least one entry that is not an empty fan-out folder.
  var holdsObjects: Bool
  /// `objects/` exists: the folder was made a library, even if its creation was interrupted before the
  /// manifest was written.
  var hasObjectsFolder: Bool

  static func inspect(_ root: Directory) throws(Library.Error) -> LibraryLayout {
    do {
      let manifest = try root.status("manifest.sqlite")
      let kind = manifest.map { Platform.fileType($0.st_mode) }
      let empty = manifest == nil || (kind == .regular && manifest!.st_size == 0)
      // Only a missing manifest needs the look into objects/: at most 256 small folders, until the first file.
      return LibraryLayout(
        manifestKind: kind, manifestIsEmpty: empty, holdsObjects: empty ? try holdsObjects(root) : false,
        hasObjectsFolder: try root.status("objects") != nil)
    } catch {
      throw .cannotOpen(reason: error.description)
    }
  }

  private static func holdsObjects(_ root: Directory) throws(SystemError) -> Bool {
    guard let info = try root.status("objects") else { return false }
    guard Platform.fileType(info.st_mode) == .directory else { return true }
    let objects = try root.subdirectory("objects")
    for name in try objects.entries() {
      guard let text = Directory.utf8(name), let entry = try objects.status(text),
        Platform.fileType(entry.st_mode) == .directory
      else { return true }
      let folder = try objects.subdirectory(text)
      if try !folder.entries().isEmpty { return true }
    }
    return false
  }
}
