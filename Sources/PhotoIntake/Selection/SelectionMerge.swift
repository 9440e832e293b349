/// Merges a picker session's results with the selection the app already has, in the user's order.
///
/// When an app re-opens the picker with `preselectedAssetIdentifiers`, PhotoKit returns the whole new
/// selection, but the items that were preselected and stayed selected come back **without** item providers,
/// and Cancel returns exactly the preselected items, again without providers (`preselectedAssetIdentifiers`
/// documentation; WWDC21 "Improve access to Photos in your app"). An app that imports every result from its
/// provider therefore loses the photos the user kept. The merge instead:
///
/// - reuses the earlier, already-imported asset of each item the user kept;
/// - drops the items the user deselected (their assets stay in the library);
/// - imports only the items that are new;
/// - keeps the order of the results, which is the user's order with `.ordered` selection.
///
/// ```swift
/// let merge = SelectionMerge(previous: selection, results: results.map(PickedItem.init))
/// let outcome = await merge.run(importer: importer) { index in sources[index] }
/// selection = outcome.selection
/// ```
public struct SelectionMerge: Sendable, Hashable {
  /// What happens to one result, in the order of the results.
  public enum Step: Sendable, Hashable {
    /// The user kept an item they had picked before: its asset is reused, nothing is imported.
    case reuse(PhotoSelection.Item)
    /// A new item: import the result at this index.
    case importNew(resultIndex: Int)
    /// A result with nothing to import and nothing earlier to reuse (a preselected identifier the app has no
    /// asset for); the user has to pick it again.
    case unavailable(resultIndex: Int, assetIdentifier: String?)
  }

  /// One step per distinct result, in the user's order.
  public var steps: [Step]
  /// Earlier items the user deselected. Their assets stay in the library; only the selection forgets them.
  public var dropped: [PhotoSelection.Item]
  /// Earlier items without an asset identifier: they could not be preselected, so the picker could not return
  /// them. They are kept, after the picker's items, rather than dropped without the user asking.
  public var unmatchable: [PhotoSelection.Item]

  /// Plans the merge of `results` (in the order the picker returned them) into `previous`.
  public init(previous: PhotoSelection, results: [PickedItem]) {
    var earlier: [String: PhotoSelection.Item] = [:]
    for item in previous.items {
      if let identifier = item.assetIdentifier, earlier[identifier] == nil { earlier[identifier] = item }
    }
    var seen = Set<String>()
    var steps: [Step] = []
    for (index, result) in results.enumerated() {
      if let identifier = result.assetIdentifier {
        // The same asset twice in one result list is one photo; the first occurrence decides its place.
        guard seen.insert(identifier).inserted else { continue }
        if let item = earlier[identifier] {
          steps.append(.reuse(item))
          continue
        }
      }
      steps.append(
        result.hasItemProvider
          ? .importNew(resultIndex: index)
          : .unavailable(resultIndex: index, assetIdentifier: result.assetIdentifier))
    }
    self.steps = steps
    dropped = previous.items.filter { item in
      guard let identifier = item.assetIdentifier else { return false }
      return !seen.contains(identifier)
    }
    unmatchable = previous.items.filter { $0.assetIdentifier == nil }
  }

  /// The indexes of the results to import, in the user's order.
  public var resultIndexesToImport: [Int] {
    steps.compactMap { if case .importNew(let index) = $0 { index } else { nil } }
  }

  /// The new selection, once the new items are imported.
  ///
  /// - Parameters:
  ///   - imported: the asset each imported result became, by result index.
  ///   - results: the same results the merge was planned from, for their identifiers.
  /// - Returns: the selection in the user's order; results that failed to import are left out (see
  ///   ``Outcome/failed``).
  public func selection(imported: [Int: AssetID], results: [PickedItem]) -> PhotoSelection {
    var items: [PhotoSelection.Item] = []
    for step in steps {
      switch step {
      case .reuse(let item):
        items.append(item)
      case .importNew(let index):
        if let asset = imported[index] {
          items.append(PhotoSelection.Item(assetIdentifier: results[index].assetIdentifier, asset: asset))
        }
      case .unavailable:
        break
      }
    }
    return PhotoSelection(items: items + unmatchable)
  }
}
