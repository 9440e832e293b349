#if canImport(UIKit)
  import Foundation
  import PhotoIntake

  /// Block-based notification observers that are removed when their owner goes, or before.
  ///
  /// `NotificationCenter` keeps an observer made with `addObserver(forName:object:queue:using:)` until it is
  /// removed: a `[weak self]` block only stops it from doing anything, and a `@MainActor` class cannot remove
  /// its tokens in its (nonisolated) `deinit`. Holding them here removes them in this object's `deinit`, whatever
  /// the owner's isolation.
  final class NotificationTokens: Sendable {
    private let tokens = Protected<[any NSObjectProtocol]>([])

    /// Whether no observer is held.
    var isEmpty: Bool { tokens.withLock { $0.isEmpty } }

    /// Holds `observers` until ``removeAll()`` or this object's end.
    func add(_ observers: [any NSObjectProtocol]) {
      tokens.withLock { $0 += observers }
    }

    /// Removes every observer held from the default center.
    func removeAll() {
      let removed = tokens.withLock { tokens -> [any NSObjectProtocol] in
        defer { tokens = [] }
        return tokens
      }
      for token in removed { NotificationCenter.default.removeObserver(token) }
    }

    deinit { removeAll() }
  }
#endif
