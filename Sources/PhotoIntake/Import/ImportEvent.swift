import PhotoMetadata

/// What an ``ImportSession`` reports, in the order things happen.
public enum ImportEvent: Sendable {
  /// The batch was recorded; `count` items will be imported.
  case started(batch: BatchID, count: Int)
  /// An item's download or copy advanced (0…1).
  case itemProgress(index: Int, fraction: Double)
  /// An item is done: imported, a duplicate, or failed. `.imported` is sent only once the asset is durable.
  case itemFinished(ItemReport)
  /// The whole batch advanced.
  case progress(ImportProgress)
  /// The renditions of an imported or duplicate item were made, or could not be (the import stands either
  /// way). Sent after that item's `.itemFinished`, only when ``Importer/Configuration/renditions`` is set.
  case renditionsFinished(RenditionReport)
  /// Every item is done (or cancelled). Always the last event.
  case finished(ImportSummary)
}

/// The outcome of one item.
public enum ItemResult: Sendable {
  /// New bytes, now a durable asset.
  case imported(Asset)
  /// Bytes the library already had; the existing asset is now listed in this batch too.
  case duplicate(Asset)
  /// The item was not imported; nothing of it was kept.
  case failed(Importer.Error)

  /// The asset the item resolved to, if any.
  public var asset: Asset? {
    switch self {
    case .imported(let asset), .duplicate(let asset): asset
    case .failed: nil
    }
  }

  /// The error, if the item failed.
  public var error: Importer.Error? {
    if case .failed(let error) = self { error } else { nil }
  }
}

/// One finished item.
public struct ItemReport: Sendable {
  /// Position of the item in the list given to the importer (the user's order).
  public var index: Int
  /// Imported, a duplicate of an asset already stored, or failed (and why).
  public var result: ItemResult
  /// Set when the source's name or type hint disagreed with the bytes; the bytes won.
  public var typeHintMismatch: TypeHintMismatch?
}

/// A name or type hint that disagrees with the content.
public struct TypeHintMismatch: Sendable, Hashable {
  /// The hint as given ("jpg", "public.png").
  public var hint: String
  /// What the bytes are.
  public var detected: MediaType
}

/// Progress of a whole batch.
public struct ImportProgress: Sendable, Hashable {
  /// Items finished (in any way).
  public var completed: Int
  /// Items in the batch.
  public var total: Int
  /// 0…1, counting partial progress of items in flight.
  public var fraction: Double
}

/// The result of a whole batch, in the user's order.
public struct ImportSummary: Sendable {
  /// The batch's identity; nil when the batch could not begin (every item then failed with the reason).
  public var batch: BatchID?
  /// One report per item, in the order the items were given.
  public var items: [ItemReport]
  /// Whether the session was cancelled (some items then report ``Importer/Error/cancelled``).
  public var wasCancelled: Bool

  // `filter(_:).count` rather than `count(where:)`, which the Swift 5.10 SDKs we type-check against lack.
  /// Items imported as new assets.
  public var importedCount: Int {
    items.filter { if case .imported = $0.result { true } else { false } }.count
  }
  /// Items whose bytes were already stored.
  public var duplicateCount: Int {
    items.filter { if case .duplicate = $0.result { true } else { false } }.count
  }
  /// Items that failed.
  public var failedCount: Int { items.filter { $0.result.error != nil }.count }
}
