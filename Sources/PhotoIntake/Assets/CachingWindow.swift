/// Which thumbnails a scrolling grid should have an image manager prepare, and which to let go.
///
/// Apple's "Browsing and Modifying Photo Albums" sample preheats the items a little above and below the
/// visible ones with `PHCachingImageManager.startCachingImages(for:targetSize:contentMode:options:)` and stops
/// caching those that left that band (`stopCachingImages`), so a fling shows thumbnails at once without caching
/// the whole library. This is that arithmetic, on indexes, testable anywhere: the band is the visible range
/// widened by ``preheatMargin`` on each side and clamped to the fetch result.
///
/// ```swift
/// var window = CachingWindow(preheatMargin: 30)
/// let delta = window.scroll(to: 40..<64, count: assets.count)
/// manager.startCachingImages(for: delta.start.map { assets[$0] }, …)
/// manager.stopCachingImages(for: delta.stop.map { assets[$0] }, …)
/// for index in delta.leftView { cancelRequest(of: index) }
/// ```
public struct CachingWindow: Sendable, Hashable {
  /// What changed with one scroll.
  public struct Delta: Sendable, Hashable {
    /// Indexes that entered the band: start caching them.
    public var start: [Int]
    /// Indexes that left the band: stop caching them.
    public var stop: [Int]
    /// Indexes that were visible and no longer are: cancel their pending image requests.
    public var leftView: [Int]
  }

  /// How many items before and after the visible ones to keep cached.
  public var preheatMargin: Int
  /// The band being cached.
  public private(set) var cached: Range<Int> = 0..<0
  /// The items visible at the last scroll.
  public private(set) var visible: Range<Int> = 0..<0

  /// A window that caches `preheatMargin` items on each side of the visible ones (a screenful is usual).
  public init(preheatMargin: Int) { self.preheatMargin = max(0, preheatMargin) }

  /// The band for `visible` in a result of `count` items.
  public func band(around visible: Range<Int>, count: Int) -> Range<Int> {
    let total = max(0, count)
    let lower = min(max(0, visible.lowerBound - preheatMargin), total)
    let upper = min(max(lower, visible.upperBound + preheatMargin), total)
    return lower..<upper
  }

  /// Moves the window to `visible` (clamped to `count` items) and returns what to start, stop and cancel.
  public mutating func scroll(to visible: Range<Int>, count: Int) -> Delta {
    let total = max(0, count)
    let shown = min(visible.lowerBound, total)..<min(max(visible.upperBound, visible.lowerBound), total)
    let next = band(around: shown, count: total)
    let delta = Delta(
      start: Self.subtract(next, cached), stop: Self.subtract(cached, next),
      leftView: Self.subtract(self.visible, shown))
    cached = next
    self.visible = shown
    return delta
  }

  /// Forgets the band (after `stopCachingImagesForAllAssets()`, or a new fetch result): the next scroll starts
  /// caching its whole band.
  public mutating func reset() {
    cached = 0..<0
    visible = 0..<0
  }

  /// The indexes of `range` that are not in `other`, ascending.
  static func subtract(_ range: Range<Int>, _ other: Range<Int>) -> [Int] {
    range.filter { !other.contains($0) }
  }
}
