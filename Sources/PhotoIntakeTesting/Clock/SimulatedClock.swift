import PhotoIntake

/// A clock whose sleeps return at once and move its time forward instead, so simulated iCloud latency costs
/// tests nothing while timelines still show realistic times.
///
/// Each `sleep(until:)` sets ``now`` to the deadline if it is later, then yields once so other tasks run in
/// between. Sleepers with the same deadline therefore overlap: two waits until +100 ms end at +100 ms, not
/// +200 ms. (`sleep(for:)` takes its deadline from ``now`` when it is called, so concurrent tasks overlap only as
/// far as their calls interleave; tests that need exact times import one item at a time.)
///
/// ```swift
/// let clock = SimulatedClock()
/// try await clock.sleep(for: .seconds(2))   // returns immediately
/// clock.now.offset                          // 2 seconds
/// ```
public final class SimulatedClock: Clock, Sendable {
  /// A point on the simulated time line: the time since the clock was made.
  public struct Instant: InstantProtocol, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The time since the clock was made.
    public var offset: Duration

    /// The instant `offset` after the clock was made.
    public init(offset: Duration) { self.offset = offset }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    /// The time from this instant to `other`.
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

    /// "+1.250s", for timelines.
    public var description: String {
      let milliseconds =
        offset.components.seconds * 1000 + offset.components.attoseconds / 1_000_000_000_000_000
      let seconds = milliseconds / 1000
      let rest = String(milliseconds % 1000)
      return "+\(seconds).\(String(repeating: "0", count: 3 - rest.count))\(rest)s"
    }
  }

  private let current = Protected(Duration.zero)

  /// A clock at zero.
  public init() {}

  /// The current simulated time.
  public var now: Instant { Instant(offset: current.current) }
  /// Zero: simulated time has no granularity.
  public var minimumResolution: Duration { .zero }

  /// Moves the clock forward to `deadline` at once instead of waiting.
  ///
  /// - Throws: `CancellationError` when the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.withLock { now in now = max(now, deadline.offset) }
    await Task.yield()
    try Task.checkCancellation()
  }

  /// Moves time forward without sleeping, for scripted pauses ("the user comes back an hour later").
  public func advance(by duration: Duration) {
    current.withLock { $0 += duration }
  }
}
