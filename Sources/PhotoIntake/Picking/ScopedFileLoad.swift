import Foundation

/// Runs one scoped file load and hands the file to `body` inside the completion handler, where the file still
/// exists.
///
/// Cancelling the calling task cancels the load. Whether the provider then calls its completion handler or not,
/// the wait ends: whichever of the handler and the cancellation comes first decides, exactly once, so a
/// provider that never answers a cancelled load cannot hang an import, and a file that arrives after the
/// cancellation is left to the provider to delete.
enum ScopedFileLoad {
  static func perform<Value: Sendable>(
    _ provider: any FileRepresentationProviding, typeIdentifier: String,
    progress: @escaping @Sendable (Double) -> Void,
    body: @escaping @Sendable (URL) throws(Importer.Error) -> Value
  ) async throws(Importer.Error) -> Value {
    let state = Protected(LoadState<Value>())
    let result: Result<Value, Importer.Error> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let cancelledEarly = state.withLock { state -> Bool in
          state.continuation = continuation
          return state.isCancelled
        }
        if cancelledEarly {
          state.withLock { $0.claim() }?.resume(returning: .failure(.cancelled))
          return
        }
        let load = provider.loadFileRepresentation(forTypeIdentifier: typeIdentifier, progress: progress) {
          url, error in
          // Claim the continuation before touching the file: a cancellation that won the race owns it.
          guard let continuation = state.withLock({ $0.claim() }) else { return }
          guard let url else {
            continuation.resume(
              returning: .failure(
                error.map(Importer.Error.init(providerError:))
                  ?? .itemUnavailable(reason: "the provider returned neither a file nor an error")))
            return
          }
          // Inside the handler: once it returns, the provider deletes the file.
          do throws(Importer.Error) {
            continuation.resume(returning: .success(try body(url)))
          } catch {
            continuation.resume(returning: .failure(error))
          }
        }
        let cancelNow = state.withLock { state -> Bool in
          state.load = load
          return state.isCancelled
        }
        if cancelNow { load.cancel() }
      }
    } onCancel: {
      let (load, continuation) = state.withLock { state in
        state.isCancelled = true
        return (state.load, state.claim())
      }
      load?.cancel()
      continuation?.resume(returning: .failure(.cancelled))
    }
    // A switch, not `result.get()`: typed `get()` needs Swift 6's standard library (see Importer.deliver).
    switch result {
    case .success(let value): return value
    case .failure(let error): throw error
    }
  }

  private struct LoadState<Value: Sendable> {
    var continuation: CheckedContinuation<Result<Value, Importer.Error>, Never>?
    var load: (any FileRepresentationLoad)?
    var isCancelled = false
    var claimed = false

    /// The continuation, to the first caller only, once it exists.
    mutating func claim() -> CheckedContinuation<Result<Value, Importer.Error>, Never>? {
      guard !claimed, let continuation else { return nil }
      claimed = true
      return continuation
    }
  }
}
