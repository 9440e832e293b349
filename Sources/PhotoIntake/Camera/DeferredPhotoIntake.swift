import Foundation

/// The app's side of deferred photo delivery: the proxy imported at once, replaced by the final photo when
/// Photos has processed it, kept when the final cannot be had.
///
/// With `isAutoDeferredPhotoDeliveryEnabled` the camera hands over a proxy
/// (`AVCaptureDeferredPhotoProxy.fileDataRepresentation()`) instead of the processed photo; the app saves it to
/// Photos with `PHAssetCreationRequest.addResource(with: .photoProxy, data:options:)`, and Photos finishes the
/// photo in the background, after which the asset lists a `.photo` resource instead of its `.photoProxy`. This
/// type imports the proxy into the app's library so the user has the shot now (``importProxy(_:suggestedName:)``),
/// tells from an asset's resources whether Photos has finished (``status(of:)``), and then imports the final
/// photo and removes the proxy (``replace(proxy:withFinalOf:)``). Each step returns what to tell
/// ``PhotoCaptureStateMachine``.
///
/// ```swift
/// let proxy = try await intake.importProxy(data, suggestedName: "Capture").get()
/// // … after a library change names the asset:
/// if try await intake.status(ofAsset: id) == .finished {
///   let final = await intake.replace(proxy: proxy, withFinalOf: id)
/// }
/// ```
public struct DeferredPhotoIntake: Sendable {
  /// Where Photos is with an asset saved from a proxy.
  public enum Status: Sendable, Hashable {
    /// Photos is still processing: the asset has its `.photoProxy` and no `.photo`.
    case processing
    /// The final photo is there (`.photo`).
    case finished
  }

  /// The importer the proxy and the final photo go through.
  public let importer: Importer
  /// Where the processed asset's resources are read from (`PHAssetResourceManager` on a device).
  public let provider: any AssetResourceProviding

  /// An intake through `importer`, reading Photos' assets from `provider`.
  public init(importer: Importer, provider: any AssetResourceProviding) {
    self.importer = importer
    self.provider = provider
  }

  /// Where Photos is with an asset, from its resources (`PHAssetResource.assetResources(for:)`): finished once a
  /// `.photo` (or an edit's `.fullSizePhoto`) is listed.
  public static func status(of resources: [AssetResource]) -> Status {
    resources.contains { $0.kind == .photo || $0.kind == .fullSizePhoto } ? .finished : .processing
  }

  /// Where Photos is with the asset `localIdentifier`.
  ///
  /// - Throws: ``Importer/Error/assetDeleted`` and the other errors of reading its resources.
  public func status(ofAsset localIdentifier: String) async throws(Importer.Error) -> Status {
    Self.status(of: try await provider.assetResources(forAsset: localIdentifier))
  }

  /// Imports the proxy's bytes into the app's library: durable when this returns.
  public func importProxy(_ data: Data, suggestedName: String?) async -> Result<Asset, Importer.Error> {
    let summary = await importer.importItems([DataItemSource(data, suggestedName: suggestedName)])
    guard let result = summary.items.first?.result else { return .failure(.cancelled) }
    if let asset = result.asset { return .success(asset) }
    return .failure(result.error ?? .cancelled)
  }

  /// Imports the final photo of the processed asset and then removes the proxy from the app's library.
  ///
  /// The proxy is removed only after the final photo is durable; if the final cannot be imported the proxy
  /// stays and the error is returned (``PhotoCaptureStateMachine/Event/processingFailed(localIdentifier:reason:)``).
  /// A proxy that cannot be removed leaves both in the library, which loses nothing.
  public func replace(proxy: Asset, withFinalOf localIdentifier: String) async -> Result<
    Asset, Importer.Error
  > {
    let outcome = await AssetImport(importer: importer, provider: provider, version: .current)
      .run([localIdentifier])
    guard let entry = outcome.entries.first else { return .failure(.cancelled) }
    guard let final = entry.asset else { return .failure(entry.error ?? .cancelled) }
    if final.id != proxy.id { try? await importer.library.remove(proxy.id) }
    return .success(final)
  }
}
