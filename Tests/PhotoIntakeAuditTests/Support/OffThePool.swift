import Dispatch

/// Runs synchronous, CPU-bound audit work on a Dispatch worker instead of the cooperative pool, and awaits it.
///
/// The cooperative pool has one thread per core (two on the test machine). Hundreds of fixture audits and the
/// hostile-input tests held both for over a minute, so tasks of other suites waited past their one-minute time
/// limits. Dispatch's global queue has workers of its own, as many as the cores, so the audits still run in
/// parallel while the pool stays free.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global(qos: .utility).async { continuation.resume(with: Result(catching: work)) }
  }
}
