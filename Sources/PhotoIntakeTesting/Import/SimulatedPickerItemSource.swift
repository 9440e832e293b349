import Foundation
import PhotoIntake

/// A simulated picker result as a `PhotoIntake.ItemSource`: the adapter the Apple layer writes for
/// `PHPickerResult`, run against the simulator.
///
/// It chooses the least-derived registered type (`PhotoIntake.RepresentationChoice`), asks the provider for a
/// file, and hands the file to the staging sink **inside** the completion handler with
/// `PhotoIntake.StagingSink.adoptFile(atPath:)`, before the provider deletes it. Download progress goes to the
/// sink; cancelling the import cancels the download; provider errors become the import errors a user can act on.
public struct SimulatedPickerItemSource: ItemSource {
  /// The picker result to load.
  public let result: SimulatedPickerResult
  /// The type to load; nil lets `PhotoIntake.RepresentationChoice` choose.
  public let typeIdentifier: String?

  /// A source for `result`, loading `typeIdentifier` or the best registered type.
  public init(_ result: SimulatedPickerResult, typeIdentifier: String? = nil) {
    self.result = result
    self.typeIdentifier = typeIdentifier
  }

  public var suggestedName: String? { result.itemProvider.suggestedName }

  public var typeHints: [String] {
    chosenType.map { [$0] } ?? []
  }

  private var chosenType: String? {
    typeIdentifier
      ?? RepresentationChoice.preferredTypeIdentifier(among: result.itemProvider.registeredTypeIdentifiers)
  }

  public func deliver(to sink: StagingSink) async throws(Importer.Error) {
    guard let type = chosenType else {
      throw .itemUnavailable(reason: "the picker returned this photo without an item provider")
    }
    let provider = result.itemProvider
    let running = Protected<SimulatedProgress?>(nil)
    let outcome: Result<Void, Importer.Error> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let progress = provider.loadFileRepresentation(forTypeIdentifier: type) { url, error in
          guard let url else {
            let mapped =
              (error as? ProviderError)?.importError
              ?? .sourceFailed(reason: "\(error.map { "\($0)" } ?? "no file")")
            continuation.resume(returning: .failure(mapped))
            return
          }
          // Inside the handler: once it returns, the file is gone.
          continuation.resume(
            returning: Result.typed { () throws(Importer.Error) in try sink.adoptFile(atPath: url.path) })
        }
        progress.observe { sink.reportProgress($0) }
        running.withLock { $0 = progress }
        if Task.isCancelled { progress.cancel() }
      }
    } onCancel: {
      running.withLock { $0?.cancel() }
    }
    try outcome.typedGet()
  }
}

/// An asset read through the simulated library, as an app with library access reads it with
/// `PHAssetResourceManager`: chunks streamed into the sink, with the app's access checked throughout.
public struct SimulatedLibraryItemSource: ItemSource {
  /// The device's library.
  public let library: SimulatedPhotoLibrary
  /// The asset to read.
  public let localIdentifier: String
  /// Whether iCloud downloads are allowed (`isNetworkAccessAllowed`).
  public let networkAccessAllowed: Bool

  /// A source that reads the asset `localIdentifier` from `library`.
  public init(library: SimulatedPhotoLibrary, localIdentifier: String, networkAccessAllowed: Bool = true) {
    self.library = library
    self.localIdentifier = localIdentifier
    self.networkAccessAllowed = networkAccessAllowed
  }

  public var suggestedName: String? { library.inspect(localIdentifier)?.filename }
  public var typeHints: [String] { [] }

  public func deliver(to sink: StagingSink) async throws(Importer.Error) {
    do {
      try await library.requestData(
        for: localIdentifier, networkAccessAllowed: networkAccessAllowed,
        progress: { sink.reportProgress($0) },
        dataReceived: { chunk in try sink.write(chunk) })
    } catch let error as Importer.Error {
      throw error
    } catch let error as ProviderError {
      throw error.importError
    } catch {
      throw .sourceFailed(reason: "\(error)")
    }
  }
}
