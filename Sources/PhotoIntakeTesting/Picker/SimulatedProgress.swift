import PhotoIntake

/// The progress of one load, like the `Progress` that `loadFileRepresentation` returns: observable, and
/// cancellable, which stops the download.
public final class SimulatedProgress: Sendable {
  private struct State {
    var fraction = 0.0
    var isCancelled = false
    var observers: [@Sendable (Double) -> Void] = []
  }

  private let state = Protected(State())

  init() {}

  /// 0…1.
  public var fractionCompleted: Double { state.withLock { $0.fraction } }
  /// Whether the load was cancelled.
  public var isCancelled: Bool { state.withLock { $0.isCancelled } }

  /// Stops the load; its completion handler then gets a "cancelled" error.
  public func cancel() { state.withLock { $0.isCancelled = true } }

  /// Calls `observer` with each new fraction (like key-value observing `fractionCompleted` with `.initial`):
  /// at once with the fraction so far, when the load has started, then with each step.
  public func observe(_ observer: @escaping @Sendable (Double) -> Void) {
    let now = state.withLock { state in
      state.observers.append(observer)
      return state.fraction
    }
    if now > 0 { observer(now) }
  }

  func update(_ fraction: Double) {
    let observers = state.withLock { state -> [@Sendable (Double) -> Void] in
      guard fraction > state.fraction else { return [] }
      state.fraction = fraction
      return state.observers
    }
    for observer in observers { observer(fraction) }
  }
}
