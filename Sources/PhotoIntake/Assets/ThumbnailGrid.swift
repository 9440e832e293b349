/// The thumbnail requests of a grid over a photo library, keyed by each asset's local identifier so that they
/// survive the library's changes.
///
/// A grid whose cells, image state and requests are keyed by index shows the wrong photo after any change of
/// the library (a screenshot, an iCloud sync): the indexes shift, and a cell that showed photo A now stands for
/// photo B, whose thumbnail was never requested, and a tap imports B. This model keys everything by the
/// asset's `localIdentifier` instead, and applies a change as `PHFetchResultChangeDetails` describes it:
/// - a visible asset that stays (moved or not) keeps its request and its image;
/// - a removed asset's request is cancelled and it stops being cached;
/// - a visible asset whose content changed (an edit, `changedIndexes`) is requested again;
/// - the preheated band (``CachingWindow``'s arithmetic) is worked out again around the visible assets at their
///   new positions, and only the difference is started and stopped.
///
/// It decides; the Apple layer (`PhotoLibraryGridModel`) carries out the returned ``Actions`` with a
/// `PHCachingImageManager`. `Token` is whatever identifies a pending request there (`PHImageRequestID`).
///
/// ```swift
/// var grid = ThumbnailGrid<Int32>(identifiers: ids, preheatMargin: 30)
/// let actions = grid.cellAppeared(ids[0])          // request ids[0], start caching the band
/// grid.requested(ids[0], token: 7)
/// let after = grid.apply(identifiers: newIDs, changed: edited)  // keeps ids[0]'s request if it stayed
/// ```
public struct ThumbnailGrid<Token: Sendable & Hashable>: Sendable {
  /// What to do with the image manager after one event, in this order: cancel, request, stop, start.
  public struct Actions: Sendable, Hashable {
    /// Pending requests to cancel (`cancelImageRequest`).
    public var cancel: [Token] = []
    /// Assets whose thumbnail to request now; record each with ``ThumbnailGrid/requested(_:token:)``.
    public var request: [String] = []
    /// Assets to stop caching (`stopCachingImages`).
    public var stopCaching: [String] = []
    /// Assets to start caching (`startCachingImages`).
    public var startCaching: [String] = []
    /// Whether to stop caching everything first (`stopCachingImagesForAllAssets`), after a new thumbnail size.
    public var stopCachingAll = false

    /// Whether there is nothing to do.
    public var isEmpty: Bool {
      cancel.isEmpty && request.isEmpty && stopCaching.isEmpty && startCaching.isEmpty && !stopCachingAll
    }
  }

  /// Every asset of the fetch result, in its order: what the grid's cells are keyed by.
  public private(set) var identifiers: [String]
  /// The assets whose cells are on screen.
  public private(set) var visible: Set<String> = []
  /// How many assets before and after the visible ones to keep cached.
  public let preheatMargin: Int
  private var position: [String: Int]
  private var requests: [String: Request] = [:]
  private var cached: [String] = []

  private struct Request: Sendable, Hashable {
    var token: Token
    var deliveredFinal = false
  }

  /// A grid over `identifiers` (the fetch result's local identifiers, in order), caching `preheatMargin`
  /// assets on each side of the visible ones.
  ///
  /// - Precondition: identifiers are unique, as in a fetch result.
  public init(identifiers: [String], preheatMargin: Int) {
    self.identifiers = identifiers
    self.preheatMargin = max(0, preheatMargin)
    position = Self.positions(of: identifiers)
  }

  /// The asset at `index` of the current list, or nil past its end.
  public func identifier(at index: Int) -> String? {
    identifiers.indices.contains(index) ? identifiers[index] : nil
  }

  /// The position of an asset in the current list.
  public func index(of identifier: String) -> Int? { position[identifier] }

  /// The pending request of an asset, if any.
  public func token(for identifier: String) -> Token? { requests[identifier]?.token }

  // MARK: Cells

  /// The cell of `identifier` came on screen: request its thumbnail unless a request is already under way
  /// (or done) for it, and move the preheated band.
  public mutating func cellAppeared(_ identifier: String) -> Actions {
    guard position[identifier] != nil else { return Actions() }
    visible.insert(identifier)
    var actions = Actions()
    if requests[identifier] == nil { actions.request.append(identifier) }
    moveBand(into: &actions)
    return actions
  }

