import Foundation

/// A value guarded by a lock, for small state shared between tasks and C callbacks.
///
/// `Synchronization.Mutex` would be the first choice, but it needs iOS 18 / macOS 15 and the package
/// supports iOS 16 / macOS 13. Swap this for `Mutex` when the deployment target allows.
package final class Protected<Value>: @unchecked Sendable {
  // @unchecked: `value` is only read or written inside `lock`, so access is serialised.
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) { self.value = value }

  /// Runs `body` with exclusive access to the value.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  /// A copy of the current value.
  package var current: Value { withLock { $0 } }
}
