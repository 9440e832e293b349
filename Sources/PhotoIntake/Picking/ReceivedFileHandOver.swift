import Foundation

/// Keeps a file that the system lends for the length of a closure — the `ReceivedTransferredFile` of a
/// `FileRepresentation` import closure — by linking it into a folder of ours before the closure returns.
///
/// `PhotosPickerItem.loadTransferable(type:)` calls a `Transferable`'s import closure with a file that the
/// system may delete once the closure returns (as `NSItemProvider` does after its completion handler). The
/// closure is static, so it cannot reach the import's staging sink; it parks the file here instead (a hard link
/// on the same volume, a copy otherwise), and the provider adapter lends the parked file to
/// ``ProviderItemSource`` with the same contract as `loadFileRepresentation`, then releases it. A Live Photo
/// bundle (a folder) is parked as a folder of links. Nothing is ever read into memory.
///
/// The folder is in the temporary directory, not in a library's `staging/` (which must hold only files);
/// ``sweep(olderThan:)`` removes what a crash left behind.
public struct ReceivedFileHandOver: Sendable {
  /// The folder parked files go to.
  public let folder: String

  /// A hand-over that parks files in `folder`.
  public init(folder: String) { self.folder = folder }

  /// `<temporary directory>/PhotoIntakeHandOver`.
  public static let shared = ReceivedFileHandOver(
    folder: (NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/")
      + "PhotoIntakeHandOver")

  /// Parks the file or folder at `path` and returns the parked path, which keeps the original's name (the
  /// name may be the only hint of its type) inside a new folder of its own.
  ///
  /// Folders are parked one level deep: their regular files are parked, anything else inside is skipped.
  ///
  /// - Throws: ``Importer/Error``: the source vanished, is not a regular file or folder, or the hand-over
  ///   folder cannot be written (``Importer/Error/diskFull``…).
  public func park(itemAt path: String) throws(Importer.Error) -> String {
    let kind: FileKind
    do {
      kind = Platform.fileType(try Syscalls.lstat(path).st_mode)
    } catch {
      throw Importer.Error(sourceFailure: error)
    }
    guard kind == .regular || kind == .directory else { throw .notRegularFile(kind) }
    let holder = folder + "/" + UUID().uuidString.lowercased()
    do {
      try Syscalls.makeDirectory(folder, mode: 0o700)
      try Syscalls.makeDirectory(holder, mode: 0o700)
    } catch {
      throw Importer.Error(libraryFailure: error)
    }
    let name = path.split(separator: "/").last.map(String.init) ?? "item"
    let parked = holder + "/" + name
    do throws(Importer.Error) {
      if kind == .regular {
        try FilePlacement.place(path, at: parked)
      } else {
        do {
          try Syscalls.makeDirectory(parked, mode: 0o700)
        } catch {
          throw Importer.Error(libraryFailure: error)
        }
        let names: [String]
        do {
          names = try Syscalls.contentsOfDirectory(path)
        } catch {
          throw Importer.Error(sourceFailure: error)
        }
        for child in names where !child.hasPrefix(".") {
          guard let info = try? Syscalls.lstat(path + "/" + child),
            Platform.fileType(info.st_mode) == .regular
          else { continue }
          try FilePlacement.place(path + "/" + child, at: parked + "/" + child)
        }
      }
    } catch {
      Self.remove(holder)
      throw error
    }
    return parked
  }

  /// Deletes a parked item (and the folder made for it).
  public func release(_ parked: String) {
    guard parked.hasPrefix(folder + "/") else { return }
    let holder = parked[..<(parked.lastIndex(of: "/") ?? parked.endIndex)]
    Self.remove(String(holder))
  }

  /// Deletes parked items older than `age` seconds: what an app that was killed mid-import left behind.
  /// Returns how many were removed.
  @discardableResult
  public func sweep(olderThan age: TimeInterval) -> Int {
    guard let names = try? Syscalls.contentsOfDirectory(folder) else { return 0 }
    let limit = Date().timeIntervalSince1970 - age
    var removed = 0
    for name in names {
      let holder = folder + "/" + name
      guard let info = try? Syscalls.lstat(holder) else { continue }
      if Double(Platform.modificationNanoseconds(info)) / 1e9 < limit {
        Self.remove(holder)
        removed += 1
      }
    }
    return removed
  }

  /// Removes a file, or a folder and the files (one level of folders) inside it.
  private static func remove(_ path: String) {
    guard let info = try? Syscalls.lstat(path) else { return }
    if Platform.fileType(info.st_mode) == .directory {
      for name in (try? Syscalls.contentsOfDirectory(path)) ?? [] { remove(path + "/" + name) }
      Syscalls.removeEmptyDirectory(path)
    } else {
      try? Syscalls.unlink(path)
    }
  }
}
