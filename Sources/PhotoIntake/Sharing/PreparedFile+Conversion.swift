import Foundation
import PhotoMetadata

extension PreparedFile {
  /// Runs a conversion that writes its output inside `holder` (a folder of its own, from ``makeHolder(in:)``),
  /// and leaves nothing behind unless it finished.
  ///
  /// Cancelling the task calls `cancel` at once (for an encoder that stops on a call, such as
  /// `AVAssetExportSession.cancelExport()`; an operation that watches the task itself, such as
  /// `export(to:as:isolation:)`, passes nil) and the conversion ends with ``Error/cancelled``. Whatever the
  /// encoder had written — a partial movie, its temporary files — is removed with the holder when the
  /// operation fails or is cancelled, even if it finished just as the task was cancelled: the caller no longer
  /// wants it, and a file it never receives would never be released.
  ///
  /// - Throws: ``Error/cancelled`` when the task was cancelled (or the operation threw `CancellationError`),
  ///   otherwise ``Error/cannotConvert(_:)`` with the operation's error as the reason.
  package static func converting(
    into holder: String, cancel: (@Sendable () -> Void)? = nil,
    _ operation: () async throws -> Void
  ) async throws(Error) {
    var failure: (any Swift.Error)?
    do {
      try await withTaskCancellationHandler {
        try await operation()
      } onCancel: {
        cancel?()
      }
    } catch {
      failure = error
    }
    let cancelled = Task.isCancelled || failure is CancellationError
    guard cancelled || failure != nil else { return }
    discardHolder(holder)
    if cancelled { throw .cancelled }
    let reason = failure.map { String(describing: $0) } ?? "the encoder stopped"
    throw .cannotConvert(.encodeFailed(reason: reason))
  }

  /// Removes a holder folder and everything in it: files (a symbolic link is removed, never followed) and the
  /// folders an encoder made inside it, at most a few levels deep. Only for folders ``makeHolder(in:)`` made.
  static func discardHolder(_ holder: String) {
    if let folder = try? Directory(opening: holder, create: false) { removeContents(of: folder, depth: 4) }
    Syscalls.removeEmptyDirectory(holder)
  }

  /// Works through the folder's descriptor, as the library does: entries are unlinked by name and a subfolder is
  /// opened without following a link, so a link that replaced a subfolder meanwhile is removed, never entered.
  private static func removeContents(of folder: Directory, depth: Int) {
    guard depth > 0, let names = try? folder.names() else { return }
    for name in names {
      guard let info = try? folder.status(name) else { continue }
      if Platform.fileType(info.st_mode) == .directory {
        if let subfolder = try? folder.subdirectory(name) { removeContents(of: subfolder, depth: depth - 1) }
        // rmdir(2) removes only an empty folder and never follows the name it is given.
        Syscalls.removeEmptyDirectory(folder.path(of: name))
      } else {
        try? folder.unlink(name)
      }
    }
  }

  /// Removes prepared files that were never released — left by an app that was killed or suspended during a
  /// share or a re-encode (a partial movie can be gigabytes) — from `folder`.
  ///
  /// Only the holders ``make(for:in:withoutLocation:folder:)`` and the conversions create (folders named by a
  /// lower-case UUID) are considered, and only those not modified for `age` seconds, so files being shared
  /// right now stay. Anything else in `folder` is left alone. Call it at launch, off the main actor:
  ///
  /// ```swift
  /// Task.detached(priority: .background) { PreparedFile.sweep(olderThan: 24 * 3600) }
  /// ```
  /// - Returns: how many holders were removed.
  @discardableResult
  public static func sweep(folder: String = defaultFolder, olderThan age: Double) -> Int {
    guard let names = try? Syscalls.contentsOfDirectory(folder) else { return 0 }
    let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
    let limit = Int64(max(0, age) * 1_000_000_000)
    var removed = 0
    for name in names where isHolderName(name) {
      let holder = folder + "/" + name
      guard let info = try? Syscalls.lstat(holder), Platform.fileType(info.st_mode) == .directory,
        now &- Platform.modificationNanoseconds(info) >= limit
      else { continue }
      discardHolder(holder)
      if (try? Syscalls.lstat(holder)) == nil { removed += 1 }
    }
    return removed
  }

  /// Whether `name` is what ``makeHolder(in:)`` names a holder: a lower-case UUID (8-4-4-4-12 hex digits).
  static func isHolderName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard bytes.count == 36 else { return false }
    for (index, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == UInt8(ascii: "-") else { return false }
      } else {
        guard (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) else { return false }
      }
    }
    return true
  }
}
