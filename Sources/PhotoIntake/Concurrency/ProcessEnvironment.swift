import Foundation

/// The one lock under which this package changes the process's environment.
///
/// `setenv` and `unsetenv` may move the `environ` array while another thread copies it (starting a child process
/// does, for the child's environment), and the copy then reads freed memory. The only change is libvips's start
/// (it needs `VIPSHOME` set for a moment, see `Vips`); the package's tests copy the environment for their child
/// processes under the same lock (`ChildProcess` in PhotoIntakeTesting).
package enum ProcessEnvironment {
  private static let lock = Protected(())

  /// Runs `body` while no other caller of this function changes or copies the environment.
  package static func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    try lock.withLock { _ in try body() }
  }
}
