#if canImport(UIKit)
  import PhotoIntake
  import UIKit

  /// Keeps an import running for a while after the user leaves the app, and cancels it when the system's time
  /// runs out.
  ///
  /// `UIApplication.beginBackgroundTask(withName:expirationHandler:)` asks for extra time; the expiration
  /// handler cancels the import (it cannot finish in time) and ends the task, as the system requires;
  /// ``end()`` ends it when the import finishes first. ``BackgroundTaskLease`` makes sure it is ended once.
  /// Without background time (`.invalid`, for example in an extension) the import runs as it would without.
  ///
  /// ```swift
  /// let work = Task { await assets.run(identifiers) }
  /// let protection = BackgroundImportProtection(name: "Import") { work.cancel() }
  /// defer { protection.end() }
  /// let outcome = await work.value
  /// ```
  @MainActor
  public final class BackgroundImportProtection {
    private let lease: BackgroundTaskLease
    private let identifier: Protected<UIBackgroundTaskIdentifier>

    /// Begins a background task named `name`; `cancel` stops the import when time runs out (on the main
    /// actor, where the expiration handler runs).
    public init(name: String, cancel: @escaping @MainActor @Sendable () -> Void) {
      let identifier = Protected(UIBackgroundTaskIdentifier.invalid)
      self.identifier = identifier
      let lease = BackgroundTaskLease(
        cancelWork: { MainActor.assumeIsolated { cancel() } },
        endTask: {
          MainActor.assumeIsolated {
            let current = identifier.withLock { $0 }
            if current != .invalid { UIApplication.shared.endBackgroundTask(current) }
          }
        })
      self.lease = lease
      // The handler is `NS_SWIFT_UI_ACTOR` (UIApplication.h); the documentation of
      // `beginBackgroundTask(withName:expirationHandler:)` says it is called synchronously on the main thread.
      let begun = UIApplication.shared.beginBackgroundTask(withName: name) {
        MainActor.assumeIsolated { lease.expired() }
      }
      identifier.withLock { $0 = begun }
    }

    /// The import finished: the background task ends (once).
    public func end() { lease.finished() }
  }
#endif
