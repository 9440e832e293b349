extension Library {
  /// Removes an asset: its row (and batch listings) first, with an intent naming the object's inode and the
  /// removal's identity record, then the record in the identity journal, then its bytes and renditions.
  ///
  /// In that order a crash leaves at worst the intent and the bytes, which the next write removes (only if
  /// they are still that inode and no row references them). A link, FIFO or folder where the object belongs
  /// is not removed: it is left for repair to move aside.
  ///
  /// When the library syncs, the removal reaches the user's other devices: the sync ledger records its
  /// tombstone in the transaction that deletes the row.
  ///
  /// - Throws: ``Error/notFound(_:)``, ``Error/busy`` when another process keeps writing.
  public func remove(_ id: AssetID) async throws(Error) {
    try await remove(id, tombstone: true)
  }

  /// Removes an asset as ``remove(_:)`` does; without `tombstone` the sync ledger records nothing (a removal
  /// that came from another device, which the ledger already holds as removed).
  func remove(_ id: AssetID, tombstone: Bool) async throws(Error) {
    try await whileWriting { () throws(Error) in
      let found: Asset?
      do throws(DatabaseError) { found = try await manifest.asset(id) } catch { throw Error(error) }
      guard let asset = found else { throw .notFound(id) }
      let object = store.status(of: asset.sha256).flatMap { info in
        Platform.fileType(info.st_mode) == .regular ? (UInt64(info.st_dev), UInt64(info.st_ino)) : nil
      }
      let removed: (intent: Intent?, frame: JournalFrame)
      do throws(DatabaseError) {
        removed = try await manifest.remove(
          id, digest: asset.sha256, object: object, token: writerTokenOrUnowned, tombstone: tombstone)
      } catch {
        throw Error(error)
      }
      // The removal is in the identity journal before the bytes go: a crash between leaves the intent, which
      // the next writer carries out once it has appended the outbox.
      try await appendToJournal()
      if let intent = removed.intent { _ = try? await manifest.undo(intent, in: store) }
      store.removeRenditions(of: asset.sha256)
      publish(LibraryChange(removed: [id]))
    }
  }
}
