import Foundation
import PhotoMetadata

/// One picked Live Photo, loaded once as a bundle and imported as two assets: the still, then its movie.
///
/// The bundle's folder exists only inside the provider's completion handler, but the importer gives each item
/// its own staging sink, possibly one after the other. So the still's source runs the load and, inside the
/// handler, adopts the still into its sink and links the movie to a staging path of its own (`staging/` is
/// swept when the library opens, so a crash leaves nothing behind); the movie's source waits for that and
/// adopts the linked movie. The still's source must come first in the import, which ``PickPlan`` ensures; the
/// movie's source never starts a load itself.
///
/// The pair is then one picked item (``PhotoSelection/Item/pairedVideo``). A movie that cannot be had (the
/// bundle holds none, or linking it fails) fails only the movie's item: the still is kept as a photo.
///
/// A bundle that fails to load (an iCloud download that failed, a bundle type the provider cannot coerce, a
/// folder without a still) does not lose the photo: when the provider also registers a still
/// (`public.heic`, `public.jpeg`, chosen by ``RepresentationChoice``), the still is loaded on its own and the
/// movie's item fails with the bundle's error. Only a cancelled load is not retried.
public final class LivePhotoLoad: Sendable {
  private enum Outcome: Sendable {
    case pending
    /// The movie's staging path (nil: the bundle had no movie), or why there is none.
    case done(Result<String?, Importer.Error>)
  }

  private struct State {
    var outcome = Outcome.pending
    var waiter: CheckedContinuation<Result<String?, Importer.Error>, Never>?
    var waiterCancelled = false
    /// The parked movie, until the movie's source has adopted it.
    var parked: String?
  }

  /// The provider the bundle is loaded from.
  public let provider: any FileRepresentationProviding
  /// The bundle's registered type identifier.
  public let bundleTypeIdentifier: String
  private let moviePath: String?
  private let state = Protected(State())

  /// - Parameter movieStagingPath: where the movie waits between the two deliveries (a new
  ///   `staging/<uuid>.part` of the library being imported into); nil keeps the still only.
  public init(
    provider: any FileRepresentationProviding, bundleTypeIdentifier: String, movieStagingPath: String?
  ) {
    self.provider = provider
    self.bundleTypeIdentifier = bundleTypeIdentifier
    moviePath = movieStagingPath
  }

  deinit {
    // A movie nobody adopted (the import was cancelled between the two items).
    if let parked = state.withLock({ $0.parked }) { try? Syscalls.unlink(parked) }
  }

  /// The source of the still; it runs the load.
  public var stillSource: any ItemSource { Still(load: self) }
  /// The source of the movie; it waits for the still's load.
  public var movieSource: any ItemSource { Movie(load: self) }

  private struct Still: ItemSource {
    let load: LivePhotoLoad
    var suggestedName: String? { load.provider.suggestedName }
    var typeHints: [String] { [] }
    func deliver(to sink: StagingSink) async throws(Importer.Error) {
      try await load.deliverStill(to: sink)
    }
  }

  private struct Movie: ItemSource {
    let load: LivePhotoLoad
    var suggestedName: String? {
      // "IMG_0100.HEIC" → "IMG_0100.MOV": the movie's own name is not known before the load, and the
      // extension is only a hint.
      load.provider.suggestedName.map { name in
        let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        return stem + ".MOV"
      }
    }
    var typeHints: [String] { [] }
    func deliver(to sink: StagingSink) async throws(Importer.Error) {
      try await load.deliverMovie(to: sink)
    }
  }

  private func deliverStill(to sink: StagingSink) async throws(Importer.Error) {
    let moviePath = self.moviePath
    let state = self.state
    do throws(Importer.Error) {
      let movie = try await ScopedFileLoad.perform(
        provider, typeIdentifier: bundleTypeIdentifier, progress: { sink.reportProgress($0) }
      ) { url throws(Importer.Error) -> Result<String?, Importer.Error> in
        let bundle = try LivePhotoBundle.open(at: url.path)
        try sink.adoptFile(atPath: bundle.stillPath)
        guard let movie = bundle.moviePath, let moviePath else { return .success(nil) }
        // Still inside the handler: link the movie before the provider deletes the folder.
        do throws(Importer.Error) {
          try FilePlacement.place(movie, at: moviePath)
          state.withLock { $0.parked = moviePath }
          return .success(moviePath)
        } catch {
          return .failure(error)
        }
      }
      finish(movie)
    } catch {
      finish(.failure(error))
      guard error != .cancelled, let still = stillFallbackTypeIdentifier else { throw error }
      try await ScopedFileLoad.perform(
        provider, typeIdentifier: still, progress: { sink.reportProgress($0) }
      ) { url throws(Importer.Error) in
        try sink.adoptFile(atPath: url.path)
      }
    }
  }

  /// The still the provider registers besides the bundle, for a bundle that fails to load.
  var stillFallbackTypeIdentifier: String? {
    let others = provider.registeredTypeIdentifiers.filter { !LivePhotoBundle.isBundleType($0) }
    guard let type = RepresentationChoice.preferredTypeIdentifier(among: others),
      MediaType(hint: type)?.isImage == true
    else { return nil }
    return type
  }

  private func deliverMovie(to sink: StagingSink) async throws(Importer.Error) {
    let result = await movieOutcome()
    let parked: String?
    switch result {
    case .success(let path): parked = path
    case .failure(let error): throw error
    }
    guard let parked else {
      throw .conversionFailed(
        reason: "the Live Photo came without its movie; the photo was kept without motion")
    }
    defer {
      try? Syscalls.unlink(parked)
      state.withLock { $0.parked = nil }
    }
    try sink.adoptFile(atPath: parked)
  }

  private func finish(_ outcome: Result<String?, Importer.Error>) {
    let waiter = state.withLock { state -> CheckedContinuation<Result<String?, Importer.Error>, Never>? in
      state.outcome = .done(outcome)
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: outcome)
  }

  /// Waits for the still's load; a cancelled wait ends at once with ``Importer/Error/cancelled``.
  private func movieOutcome() async -> Result<String?, Importer.Error> {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let now = state.withLock { state -> Result<String?, Importer.Error>? in
          if case .done(let outcome) = state.outcome { return outcome }
          if state.waiterCancelled { return .failure(.cancelled) }
          state.waiter = continuation
          return nil
        }
        if let now { continuation.resume(returning: now) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Result<String?, Importer.Error>, Never>? in
        state.waiterCancelled = true
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: .failure(.cancelled))
    }
  }
}
