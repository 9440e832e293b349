#if canImport(Photos)
  import Photos
  import PhotoIntake

  /// One resource of a `PHAsset` as an ``ItemSource``: PhotoKit writes it straight into the library's staging
  /// folder (``PHAssetResourceProvider``), downloading it from iCloud with progress when needed.
  ///
  /// To import whole assets — a Live Photo as its photo and movie linked, the original or current version
  /// chosen — use ``AssetImport`` with a ``PHAssetResourceProvider``; this type is for apps that assemble their
  /// own batches.
  ///
  /// ```swift
  /// let sources = try await PHAssetItemSource.sources(forAsset: asset.localIdentifier)
  /// let summary = await importer.importItems(sources)
  /// ```
  public struct PHAssetItemSource: ItemSource {
    /// The asset's local identifier.
    public let localIdentifier: String
    /// The resource to import.
    public let resource: AssetResource
    /// Whether PhotoKit may download the resource from iCloud.
    public let networkAccessAllowed: Bool
    /// How the resource is read.
    public let provider: PHAssetResourceProvider

    /// A source for `resource` of the asset `localIdentifier`.
    public init(
      localIdentifier: String, resource: AssetResource, networkAccessAllowed: Bool = true,
      provider: PHAssetResourceProvider = PHAssetResourceProvider()
    ) {
      self.localIdentifier = localIdentifier
      self.resource = resource
      self.networkAccessAllowed = networkAccessAllowed
      self.provider = provider
    }

    /// The sources of one asset as ``AssetResourcePlan`` chooses them: the photo or video, then a Live Photo's
    /// movie.
    ///
    /// - Throws: ``PhotoIntake/Importer/Error/assetDeleted`` when the asset is gone;
    ///   ``PhotoIntake/Importer/Error/itemUnavailable(reason:)`` when it has nothing to import.
    public static func sources(
      forAsset localIdentifier: String, version: AssetVersion = .current,
      livePhotos: LivePhotoPolicy = .keepPair,
      provider: PHAssetResourceProvider = PHAssetResourceProvider()
    ) async throws(Importer.Error) -> [PHAssetItemSource] {
      let resources = try await provider.assetResources(forAsset: localIdentifier)
      let plan = try AssetResourcePlan(resources: resources, version: version, livePhotos: livePhotos)
      return plan.resources.map {
        PHAssetItemSource(localIdentifier: localIdentifier, resource: $0, provider: provider)
      }
    }

    public var suggestedName: String? { core.suggestedName }
    public var typeHints: [String] { core.typeHints }

    public func deliver(to sink: StagingSink) async throws(Importer.Error) {
      try await core.deliver(to: sink)
    }

    private var core: AssetResourceItemSource {
      AssetResourceItemSource(
        provider: provider, localIdentifier: localIdentifier, resource: resource,
        networkAccessAllowed: networkAccessAllowed)
    }
  }
#endif
