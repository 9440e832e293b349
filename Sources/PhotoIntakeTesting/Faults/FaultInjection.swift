#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Only in builds with the `TestHooks` trait: PhotoIntake's fault hooks exist only there (see Package.swift).
#if TestHooks
  import PhotoIntake

  /// Injects storage failures into PhotoIntake's file operations for the code that runs inside ``run(_:)``: a
  /// full disk after some bytes, a failing fsync, a refused rename. Other tasks, tests running in parallel
  /// included, are not affected.
  ///
  /// Only in builds with PhotoIntake's `TestHooks` package trait (`traits: ["TestHooks"]` on the dependency):
  /// the hooks it drives are compiled out of every other build, so that apps never ship them.
  ///
  /// ```swift
  /// let faults = FaultInjection([.diskFull(afterBytes: 1000)])
  /// let summary = await faults.run { await importer.importItems(sources) }
  /// #expect(faults.firedCount(0) > 0)
  /// ```
  public final class FaultInjection: Sendable {
    /// A file operation that can fail.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
      /// The operations of PhotoIntake's system-call layer.
      case open, read, write, fsync, rename, link, unlink, mkdir, stat

      var system: SystemError.Operation {
        switch self {
        case .open: .open
        case .read: .read
        case .write: .write
        case .fsync: .fsync
        case .rename: .rename
        case .link: .link
        case .unlink: .unlink
        case .mkdir: .mkdir
        case .stat: .stat
        }
      }
    }

    /// Where a fault applies.
    public enum Scope: Sendable, Hashable {
      /// Files being received (`staging/`).
      case staging
      /// The library's objects (`objects/`).
      case objects
      /// Paths containing this text.
      case pathContaining(String)
      /// Every path.
      case everywhere

      var needle: String? {
        switch self {
        case .staging: "/staging/"
        case .objects: "/objects/"
        case .pathContaining(let text): text
        case .everywhere: nil
        }
      }
    }

    /// One failure: an operation, where, the `errno`, and how often.
    public struct Fault: Sendable, Hashable {
      /// The operation that fails.
      public var operation: Operation
      /// Where it fails.
      public var scope: Scope
      /// The `errno` it fails with.
      public var errno: Int32
      /// For writes: the bytes that succeed before the fault fires.
      public var afterBytes: Int
      /// How many times the fault fires; nil for every time.
      public var times: Int?

      /// A fault of `operation` with `errno`, in `scope`, after `afterBytes` bytes for writes, `times` times
      /// (nil: every time).
      public init(
        _ operation: Operation, scope: Scope = .everywhere, errno: Int32, afterBytes: Int = 0,
        times: Int? = nil
      ) {
        self.operation = operation
        self.scope = scope
        self.errno = errno
        self.afterBytes = afterBytes
        self.times = times
      }

      /// The disk fills up: writes fail with `ENOSPC` once `afterBytes` have been written.
      public static func diskFull(afterBytes: Int = 0, scope: Scope = .staging) -> Fault {
        Fault(.write, scope: scope, errno: ENOSPC, afterBytes: afterBytes)
      }

      /// `fsync` reports an I/O error (`EIO`), once.
      public static func fsyncFails(scope: Scope = .staging) -> Fault {
        Fault(.fsync, scope: scope, errno: EIO, times: 1)
      }

      /// Hard links are refused (`EXDEV`, another volume), so adopting a file falls back to copying it.
      public static func noHardLinks(scope: Scope = .staging) -> Fault {
        Fault(.link, scope: scope, errno: EXDEV)
      }
    }

    /// The faults in effect while ``run(_:)`` runs its body.
    public let faults: [Fault]
    let injector: FaultInjector

    /// Injection of `faults`.
    public init(_ faults: [Fault]) {
      self.faults = faults
      injector = FaultInjector(
        faults.map { fault in
          FaultInjector.Rule(
            fault.operation.system, pathContains: fault.scope.needle, code: fault.errno,
            afterBytes: fault.afterBytes, times: fault.times)
        })
    }

    /// Runs `body` with the faults in force, for it and every task it starts.
    public func run<Result: Sendable>(_ body: () async throws -> Result) async rethrows -> Result {
      try await Syscalls.injectedFaults.withValue(injector) { try await body() }
    }

    /// How many times the fault at `index` fired.
    public func firedCount(_ index: Int) -> Int { injector.firedCounts[index, default: 0] }
  }
#endif
