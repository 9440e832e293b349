import Foundation
import PhotoIntake

/// The library's assets as `PhotoIntake.AssetResourceProviding`: the two calls the Apple layer forwards to
/// `PHAssetResource.assetResources(for:)` and `PHAssetResourceManager.writeData(for:toFile:options:
/// completionHandler:)`, with the app's access checked, iCloud downloads (progress, offline, injected failures)
/// and deletions between the fetch and the write, so that `PhotoIntake.AssetImport` is tested as it runs on a
/// phone.
extension SimulatedPhotoLibrary: AssetResourceProviding {
  /// The asset's resources as PhotoKit lists them: `.photo` or `.video` (the original), a Live Photo's
  /// `.pairedVideo`, and after ``SimulatedUser/edit(_:)`` the renderings (`.fullSizePhoto`, `.fullSizeVideo`,
  /// `.fullSizePairedVideo`) with `.adjustmentData`; an asset saved from a deferred proxy
  /// (``saveDeferredProxy(_:final:)``) lists `.photoProxy` only, until it is processed.
  public func assetResources(forAsset localIdentifier: String) async throws(Importer.Error) -> [AssetResource]
  {
    let stored: StoredAsset
    do {
      stored = try lookUp(localIdentifier)
    } catch {
      throw Importer.Error(assetResourceErrorChain: error.chain, reason: error.reason)
    }
    let image = stored.asset.kind.isImage
    // An asset saved from a deferred proxy lists the proxy until Photos has processed it.
    let processing: Bool
    if case .processing = stored.deferred { processing = true } else { processing = false }
    let primary: AssetResource.Kind = processing ? .photoProxy : image ? .photo : .video
    var resources = [
      AssetResource(
        kind: primary, uniformTypeIdentifier: stored.original.typeIdentifier,
        originalFilename: stored.original.filename)
    ]
    if let video = stored.pairedVideo {
      resources.append(
        AssetResource(
          kind: .pairedVideo, uniformTypeIdentifier: video.typeIdentifier, originalFilename: video.filename))
    }
    if let rendered = stored.rendered {
      resources.append(
        AssetResource(
          kind: image ? .fullSizePhoto : .fullSizeVideo, uniformTypeIdentifier: rendered.typeIdentifier,
          originalFilename: rendered.filename))
      resources.append(
        AssetResource(
          kind: .adjustmentData, uniformTypeIdentifier: "com.apple.property-list",
          originalFilename: "Adjustments.plist"))
    }
    if let video = stored.renderedPairedVideo {
      resources.append(
        AssetResource(
          kind: .fullSizePairedVideo, uniformTypeIdentifier: video.typeIdentifier,
          originalFilename: video.filename))
    }
    return resources
  }

  /// Downloads the asset from iCloud when it is not on the device (progress, offline and injected failures as
  /// ``requestData(for:networkAccessAllowed:progress:dataReceived:)``), then writes the resource to a new file
  /// at `path`, refusing an existing one as PhotoKit does. An asset deleted meanwhile fails with
  /// `identifierNotFound` (3201), which maps to `PhotoIntake.Importer.Error.assetDeleted`.
  public func writeData(
    for resource: AssetResource, ofAsset localIdentifier: String, toFile path: String,
    networkAccessAllowed: Bool, progress: @escaping @Sendable (Double) -> Void
  ) async throws(Importer.Error) {
    let bytes: [UInt8]
    do throws(ProviderError) {
      _ = try await read(
        localIdentifier, .original, by: .library, networkAccessAllowed: networkAccessAllowed,
        progress: progress, isCancelled: { Task.isCancelled })
      // Looked up again after the download: the user may have deleted the asset meanwhile.
      let stored = try lookUp(localIdentifier)
      guard let found = Self.bytes(of: resource.kind, in: stored) else {
        // `PHPhotosError.missingResource`: the edit was reverted, or the resource was never there.
        throw ProviderError(
          domain: Importer.Error.ProviderDomain.photos, code: 3303, reason: "The asset has no such resource")
      }
      bytes = found
    } catch {
      throw Importer.Error(assetResourceErrorChain: error.chain, reason: error.reason)
    }
    if FileManager.default.fileExists(atPath: path) {
      throw .sourceFailed(reason: "a file already exists where the resource was to be written")
    }
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: path), options: [.withoutOverwriting])
    } catch {
      throw .sourceFailed(reason: "the resource could not be written (\(error))")
    }
  }

  private func lookUp(_ localIdentifier: String) throws(ProviderError) -> StoredAsset {
    let found: Result<StoredAsset, ProviderError> = state.withLock { state in
      guard let stored = state.assets[localIdentifier] else { return .failure(.identifierNotFound) }
      if state.restricted { return .failure(.accessRestricted) }
      guard state.canRead(localIdentifier) else { return .failure(.accessUserDenied) }
      return .success(stored)
    }
    switch found {
    case .success(let stored): return stored
    case .failure(let error): throw error
    }
  }

  private static func bytes(of kind: AssetResource.Kind, in stored: StoredAsset) -> [UInt8]? {
    let image = stored.asset.kind.isImage
    switch stored.deferred {
    case .processing: return kind == .photoProxy ? stored.original.bytes : nil
    case .failed: return nil
    case nil: break
    }
    switch kind {
    case .photo where image, .video where !image: return stored.original.bytes
    case .pairedVideo: return stored.pairedVideo?.bytes
    case .fullSizePhoto where image, .fullSizeVideo where !image: return stored.rendered?.bytes
    case .fullSizePairedVideo: return stored.renderedPairedVideo?.bytes
    default: return nil
    }
  }
}
