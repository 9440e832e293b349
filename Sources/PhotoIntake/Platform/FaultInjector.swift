// Test machinery: compiled only with the `TestHooks` trait (see Package.swift), never into apps.
#if TestHooks
  /// Failures to inject into ``Syscalls`` for tests: "the 3rd write to a staging file fails with ENOSPC",
  /// "fsync fails with EIO", "run this closure after the first read of a source".
  ///
  /// Public test API lives in `PhotoIntakeTesting` (`FaultInjection`); this is the mechanism.
  package final class FaultInjector: Sendable {
    package struct Rule: Sendable {
      package var operation: SystemError.Operation
      /// Only paths containing this text (e.g. "/staging/"); nil matches every path.
      package var pathContains: String?
      package var code: Int32
      /// For writes: fail once this many bytes have been written to matching paths.
      package var afterBytes: Int
      /// How many times the rule fires; nil for every time.
      package var times: Int?
      /// How many matching calls succeed before the rule starts to fire (fail "the n-th call": skip n − 1).
      package var skip: Int

      package init(
        _ operation: SystemError.Operation, pathContains: String? = nil, code: Int32, afterBytes: Int = 0,
        times: Int? = nil, skip: Int = 0
      ) {
        self.operation = operation
        self.pathContains = pathContains
        self.code = code
        self.afterBytes = afterBytes
        self.times = times
        self.skip = skip
      }
    }

    private struct State {
      var rules: [Rule]
      var bytesWritten: [Int: Int] = [:]
      var fired: [Int: Int] = [:]
      var skipped: [Int: Int] = [:]
    }

    private let state: Protected<State>
    private let readHook: (@Sendable (_ path: String, _ count: Int) -> Void)?

    /// The power-loss model in force, if any.
    package let powerLoss: PowerLossModel?
    /// Called before each system call (with its operation and path), e.g. to make it slow.
    private let callHook: (@Sendable (_ operation: SystemError.Operation, _ path: String) -> Void)?

    /// - Parameters:
    ///   - afterRead: called after each successful read, e.g. to change a source while it is copied.
    ///   - powerLoss: records what a power cut would lose (see ``PowerLossModel``).
    ///   - beforeCall: called before each system call, e.g. to make fsync take half a second.
    package init(
      _ rules: [Rule], afterRead: (@Sendable (_ path: String, _ count: Int) -> Void)? = nil,
      powerLoss: PowerLossModel? = nil,
      beforeCall: (@Sendable (_ operation: SystemError.Operation, _ path: String) -> Void)? = nil
    ) {
      state = Protected(State(rules: rules))
      readHook = afterRead
      self.powerLoss = powerLoss
      callHook = beforeCall
    }

    /// How many times each rule (by index) has fired.
    package var firedCounts: [Int: Int] { state.current.fired }

    func error(for operation: SystemError.Operation, path: String, bytes: Int) -> Int32? {
      callHook?(operation, path)
      return state.withLock { state in
        for (index, rule) in state.rules.enumerated() where rule.operation == operation {
          if let needle = rule.pathContains, !path.contains(needle) { continue }
          if let times = rule.times, state.fired[index, default: 0] >= times { continue }
          if state.skipped[index, default: 0] < rule.skip {
            state.skipped[index, default: 0] += 1
            continue
          }
          if operation == .write {
            let before = state.bytesWritten[index, default: 0]
            if before + bytes <= rule.afterBytes {
              state.bytesWritten[index] = before + bytes
              continue
            }
          }
          state.fired[index, default: 0] += 1
          return rule.code
        }
        return nil
      }
    }

    func didRead(path: String, count: Int) {
      readHook?(path, count)
    }
  }
#endif
