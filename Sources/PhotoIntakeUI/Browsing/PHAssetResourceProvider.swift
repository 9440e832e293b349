#if canImport(Photos)
  import Foundation
  import Photos
  import PhotoIntake
  import UniformTypeIdentifiers

  /// The Photos library as the core's ``AssetResourceProviding``: `PHAssetResource.assetResources(for:)` and
  /// `PHAssetResourceManager.writeData(for:toFile:options:completionHandler:)`, which writes the resource straight
  /// to a file (PhotoKit streams it; the bytes never pass through a `Data`).
  ///
  /// ``AssetImport`` makes every decision; this only forwards. `isNetworkAccessAllowed` lets PhotoKit download an
  /// iCloud original, whose `progressHandler` becomes the import's progress. Errors are mapped with
  /// ``PhotoIntake/Importer/Error/init(assetResourceError:)``: `networkAccessRequired` (3164) and `networkError`
  /// (3169) → offline, iCloud Photos' own errors (`CloudPhotoLibraryErrorDomain`, alone or under 3169) → iCloud
  /// unavailable, `identifierNotFound` (3201) and `missingResource` (3303) → deleted meanwhile,
  /// `userCancelled` (3072) → cancelled, `notEnoughSpace` (3305) → disk full, 3310/3311 → access denied.
  ///
  /// Cancellation: `writeData` returns no request identifier (PHAssetResourceManager.h), so
  /// `cancelDataRequest(_:)` cannot stop it. Cancelling the import ends the wait at once, and the file PhotoKit
  /// writes afterwards is deleted when its completion handler runs. ``Transfer/chunks`` uses
  /// `requestData(for:options:dataReceivedHandler:completionHandler:)` instead, whose request *can* be cancelled
  /// (the download stops), writing each chunk to the file as it arrives.
  ///
  /// ```swift
  /// let assets = AssetImport(importer: importer, provider: PHAssetResourceProvider())
  /// let outcome = await assets.run(selected.map(\.localIdentifier))
  /// ```
  public struct PHAssetResourceProvider: AssetResourceProviding {
    /// How the resource's bytes reach the file.
    public enum Transfer: Sendable, Hashable {
      /// `writeData(for:toFile:options:completionHandler:)`: PhotoKit writes the file itself.
      case file
      /// `requestData(for:options:dataReceivedHandler:completionHandler:)`: chunks appended to the file as they
      /// arrive; cancellable with `cancelDataRequest(_:)`.
      case chunks
    }

    /// How the bytes reach the file.
    public var transfer: Transfer

    /// A provider over `PHAssetResourceManager.default()`.
    public init(transfer: Transfer = .file) { self.transfer = transfer }

    public func assetResources(forAsset localIdentifier: String) async throws(Importer.Error)
      -> [AssetResource]
    {
      // Fetching queries the Photos database: on a lane of our own, never on the cooperative pool.
      try await BlockingLanes.io.run { () throws(Importer.Error) in
        let resources = try Self.resources(of: localIdentifier)
        return resources.compactMap { resource in
          AssetResource.Kind(rawValue: resource.type.rawValue).map {
            AssetResource(
              kind: $0, uniformTypeIdentifier: Self.typeIdentifier(of: resource),
              originalFilename: resource.originalFilename)
          }
        }
      }
    }

    public func writeData(
      for resource: AssetResource, ofAsset localIdentifier: String, toFile path: String,
      networkAccessAllowed: Bool, progress: @escaping @Sendable (Double) -> Void
    ) async throws(Importer.Error) {
      let box = try await BlockingLanes.io.run { () throws(Importer.Error) in
        let found = try Self.resources(of: localIdentifier).first {
          $0.type.rawValue == resource.kind.rawValue && $0.originalFilename == resource.originalFilename
        }
        guard let found else { throw .assetDeleted }
        return ResourceBox(resource: found)
      }
      let options = PHAssetResourceRequestOptions()
      options.isNetworkAccessAllowed = networkAccessAllowed
      options.progressHandler = { fraction in progress(fraction) }
      let request = ResourceRequest(path: path)
      let transfer = self.transfer
      // A Result, not a throwing operation: the SDK's withTaskCancellationHandler rethrows untyped errors.
      let outcome = await withTaskCancellationHandler {
        await request.run(box.resource, options: options, transfer: transfer)
      } onCancel: {
        request.cancel()
      }
      switch outcome {
      case .success: return
      case .failure(let error): throw error
      }
    }

    /// The resource's type: `contentType` (a `UTType`, iOS 26 and macOS 26) where the SDK and the system have
    /// it, `uniformTypeIdentifier` (which PHAssetResource.h marks "Use contentType instead") before.
    static func typeIdentifier(of resource: PHAssetResource) -> String {
      #if canImport(AVFoundation, _version: 2395)
        // The iOS 26 / macOS 26 SDKs (the AVFoundation overlay's version tells the SDKs apart).
        if #available(iOS 26, macOS 26, tvOS 26, visionOS 26, *) { return resource.contentType.identifier }
      #endif
      return resource.uniformTypeIdentifier
    }

    /// The resources of the asset, or ``PhotoIntake/Importer/Error/assetDeleted`` when it is gone.
    private static func resources(of localIdentifier: String) throws(Importer.Error) -> [PHAssetResource] {
      // "The first time you call one of the methods listed in Fetching Assets, Photos automatically prompts the
      // user for authorization" (PhotoKit, Fetching Assets): without read access, refuse instead of fetching.
      let status = PHPhotoLibrary.authorizationStatus(for: .readWrite)
      guard status == .authorized || status == .limited else { throw .photoLibraryAccessDenied }
      guard
        let asset = PHAsset.fetchAssets(withLocalIdentifiers: [localIdentifier], options: nil).firstObject
      else {
        throw .assetDeleted
      }
      return PHAssetResource.assetResources(for: asset)
    }
  }

  /// Carries a resource out of the lane that fetched it.
  private struct ResourceBox: @unchecked Sendable {
    // @unchecked: a PHAssetResource is an immutable description (type, identifiers, name) that PhotoKit hands out
    // on any queue; the SDK does not mark it Sendable.
    let resource: PHAssetResource
  }

  /// One resource request, finished exactly once: by PhotoKit's completion handler or by a cancellation.
  private final class ResourceRequest: Sendable {
    private struct State {
      var continuation: CheckedContinuation<Result<Void, Importer.Error>, Never>?
      var requestID: PHAssetResourceDataRequestID?
      var cancelled = false
      var finished = false
    }

    let path: String
    private let state = Protected(State())

    init(path: String) { self.path = path }

    func run(
      _ resource: PHAssetResource, options: PHAssetResourceRequestOptions,
      transfer: PHAssetResourceProvider.Transfer
    ) async -> Result<Void, Importer.Error> {
      let path = self.path
      let result: Result<Void, Importer.Error> = await withCheckedContinuation { continuation in
        let cancelled = state.withLock { state -> Bool in
          state.continuation = continuation
          return state.cancelled
        }
        if cancelled {
          finish(.failure(.cancelled))
          return
        }
        let manager = PHAssetResourceManager.default()
        switch transfer {
        case .file:
          manager.writeData(for: resource, toFile: URL(fileURLWithPath: path), options: options) {
            [self] error in
            // A cancelled wait has ended: the file written now is nobody's.
            if !finish(error.map { .failure(Importer.Error(assetResourceError: $0)) } ?? .success(())) {
              try? Syscalls.unlink(path)
            }
          }
        case .chunks:
          let output = ChunkFile(path: path)
          let id = manager.requestData(
            for: resource, options: options,
            dataReceivedHandler: { data in output.append(data) },
            completionHandler: { [self] error in
              let outcome: Result<Void, Importer.Error> =
                if let error { .failure(Importer.Error(assetResourceError: error)) } else { output.close() }
              output.discardIfOpen()
              // After a cancelled wait, what the chunks wrote is nobody's.
              if !finish(outcome) { try? Syscalls.unlink(path) }
            })
          let cancelNow = state.withLock { state -> Bool in
            state.requestID = id
            return state.cancelled
          }
          if cancelNow { manager.cancelDataRequest(id) }
        }
      }
      return result
    }

    /// Ends the wait with ``PhotoIntake/Importer/Error/cancelled`` and stops a chunked request.
    func cancel() {
      let id = state.withLock { state -> PHAssetResourceDataRequestID? in
        state.cancelled = true
        return state.requestID
      }
      if let id { PHAssetResourceManager.default().cancelDataRequest(id) }
      finish(.failure(.cancelled))
    }

    /// Resumes the waiting task once; returns false when it had already been resumed.
    @discardableResult
    private func finish(_ result: Result<Void, Importer.Error>) -> Bool {
      let continuation = state.withLock {
        state -> CheckedContinuation<Result<Void, Importer.Error>, Never>? in
        guard !state.finished, let continuation = state.continuation else { return nil }
        state.finished = true
        return continuation
      }
      continuation?.resume(returning: result)
      return continuation != nil
    }
  }

  /// The file a chunked request appends to; PhotoKit calls its handlers on one serial queue.
  private final class ChunkFile: Sendable {
    private struct State {
      /// The file, made at the first chunk (``DurableFile``, which closes itself).
      var file: DurableFile?
      var failure: Importer.Error?
    }

    let path: String
    private let state = Protected(State())

    init(path: String) { self.path = path }

    func append(_ data: Data) {
      state.withLock { state in
        guard state.failure == nil else { return }
        do throws(SystemError) {
          if state.file == nil {
            // New (O_EXCL): like writeData, never write over a file that is there. The staging sink adopts it
            // and makes it durable.
            let (folder, name) = try DurableFile.split(path)
            state.file = try DurableFile.create(in: folder, name: name)
          }
          let file = state.file!
          // A Result: Data.withUnsafeBytes rethrows untyped errors.
          let written = data.withUnsafeBytes { buffer in
            Result.typed { () throws(SystemError) in try file.write(buffer) }
          }
          try written.typedGet()
        } catch {
          state.failure = Importer.Error(libraryFailure: error)
        }
      }
    }

    /// Closes the file; the first write failure, if any.
    func close() -> Result<Void, Importer.Error> {
      state.withLock { state in
        state.file = nil
        return state.failure.map { .failure($0) } ?? .success(())
      }
    }

    /// Closes a file left open by a failed request.
    func discardIfOpen() { _ = close() }
  }
#endif
