import Foundation

/// The one lock under which this package changes the process's environment.
///
/// `setenv` and `unsetenv` may move the `environ` array while another thread copies it (`Process.run()` does, for
/// a child's environment), and the copy then reads freed memory. The only change is libvips's start (it needs
/// `VIPSHOME` set for a moment, see `Vips`); the package's tests start their child processes under the same
/// lock (`Process.runHoldingTheEnvironment()` in PhotoIntakeTesting), which is how two crashes in `memmove` inside
/// `Process.run()` were fixed.
package enum ProcessEnvironment {
  private static let lock = Protected(())

  /// Runs `body` while no other caller of this function changes or copies the environment.
  package static func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    try lock.withLock { _ in try body() }
  }
}
