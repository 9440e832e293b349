/// How a picker session's results become import items, in the user's order: which results reuse an earlier
/// asset (``SelectionMerge``), how each new one is loaded (``PickLoad``), and which import items each pick owns.
///
/// A Live Photo kept as a pair owns two consecutive items, the still first: the still's item runs the load
/// that the movie's item waits for (``LivePhotoLoad``), and the importer starts items in order.
public struct PickPlan: Sendable {
  /// One pick: a distinct result of the session, in the user's order.
  public struct Pick: Sendable, Hashable {
    /// What the merge decided.
    public var step: SelectionMerge.Step
    /// How the result is loaded; nil when nothing is imported (a reuse, or an unavailable result).
    public var load: PickLoad?
    /// The import items of the pick: empty, one, or a Live Photo's still and movie.
    public var items: Range<Int>

    /// The result this pick came from; nil for a reuse.
    public var resultIndex: Int? {
      switch step {
      case .reuse: nil
      case .importNew(let index), .unavailable(let index, _): index
      }
    }
  }

  /// How the session's results merge with the earlier selection.
  public let merge: SelectionMerge
  /// The picks, in the user's order.
  public let picks: [Pick]
  /// The number of import items.
  public let itemCount: Int
  private let owners: [(pick: Int, part: Int)]

  /// Plans the session: `results` in the picker's order, merged into `previous`.
  public init(results: [PickedResult], previous: PhotoSelection, livePhotos: LivePhotoPolicy) {
    merge = SelectionMerge(previous: previous, results: results.map(\.pickedItem))
    var picks: [Pick] = []
    var owners: [(pick: Int, part: Int)] = []
    for step in merge.steps {
      var load: PickLoad?
      if case .importNew(let index) = step {
        let decided = PickLoad.decide(
          registered: results[index].provider.registeredTypeIdentifiers, livePhotos: livePhotos)
        // A provider that registers only types nobody can load is treated like an empty one.
        load = decided == .nothing ? nil : decided
      }
      let count = load?.itemCount ?? 0
      let start = owners.count
      for part in 0..<count { owners.append((picks.count, part)) }
      picks.append(Pick(step: step, load: load, items: start..<(start + count)))
    }
    self.picks = picks
    self.owners = owners
    itemCount = owners.count
  }

  /// The pick and the part (0: the photo, video or still; 1: a Live Photo's movie) an import item belongs to.
  public func owner(ofItem index: Int) -> (pick: Int, part: Int) { owners[index] }

  /// The weights for ``PickProgress``: a Live Photo's download is all in its still's item (the movie's item
  /// only links a file already received), so the movie weighs nothing.
  public var progressWeights: [[Double]] {
    picks.map { pick in (0..<pick.items.count).map { $0 == 0 ? 1 : 0 } }
  }
}
