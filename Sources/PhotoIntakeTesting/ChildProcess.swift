import Foundation

#if canImport(Glibc)
  import Glibc
#endif

#if os(Linux) || os(macOS) || os(Windows)  // where Foundation has `Process`
  /// A child process for tests, with the part of Foundation's `Process` interface the package's tests use.
  ///
  /// On Linux it starts the child with `posix_spawn` itself, because Foundation's `Process.run()` can crash the
  /// test process there: to close the parent's descriptors in the child it lists `/proc/self/fd` and copies 256
  /// bytes from each entry's name (swift-corelibs-foundation PR #5472, not in Swift 6.3.1), though an entry is
  /// 24 bytes. With about 1,350 or more descriptors open (the test run has that many at times), entries fill
  /// glibc's 32 KiB directory buffer, and when that buffer is the last thing in a heap mapping the copy reads
  /// past its end: SIGSEGV in `memmove`. This type closes the parent's descriptors in the child with
  /// `posix_spawn_file_actions_addclosefrom_np` (`close_range`), so nothing reads `/proc/self/fd`.
  ///
  /// It copies the current environment (when `environment` is nil) under `ProcessEnvironment`'s lock, since
  /// libvips's start changes the environment for a moment.
  ///
  /// As with `Process` on Linux: a `Pipe` gives the child its one end and the parent closes that end after the
  /// start; a `FileHandle` is passed as it is; nil or `FileHandle.nullDevice` is `/dev/null`; unset, the parent's
  /// own standard input, output and error are inherited; the child gets
  /// its own process group; `terminationStatus` is the exit status, or the signal that ended the child.
  ///
  /// On other systems it is Foundation's `Process`.
  package final class ChildProcess: @unchecked Sendable {
    // @unchecked: the configuration is set before `run()` by one task; the child's state is behind `state`.
    package var executableURL: URL?
    package var arguments: [String]?
    package var environment: [String: String]?
    /// The parent's standard input, unless set.
    package var standardInput: Any? = FileHandle.standardInput
    /// The parent's standard output, unless set.
    package var standardOutput: Any? = FileHandle.standardOutput
    /// The parent's standard error, unless set.
    package var standardError: Any? = FileHandle.standardError

    /// Called on another thread once the child has ended.
    package var terminationHandler: (@Sendable (ChildProcess) -> Void)?

    package init() {}

    #if os(Linux)
      private struct State {
        var pid: pid_t = 0
        /// The `waitpid` status once the child has been reaped.
        var status: Int32?
      }
      private let state = Protected(State())

      package var processIdentifier: Int32 { state.current.pid }

      /// Starts the child.
      package func run() throws {
        guard let executable = executableURL?.path else { throw POSIXError(.ENOENT) }
        guard state.current.pid == 0 else { throw POSIXError(.EBUSY) }
        let environment =
          self.environment ?? ProcessEnvironment.withLock { ProcessInfo.processInfo.environment }

        var actions = posix_spawn_file_actions_t()
        try check(posix_spawn_file_actions_init(&actions))
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        try check(posix_spawnattr_init(&attributes))
        defer { posix_spawnattr_destroy(&attributes) }
        try check(posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP)))

        var closeInParent: [FileHandle] = []
        for (target, stream, isInput) in [
          (STDIN_FILENO, standardInput, true), (STDOUT_FILENO, standardOutput, false),
          (STDERR_FILENO, standardError, false),
        ] {
          switch stream {
          case let pipe as Pipe:
            let childEnd = isInput ? pipe.fileHandleForReading : pipe.fileHandleForWriting
            try check(posix_spawn_file_actions_adddup2(&actions, childEnd.fileDescriptor, target))
            closeInParent.append(childEnd)
          case let handle as FileHandle where handle === FileHandle.nullDevice:
            try check(posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0))
          case let handle as FileHandle where handle.fileDescriptor == target:
            break  // the parent's own stdin, stdout or stderr: inherited
          case let handle as FileHandle:
            try check(posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target))
          default:
            try check(posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0))
          }
        }
        try check(Self.closeFrom(&actions, 3))

        let argv = ([executable] + (arguments ?? [])).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        try check(posix_spawn(&pid, executable, &actions, &attributes, argv, envp))
        state.withLock { $0.pid = pid }
        for handle in closeInParent { try? handle.close() }
        if let terminationHandler {
          Thread.detachNewThread {
            self.waitUntilExit()
            terminationHandler(self)
          }
        }
      }

      /// Whether the child has not ended yet (reaps it if it has).
      package var isRunning: Bool {
        reap(blocking: false)
        return state.withLock { $0.pid != 0 && $0.status == nil }
      }

      /// Waits until the child has ended.
      package func waitUntilExit() {
        while isRunning {
          // Wait without reaping, so that a caller of `isRunning` on another thread meanwhile is no problem.
          var info = siginfo_t()
          let pid = processIdentifier
          if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno != EINTR {
            reap(blocking: false)
            if state.current.status == nil { usleep(1000) }
          }
        }
      }

      /// The child's exit status, or the number of the signal that ended it.
      package var terminationStatus: Int32 {
        guard let status = state.current.status else { return 0 }
        return exited(status) ? (status >> 8) & 0xFF : status & 0x7F
      }

      package var terminationReason: Process.TerminationReason {
        guard let status = state.current.status else { return .exit }
        return exited(status) ? .exit : .uncaughtSignal
      }

      /// Sends SIGTERM.
      package func terminate() { signal(SIGTERM) }

      /// Sends SIGINT.
      package func interrupt() { signal(SIGINT) }

      private func signal(_ number: Int32) {
        state.withLock { state in
          if state.pid != 0 && state.status == nil { _ = kill(state.pid, number) }
        }
      }

      private func reap(blocking: Bool) {
        state.withLock { state in
          guard state.pid != 0, state.status == nil else { return }
          var status: Int32 = 0
          var result: pid_t
          repeat {
            result = waitpid(state.pid, &status, blocking ? 0 : WNOHANG)
          } while result == -1 && errno == EINTR
          if result == state.pid { state.status = status }
        }
      }

      private func exited(_ status: Int32) -> Bool { status & 0x7F == 0 }

      private func check(_ result: Int32) throws {
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
      }

      private typealias CloseFrom =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) ->
        Int32

      /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; Swift's Glibc module does not
      /// declare it).
      private static let addCloseFrom: CloseFrom? = {
        guard
          let symbol = dlsym(
            UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
      }()

      /// Closes every descriptor from `lowest` up in the child. Without `addclosefrom_np`, closes those open now
      /// that are not close-on-exec (asking `fcntl`, not reading `/proc/self/fd`).
      private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) -> Int32 {
        if let addCloseFrom { return addCloseFrom(&actions, lowest) }
        for descriptor in lowest..<max(lowest, getdtablesize()) {
          let flags = fcntl(descriptor, F_GETFD)
          guard flags != -1, flags & FD_CLOEXEC == 0 else { continue }
          let result = posix_spawn_file_actions_addclose(&actions, descriptor)
          if result != 0 { return result }
        }
        return 0
      }
    #else
      private let process = Process()

      package var processIdentifier: Int32 { process.processIdentifier }
      package var isRunning: Bool { process.isRunning }
      package var terminationStatus: Int32 { process.terminationStatus }
      package var terminationReason: Process.TerminationReason { process.terminationReason }

      package func run() throws {
        process.executableURL = executableURL
        process.arguments = arguments
        process.environment = environment
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        if let terminationHandler {
          process.terminationHandler = { _ in terminationHandler(self) }
        }
        try ProcessEnvironment.withLock { try process.run() }
      }

      package func waitUntilExit() { process.waitUntilExit() }
      package func terminate() { process.terminate() }
      package func interrupt() { process.interrupt() }
    #endif
  }
#endif  // os(Linux) || os(macOS) || os(Windows)