  /// The cell of `identifier` left the screen: cancel its request and move the preheated band.
  public mutating func cellDisappeared(_ identifier: String) -> Actions {
    guard visible.remove(identifier) != nil else { return Actions() }
    var actions = Actions()
    if let request = requests.removeValue(forKey: identifier) { actions.cancel.append(request.token) }
    moveBand(into: &actions)
    return actions
  }

  /// Records the request made for `identifier` after ``Actions/request`` named it.
  public mutating func requested(_ identifier: String, token: Token) {
    guard visible.contains(identifier) else { return }
    requests[identifier] = Request(token: token)
  }

  /// Whether an image that `token`'s request delivered for `identifier` may be shown: only the asset's current
  /// request, and never a degraded image after the final one (PhotoKit may deliver the opportunistic first
  /// result after the final one when the final one was cached).
  public mutating func accepts(_ token: Token, for identifier: String, isDegraded: Bool) -> Bool {
    guard var request = requests[identifier], request.token == token else { return false }
    if isDegraded { return !request.deliveredFinal }
    request.deliveredFinal = true
    requests[identifier] = request
    return true
  }

  // MARK: Changes

  /// Follows a change of the fetch result: `after` is `fetchResultAfterChanges`'s identifiers, `changed` those
  /// of the assets whose content changed (`changedObjects`).
  public mutating func apply(identifiers after: [String], changed: Set<String> = []) -> Actions {
    let newPosition = Self.positions(of: after)
    var actions = Actions()
    for identifier in identifiers where newPosition[identifier] == nil {
      visible.remove(identifier)
      if let request = requests.removeValue(forKey: identifier) { actions.cancel.append(request.token) }
    }
    for identifier in after where changed.contains(identifier) && visible.contains(identifier) {
      if let request = requests.removeValue(forKey: identifier) { actions.cancel.append(request.token) }
      actions.request.append(identifier)
    }
    // A changed asset that is cached holds a thumbnail of its old content: cache it again. A removed one is
    // only forgotten: it is in no fetch result any more to name it by, and PhotoKit drops its cache itself.
    let changedAndCached = cached.filter { changed.contains($0) && newPosition[$0] != nil }
    cached.removeAll { newPosition[$0] == nil || changed.contains($0) }
    actions.stopCaching.append(contentsOf: changedAndCached)
    identifiers = after
    position = newPosition
    moveBand(into: &actions)
    return actions
  }

  /// Follows ``OrderedChanges`` of the fetch result (the simulator's change details, or ones made from
  /// PhotoKit's), matching assets by `id`.
  public mutating func apply<Element>(_ details: OrderedChanges<Element>, id: (Element) -> String) -> Actions
  {
    let changed = Set(details.changedIndexes.map { id(details.after[$0]) })
    return apply(identifiers: details.after.map(id), changed: changed)
  }

  /// The thumbnail size changed (a new cell size or screen scale): every request and the cache are for the
  /// old size, so cancel them all and request the visible assets again.
  public mutating func sizeChanged() -> Actions {
    var actions = Actions()
    actions.cancel = identifiers.compactMap { requests[$0]?.token }
    actions.stopCachingAll = true
    requests = [:]
    cached = []
    actions.request = identifiers.filter { visible.contains($0) }
    moveBand(into: &actions)
    return actions
  }

  // MARK: The preheated band

  /// Moves the cached band to the visible assets' current positions, widened by ``preheatMargin``.
  private mutating func moveBand(into actions: inout Actions) {
    let shown = visible.compactMap { position[$0] }
    let window = CachingWindow(preheatMargin: preheatMargin)
    let band: [String]
    if let lower = shown.min(), let upper = shown.max() {
      band = Array(identifiers[window.band(around: lower..<(upper + 1), count: identifiers.count)])
    } else {
      band = []
    }
    let inBand = Set(band)
    let wasCached = Set(cached)
    actions.stopCaching.append(contentsOf: cached.filter { !inBand.contains($0) })
    actions.startCaching.append(contentsOf: band.filter { !wasCached.contains($0) })
    cached = band
  }

  private static func positions(of identifiers: [String]) -> [String: Int] {
    var position: [String: Int] = [:]
    position.reserveCapacity(identifiers.count)
    for (index, identifier) in identifiers.enumerated() { position[identifier] = index }
    return position
  }
}
