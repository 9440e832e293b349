import Foundation

#if os(Linux) || os(macOS) || os(Windows)  // where Foundation has `Process`
  extension Process {
    /// `run()`, while PhotoIntake does not change the environment (`ProcessEnvironment`): `run()` copies the
    /// environment for the child, and libvips's start changes it for a moment. Tests that start processes beside
    /// tests that make thumbnails use this.
    ///
    /// It does not prevent the other crash of `run()` on Linux, in `memmove` (swift-corelibs-foundation PR #5472:
    /// an over-read of each `/proc/self/fd` entry): `Scripts/test.sh` prevents that one with a glibc tunable.
    package func runHoldingTheEnvironment() throws {
      try ProcessEnvironment.withLock { try run() }
    }
  }
#endif
