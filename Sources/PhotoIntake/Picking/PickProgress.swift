/// Progress of a picker session counted in picks (what the user chose), from the progress of the import items
/// they became.
///
/// A pick is one import item (a photo, a video), two (a Live Photo: still and movie), or none (a pick reused from
/// an earlier session, or one that failed before import). Each part has a weight; a pick's fraction is the
/// weighted mean of its parts, and it reaches 1 only when every part has finished, so a Live Photo whose still
/// has downloaded does not show as done while its movie is still being stored.
///
/// ```swift
/// var progress = PickProgress(weights: [[1], [1, 0], []])   // photo, Live Photo, reused
/// progress.update(pick: 1, part: 0, fraction: 1)               // 0.99: the movie is not stored yet
/// progress.finish(pick: 1, part: 0); progress.finish(pick: 1, part: 1)
/// progress.overall.completed                                  // 2 of 3
/// ```
public struct PickProgress: Sendable, Hashable {
  /// The highest fraction a pick shows until all of its parts have finished.
  public static let unfinishedCeiling = 0.99

  private var weights: [[Double]]
  private var fractions: [[Double]]
  private var finished: [[Bool]]

  /// - Parameter weights: for each pick, the weight of each of its parts (empty for a pick with no import).
  ///   Negative weights count as 0; a pick whose weights are all 0 counts its parts equally.
  public init(weights: [[Double]]) {
    self.weights = weights.map { parts in
      let clamped = parts.map { Swift.max(0, $0) }
      return clamped.reduce(0, +) > 0 ? clamped : clamped.map { _ in 1 }
    }
    fractions = weights.map { [Double](repeating: 0, count: $0.count) }
    finished = weights.map { [Bool](repeating: false, count: $0.count) }
  }

  /// The number of picks.
  public var count: Int { weights.count }

  /// Records a part's progress (clamped to 0…1, never going back) and returns the pick's fraction.
  @discardableResult
  public mutating func update(pick: Int, part: Int, fraction: Double) -> Double {
    let clamped = Swift.min(Swift.max(fraction.isNaN ? 0 : fraction, 0), 1)
    fractions[pick][part] = Swift.max(fractions[pick][part], clamped)
    return self.fraction(ofPick: pick)
  }

  /// Records that a part finished (imported, duplicate or failed) and returns whether the whole pick is done.
  @discardableResult
  public mutating func finish(pick: Int, part: Int) -> Bool {
    fractions[pick][part] = 1
    finished[pick][part] = true
    return isFinished(pick: pick)
  }

  /// Whether every part of the pick has finished; true for a pick without parts.
  public func isFinished(pick: Int) -> Bool { finished[pick].allSatisfy { $0 } }

  /// The pick's fraction, 0…1.
  public func fraction(ofPick pick: Int) -> Double {
    if isFinished(pick: pick) { return 1 }
    let total = weights[pick].reduce(0, +)
    let done = zip(weights[pick], fractions[pick]).reduce(0) { $0 + $1.0 * $1.1 }
    return Swift.min(done / total, Self.unfinishedCeiling)
  }

  /// The whole session: picks finished, and the mean of the picks' fractions.
  public var overall: ImportProgress {
    let completed = (0..<count).filter(isFinished(pick:)).count
    let fraction = count == 0 ? 1 : (0..<count).reduce(0) { $0 + self.fraction(ofPick: $1) } / Double(count)
    return ImportProgress(completed: completed, total: count, fraction: fraction)
  }
}
