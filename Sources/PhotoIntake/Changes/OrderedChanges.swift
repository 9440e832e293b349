/// How an ordered list changed: which indexes were removed, inserted, changed and moved, so a grid can animate
/// the update instead of reloading. Modelled on PhotoKit's `PHFetchResultChangeDetails`.
///
/// Index conventions, the same as `UICollectionView.performBatchUpdates` and `PHFetchResultChangeDetails`:
/// - ``removedIndexes`` are positions in ``before``;
/// - ``insertedIndexes`` are positions in ``after``;
/// - ``changedIndexes`` are positions in ``after`` of elements present in both lists whose content changed;
/// - each ``Move`` goes from a position in ``before`` to a position in ``after``.
///
/// Apply removals, then insertions, then moves; reload the changed items after the batch. ``applying(to:)``
/// does exactly that, and ``before`` with the changes applied is always ``after``.
public struct OrderedChanges<Element: Sendable>: Sendable {
  /// One element that moved.
  public struct Move: Sendable, Hashable {
    /// The element's index in the old list.
    public var from: Int
    /// The element's index in the new list.
    public var to: Int

    /// A move from an index of the old list to one of the new list.
    public init(from: Int, to: Int) {
      self.from = from
      self.to = to
    }
  }

  /// The list before the change (PhotoKit's `fetchResultBeforeChanges`).
  public var before: [Element]
  /// The list after the change (PhotoKit's `fetchResultAfterChanges`).
  public var after: [Element]
  /// Ascending positions in ``before``.
  public var removedIndexes: [Int]
  /// Ascending positions in ``after``.
  public var insertedIndexes: [Int]
  /// Ascending positions in ``after``.
  public var changedIndexes: [Int]
  /// Moves of elements kept in both lists, by ascending destination.
  public var moves: [Move]

  /// Whether anything moved (PhotoKit's `hasMoves`).
  public var hasMoves: Bool { !moves.isEmpty }

  /// Whether there is nothing to apply.
  public var isEmpty: Bool {
    removedIndexes.isEmpty && insertedIndexes.isEmpty && changedIndexes.isEmpty && moves.isEmpty
  }

  /// The changes from `before` to `after`, matching elements by `id`; elements whose id is in `changed` and that
  /// are in both lists are reported as changed.
  ///
  /// Moves are kept to the fewest: the elements on the longest run that kept its relative order stay put,
  /// every other kept element moves. O(n log n).
  ///
  /// - Precondition: ids are unique within each list.
  public init<ID: Hashable>(
    from before: [Element], to after: [Element], id: (Element) -> ID, changed: Set<ID> = []
  ) {
    self.before = before
    self.after = after
    let beforeIDs = before.map(id)
    let afterIDs = after.map(id)
    var beforeIndex: [ID: Int] = [:]
    beforeIndex.reserveCapacity(beforeIDs.count)
    for (index, key) in beforeIDs.enumerated() { beforeIndex[key] = index }
    let afterSet = Set(afterIDs)

    removedIndexes = beforeIDs.indices.filter { !afterSet.contains(beforeIDs[$0]) }
    var inserted: [Int] = []
    var kept: [(from: Int, to: Int)] = []
    var changedIndexes: [Int] = []
    for (index, key) in afterIDs.enumerated() {
      if let from = beforeIndex[key] {
        kept.append((from, index))
        if changed.contains(key) { changedIndexes.append(index) }
      } else {
        inserted.append(index)
      }
    }
    insertedIndexes = inserted
    self.changedIndexes = changedIndexes
    let stay = longestIncreasingRun(kept.map(\.from))
    moves = kept.indices.filter { !stay.contains($0) }.map { Move(from: kept[$0].from, to: kept[$0].to) }
  }

  /// Applies the changes to `list` (which must have the elements of ``before``, in order), taking inserted
  /// elements from ``after``: the way a grid's data source follows a batch update.
  public func applying(to list: [Element]) -> [Element] {
    let removed = Set(removedIndexes)
    let moved = Set(moves.map(\.from))
    var result = [Element?](repeating: nil, count: after.count)
    for index in insertedIndexes { result[index] = after[index] }
    for move in moves { result[move.to] = list[move.from] }
    // Elements that neither left nor moved fill the remaining slots in their old relative order.
    var stayers = list.indices.lazy.filter { !removed.contains($0) && !moved.contains($0) }.makeIterator()
    for slot in result.indices where result[slot] == nil {
      guard let index = stayers.next() else { break }
      result[slot] = list[index]
    }
    return result.compactMap { $0 }
  }
}

extension OrderedChanges: Equatable where Element: Equatable {}
extension OrderedChanges: Hashable where Element: Hashable {}

extension OrderedChanges where Element: Identifiable, Element.ID: Sendable {
  /// The changes from `before` to `after`, matching elements by their `id`.
  public init(from before: [Element], to after: [Element], changed: Set<Element.ID> = []) {
    self.init(from: before, to: after, id: \.id, changed: changed)
  }
}
