import Foundation

#if os(Linux) || os(macOS) || os(Windows)  // where Foundation has `Process`
  extension Process {
    /// `run()`, while PhotoIntake does not change the environment (`ProcessEnvironment`): `run()` copies the
    /// environment for the child, and libvips's start changes it for a moment. Tests that start processes beside
    /// tests that make thumbnails use this; `run()` alone crashed in `memmove` twice.
    package func runHoldingTheEnvironment() throws {
      try ProcessEnvironment.withLock { try run() }
    }
  }
#endif
