extension Library {
  /// Puts a batch's assets in a new order (the user dragged a photo), durably.
  ///
  /// `order` must hold each asset the batch lists, once. When the library syncs, only the assets that moved
  /// get new places in the batch's record, in the same transaction, so that another device's concurrent move
  /// of another photo survives (see the "Syncing the library" article).
  ///
  /// - Throws: ``Error/batchNotFound(_:)``, ``Error/notAReordering(_:)`` when `order` is not the batch's
  ///   assets, ``Error/busy`` when another process keeps writing.
  public func reorder(_ batch: BatchID, to order: [AssetID]) async throws(Error) {
    try await whileWriting { () throws(Error) in
      let outcome: Manifest.Reordering
      do throws(DatabaseError) {
        outcome = try await manifest.reorder(batch, to: order)
      } catch {
        throw Error(error)
      }
      switch outcome {
      case .reordered:
        // The new order is in the identity journal before it is acknowledged.
        try await appendToJournal()
        publish(LibraryChange(updated: order))
      case .unchanged: break
      case .batchNotFound: throw .batchNotFound(batch)
      case .notAReordering: throw .notAReordering(batch)
      }
    }
  }
}
