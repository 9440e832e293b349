/// Which of a request's results to show, for PhotoKit requests that deliver a degraded result first and the
/// final one later (`PHImageManager` with `.opportunistic`, `PHLivePhoto.request(withResourceFileURLs:…)`), and
/// whether to play a Live Photo's hint.
///
/// The handler of such a request may run more than once and, for `PHLivePhoto`, on any thread; results hopped
/// to the main actor one by one may arrive out of order. So a degraded result is shown only until the final one
/// is, and a new request (``restart()``) starts over. The Live Photo hint plays once per request, for the
/// first result shown, not again when the final one replaces the degraded one.
///
/// ```swift
/// var delivery = ProgressiveDelivery()
/// if delivery.accepts(isDegraded: degraded) {
///   view.livePhoto = photo
///   if delivery.takeHint() { view.startPlayback(with: .hint) }
/// }
/// ```
public struct ProgressiveDelivery: Sendable, Hashable {
  /// Whether the final result was shown.
  public private(set) var hasFinal = false
  /// Whether the hint was played for this request.
  public private(set) var hintPlayed = false

  /// Nothing shown yet.
  public init() {}

  /// Whether a result may replace what is shown: a final one always, a degraded one only before the final.
  public mutating func accepts(isDegraded: Bool) -> Bool {
    if isDegraded { return !hasFinal }
    hasFinal = true
    return true
  }

  /// Whether to play the hint now; true once per request.
  public mutating func takeHint() -> Bool {
    defer { hintPlayed = true }
    return !hintPlayed
  }

  /// A new request (another asset): nothing of the old one counts.
  public mutating func restart() { self = ProgressiveDelivery() }
}
