extension SelectionMerge {
  /// The result of ``run(importer:results:source:)``.
  public struct Outcome: Sendable {
    /// The new selection, in the user's order.
    public var selection: PhotoSelection
    /// The import of the new items (nil when nothing was new, as after Cancel).
    public var summary: ImportSummary?
    /// How many items reused an earlier asset.
    public var reusedCount: Int
    /// Results that could not be imported, by result index, with the reason.
    public var failed: [(resultIndex: Int, error: Importer.Error)]
    /// Earlier items the user deselected.
    public var dropped: [PhotoSelection.Item]
  }

  /// Imports the new results as one batch, in the user's order, and builds the new selection.
  ///
  /// - Parameters:
  ///   - results: the results the merge was planned from.
  ///   - source: the ``ItemSource`` for a result index (a picker-result adapter); nil fails that item.
  public func run(
    importer: Importer, results: [PickedItem], source: (Int) -> (any ItemSource)?
  ) async -> Outcome {
    let indexes = resultIndexesToImport
    var failed: [(resultIndex: Int, error: Importer.Error)] = []
    var sources: [any ItemSource] = []
    var importedIndexes: [Int] = []
    for index in indexes {
      if let item = source(index) {
        sources.append(item)
        importedIndexes.append(index)
      } else {
        failed.append((index, .itemUnavailable(reason: "no item provider for this result")))
      }
    }
    for step in steps {
      if case .unavailable(let index, _) = step {
        failed.append((index, .itemUnavailable(reason: "the picker returned it without an item provider")))
      }
    }
    var imported: [Int: AssetID] = [:]
    var summary: ImportSummary?
    if !sources.isEmpty {
      let result = await importer.importItems(sources)
      for report in result.items {
        let index = importedIndexes[report.index]
        if let asset = report.result.asset {
          imported[index] = asset.id
        } else if let error = report.result.error {
          failed.append((index, error))
        }
      }
      summary = result
    }
    let reused = steps.filter { if case .reuse = $0 { true } else { false } }.count
    return Outcome(
      selection: selection(imported: imported, results: results), summary: summary, reusedCount: reused,
      failed: failed.sorted { $0.resultIndex < $1.resultIndex }, dropped: dropped)
  }
}
