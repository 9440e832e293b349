/// What a ``PickSession`` reports, counted in picks (what the user chose) rather than import items.
public enum PickEvent: Sendable {
  /// The session started with this many picks (distinct results, in the user's order).
  case started(count: Int)
  /// A pick advanced (0…1): an iCloud download, a copy.
  case pickProgress(index: Int, fraction: Double)
  /// A pick is done: imported, reused from an earlier session, or failed.
  case pickFinished(PickReport)
  /// The whole session advanced, in picks.
  case progress(ImportProgress)
  /// Every pick is done. Always the last event.
  case finished(PickOutcome)
}

/// The outcome of one pick.
public struct PickReport: Sendable {
  /// The pick's position in the session (``PickPlan/picks``), which is the user's order.
  public var index: Int
  /// Imported (or reused), or failed and why.
  public var result: PickResult
  /// A Live Photo whose movie could not be imported: the still was kept as a photo, and this says why.
  public var motionError: Importer.Error?
}

/// What became of one pick.
public enum PickResult: Sendable {
  /// Imported now (or found already in the library). For a Live Photo, `pairedVideo` is its movie's asset.
  case imported(PhotoSelection.Item, asset: Asset, pairedVideo: Asset?)
  /// Picked in an earlier session and still selected: the earlier item, nothing imported.
  case reused(PhotoSelection.Item)
  /// Not imported; nothing of it was kept.
  case failed(Importer.Error)

  /// The selection item, unless the pick failed.
  public var item: PhotoSelection.Item? {
    switch self {
    case .imported(let item, _, _), .reused(let item): item
    case .failed: nil
    }
  }

  /// Why the pick failed; nil when it did not.
  public var error: Importer.Error? {
    if case .failed(let error) = self { error } else { nil }
  }
}

/// The result of a picker session.
public struct PickOutcome: Sendable {
  /// The new selection, in the user's order: reused items, new items, then earlier items that could not be
  /// preselected (``SelectionMerge/unmatchable``). Failed picks are left out.
  public var selection: PhotoSelection
  /// One report per pick, in the user's order.
  public var reports: [PickReport]
  /// Earlier items the user deselected (their assets stay in the library).
  public var dropped: [PhotoSelection.Item]
  /// The import of the new items; nil when nothing was imported (all reused, or Cancel).
  public var summary: ImportSummary?
  /// Whether the session was cancelled.
  public var wasCancelled: Bool

  /// Picks that failed.
  public var failedCount: Int { reports.filter { $0.result.error != nil }.count }
}
