/// A hook for tests: told whenever a backend is about to hand a file to its decoder, and for which source.
///
/// Task-local, like ``Syscalls/faults``, so that tests running in parallel each see only their own calls.
/// Tests use it to prove that a bomb is refused before the decoder sees it, and that the fast path never
/// touches the primary image.
package enum DecodeProbe {
  // Spelled out rather than `@TaskLocal static var`: the iOS 17 SDK's TaskLocal is a property wrapper, and a
  // wrapped `static var` counts as shared mutable state in Swift 6 mode there.
  package static let observer = TaskLocal<Observer?>(wrappedValue: nil)

  /// What tests bind: a function told of each decode.
  ///
  /// A class rather than a bare function: ``BlockingLanes`` binds the value again on a thread outside any
  /// task, and the Swift 6.3 runtime on Linux crashes (in `swift_task_localValuePush`) when a task-local value
  /// of function type is bound there.
  package final class Observer: Sendable {
    let notice: @Sendable (Thumbnail.Source) -> Void

    package init(_ notice: @escaping @Sendable (Thumbnail.Source) -> Void) { self.notice = notice }
  }

  static func willDecode(_ source: Thumbnail.Source) {
    observer.get()?.notice(source)
  }
}
