import Foundation

/// Named places in the commit sequence where a test can make the process die as if the power were cut.
///
/// Set `PHOTOINTAKE_CRASH_AT=<point>[:<n>]` in a child process's environment: the n-th time (default the first)
/// the process reaches that point, it sends itself SIGKILL. Unset, each check is one load of a constant.
/// The crash test in the suite uses it to hit every window of the commit order deterministically, besides
/// killing at random moments.
///
/// Only builds with the `TestHooks` trait (`swift build --traits TestHooks`) read the variable; in every other
/// build, apps and a release `intake` included, ``reach()`` is empty and the environment is never consulted.
package enum CrashPoint: String, CaseIterable, Sendable {
  /// Bytes are in `staging/<uuid>.part` but not yet fsynced.
  case afterStagingWrite = "after-staging-write"
  /// The staged file is fsynced, not yet renamed.
  case afterStagingFsync = "after-staging-fsync"
  /// The intents of a commit group are committed; none of its objects is linked yet.
  case afterIntentCommit = "after-intent-commit"
  /// One more object of a group has its final name; the group's folders are not yet fsynced, it has no row.
  case afterRename = "after-rename"
  /// One more of a group's folders is fsynced; the group's rows are not yet committed.
  case afterFolderSync = "after-folder-sync"
  /// A group's rows are committed; its identity records are not yet in the journal, its items not yet
  /// acknowledged.
  case afterCommit = "after-commit"
  /// A group's identity records are durable in the journal; its items are not yet acknowledged.
  case afterJournal = "after-journal"

  #if TestHooks
    private static let armed: (point: CrashPoint, count: Int)? = {
      guard let spec = ProcessInfo.processInfo.environment["PHOTOINTAKE_CRASH_AT"] else { return nil }
      let parts = spec.split(separator: ":")
      guard let first = parts.first, let point = CrashPoint(rawValue: String(first)) else { return nil }
      return (point, parts.count > 1 ? Int(parts[1]) ?? 1 : 1)
    }()

    private static let reached = Protected(0)

    /// Dies here if this point is armed and this is the chosen time.
    package func reach() {
      guard let armed = Self.armed, armed.point == self else { return }
      let count = Self.reached.withLock { value -> Int in
        value += 1
        return value
      }
      if count == armed.count { kill(getpid(), SIGKILL) }
    }
  #else
    /// Nothing: crash points exist only in builds with the `TestHooks` trait.
    @inline(__always) package func reach() {}
  #endif
}
