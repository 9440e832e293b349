/// What an import needs from a photo library to copy an asset's files: the list of its resources and a way to
/// write one of them to a new file.
///
/// The Apple layer's `PHAssetResourceProvider` forwards to `PHAssetResource.assetResources(for:)` and
/// `PHAssetResourceManager.writeData(for:toFile:options:completionHandler:)`; PhotoIntakeTesting's
/// `SimulatedPhotoLibrary` implements the same two calls with iCloud downloads, failures and deletions a test can
/// script. Everything else — which resources, how a Live Photo's two files are linked, progress, the errors a
/// user can act on — is ``AssetImport``'s, the same code on a phone and in the Linux tests.
public protocol AssetResourceProviding: Sendable {
  /// The resources of the asset with this local identifier, in any order.
  ///
  /// - Throws: ``Importer/Error/assetDeleted`` when no asset has the identifier any more;
  ///   ``Importer/Error/photoLibraryAccessDenied`` when the app may not read it.
  func assetResources(forAsset localIdentifier: String) async throws(Importer.Error) -> [AssetResource]

  /// Writes the whole of `resource` to a new file at `path`, downloading it from iCloud first when needed and
  /// allowed, and reporting the download's progress (0…1, from any thread).
  ///
  /// Like `writeData(for:toFile:options:completionHandler:)`, it fails if a file exists at `path`. Cancelling
  /// the calling task ends the call with ``Importer/Error/cancelled``; whatever was written at `path` is the
  /// caller's to delete.
  ///
  /// - Throws: ``Importer/Error/networkRequired`` (iCloud only and offline, or network access not allowed),
  ///   ``Importer/Error/iCloudUnavailable`` (iCloud refused: signed out, or unavailable for now),
  ///   ``Importer/Error/assetDeleted``, ``Importer/Error/diskFull``, ``Importer/Error/cancelled``…
  func writeData(
    for resource: AssetResource, ofAsset localIdentifier: String, toFile path: String,
    networkAccessAllowed: Bool, progress: @escaping @Sendable (Double) -> Void
  ) async throws(Importer.Error)
}

extension Importer.Error {
  /// Maps a PhotoKit error met while reading an asset's resources (its domain and code, and those of the errors
  /// it wraps, outermost first) to the import error a user can act on.
  ///
  /// As ``init(providerErrorChain:reason:)``, except that an asset that is no longer there
  /// (`PHPhotosError.identifierNotFound` 3201, `missingResource` 3303) is ``assetDeleted``: the app had
  /// fetched it, so it was deleted (or its resource removed) between the fetch and the import.
  public init(assetResourceErrorChain chain: [(domain: String, code: Int)], reason: String) {
    let deleted = chain.contains {
      $0.domain == ProviderDomain.photos && ($0.code == 3201 || $0.code == 3303)
    }
    self = deleted ? .assetDeleted : Importer.Error(providerErrorChain: chain, reason: reason)
  }
}
