#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one durable create: every file PhotoIntake writes is made this way, whoever writes it — an item staged
/// for import, a rendition, an exported copy, a contact sheet, a thumbnail.
///
/// 1. The file is created new under a name of its own, relative to its folder's descriptor (`O_CREAT | O_EXCL |
///    O_NOFOLLOW`): never over another file, never through a link.
/// 2. It is written.
/// 3. It is fsynced (``seal(readOnly:)``) before any other name points at it: otherwise a crash soon after can
///    leave the final name on an empty or partial file (ext4 and APFS may persist a name before the data). A
///    failed fsync is final: never retried (see ``Syscalls/fsync(_:path:)``).
/// 4. It gets its final name (``publish(as:in:_:)``): `renameat` for a cache, which replaces an older copy at
///    once; `linkat` for anything of the user's, which never replaces (a name already there, even a dangling
///    link, fails with `EEXIST`), then its own name goes. A staged item skips this step: the commit links it
///    into `objects/` with ``link(_:in:to:as:)``, the same step, and shares the folder's fsync with its group.
/// 5. The folder is fsynced when the new name must survive a power cut (anything but a cache): a new name is
///    durable only then.
///
/// A file whose writing fails is removed by ``discard()``, and only once this writer created it: a file that
/// already had the name (`O_EXCL` failed) is someone else's.
package final class DurableFile {
  /// How the file gets its final name.
  package enum Publication: Sendable {
    /// `renameat`: replaces whatever had the name (a link itself, never its target). For caches.
    case replacing
    /// `linkat`: fails with `EEXIST` if anything has the name. For anything of the user's.
    case neverReplacing
  }

  /// The folder the file is in.
  package let folder: Directory
  /// The file's own name there (a temporary or staging name).
  package let name: String
  /// The open file. Written through ``write(_:)``, flushed by ``seal(readOnly:)``.
  package let file: OpenFile

  private init(folder: Directory, name: String, file: OpenFile) {
    self.folder = folder
    self.name = name
    self.file = file
  }

  /// Step 1: creates `name` in `folder`, new.
  package static func create(in folder: Directory, name: String, mode: mode_t = 0o644) throws(SystemError)
    -> DurableFile
  {
    DurableFile(
      folder: folder, name: name, file: try folder.open(name, O_WRONLY | O_CREAT | O_EXCL, mode: mode))
  }

  /// A file that another writer created new at `name` in `folder` (the location stripper writes its copy
  /// itself), opened to go on from step 3.
  package static func adopting(_ name: String, in folder: Directory) throws(SystemError) -> DurableFile {
    DurableFile(folder: folder, name: name, file: try folder.open(name, O_RDONLY))
  }

  /// A hidden name for a file that will be renamed or linked to `final`: in the same folder, so on the same
  /// file system, unlike any name another writer picks, and recognisably ours (`.intake-…tmp`).
  package static func temporaryName(for final: String) -> String {
    ".intake-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))-\(final).tmp"
  }

  /// Step 2: appends `buffer`.
  package func write(_ buffer: UnsafeRawBufferPointer) throws(SystemError) {
    try file.write(buffer)
  }

  /// Step 3: flushes the data to stable storage, after making the file read-only if asked (objects are).
  package func seal(readOnly: Bool = false) throws(SystemError) {
    if readOnly { file.makeReadOnly() }
    try file.sync()
  }

  /// Step 4 (and 5 when `syncFolder`): gives the sealed file the name `final` in `target`, and removes its own
  /// name. If the folder's fsync fails, a name linked by `.neverReplacing` is removed again, so that a failed
  /// write leaves nothing where the user looks.
  package func publish(as final: String, in target: Directory, _ publication: Publication, syncFolder: Bool)
    throws(SystemError)
  {
    switch publication {
    case .replacing:
      try folder.move(name, to: target, as: final)
    case .neverReplacing:
      try Self.link(name, in: folder, to: target, as: final)
      try? folder.unlink(name)
    }
    guard syncFolder else { return }
    do {
      try target.sync()
    } catch {
      if case .neverReplacing = publication { try? target.unlink(final) }
      throw error
    }
  }

  /// Removes the file's own name (after a failure, or once a later step no longer needs it).
  package func discard() {
    try? folder.unlink(name)
  }

  /// Step 4 without replacing: gives the inode named `name` in `folder` a second name `final` in `target`
  /// (`linkat`, which never follows a link at the source and fails with `EEXIST` rather than replace).
  package static func link(_ name: String, in folder: Directory, to target: Directory, as final: String)
    throws(SystemError)
  {
    try folder.link(name, to: target, as: final)
  }

  /// Steps 1 to 5 for bytes in memory: `bytes` become `final` in `folder`.
  ///
  /// - Parameters:
  ///   - publication: `.replacing` for a cache, `.neverReplacing` for anything of the user's.
  ///   - syncFolder: whether the new name must survive a power cut.
  package static func write(
    _ bytes: [UInt8], in folder: Directory, as final: String, _ publication: Publication, syncFolder: Bool
  ) throws(SystemError) {
    let new = try create(in: folder, name: temporaryName(for: final))
    do throws(SystemError) {
      // The closure cannot throw a typed error through withUnsafeBytes, so the failure is carried out.
      var failure: SystemError?
      bytes.withUnsafeBytes { buffer in
        do throws(SystemError) {
          try new.write(buffer)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      try new.seal()
      try new.publish(as: final, in: folder, publication, syncFolder: syncFolder)
    } catch {
      new.discard()
      throw error
    }
  }

  /// ``write(_:in:as:_:syncFolder:)`` for a path: the file is made in the path's folder, opened as given (the
  /// caller chose the path), and the last component is never followed.
  package static func write(
    _ bytes: [UInt8], toFile path: String, _ publication: Publication, syncFolder: Bool
  ) throws(SystemError) {
    let (folder, name) = try split(path)
    try write(bytes, in: folder, as: name, publication, syncFolder: syncFolder)
  }

  /// The open folder of `path` and its last component.
  package static func split(_ path: String) throws(SystemError) -> (folder: Directory, name: String) {
    let slash = path.lastIndex(of: "/")
    var folder = slash.map { String(path[..<$0]) } ?? "."
    if folder.isEmpty { folder = "/" }
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    return (try Directory(opening: folder, create: false), name)
  }
}
