/// One resource of a Photos asset as an ``ItemSource``: written by the photo library straight into the
/// library's staging folder, then taken over by the staging sink without a copy.
///
/// `PHAssetResourceManager.writeData(for:toFile:options:completionHandler:)` refuses to write over a file, and
/// the staging sink creates its own. So the library writes the resource to the sink's
/// ``StagingSink/scratchPath`` — a new name in the same folder, claimed empty first — and the sink adopts it
/// with a hard link (``StagingSink/adoptFile(atPath:)``), hashed by the importer before the commit; the bytes
/// are never held in memory. The scratch name carries the write's staging prefix, so a crash leaves nothing the next open does
/// not sweep.
///
/// ``AssetImport`` makes these sources; use it rather than this type to get Live Photos linked.
public struct AssetResourceItemSource: ItemSource {
  /// Where the resource is read from.
  public let provider: any AssetResourceProviding
  /// The asset's local identifier (`PHAsset.localIdentifier`).
  public let localIdentifier: String
  /// The resource to import.
  public let resource: AssetResource
  /// Whether an iCloud download is allowed (`PHAssetResourceRequestOptions.isNetworkAccessAllowed`).
  public let networkAccessAllowed: Bool
  /// The name to show; the resource's own name when nil.
  public let displayName: String?

  /// A source for `resource` of the asset `localIdentifier`, shown as `displayName` (nil: the resource's name).
  public init(
    provider: any AssetResourceProviding, localIdentifier: String, resource: AssetResource,
    networkAccessAllowed: Bool = true, displayName: String? = nil
  ) {
    self.provider = provider
    self.localIdentifier = localIdentifier
    self.resource = resource
    self.networkAccessAllowed = networkAccessAllowed
    self.displayName = displayName
  }

  public var suggestedName: String? {
    displayName ?? (resource.originalFilename.isEmpty ? nil : resource.originalFilename)
  }
  public var typeHints: [String] { [resource.uniformTypeIdentifier] }

  public func deliver(to sink: StagingSink) async throws(Importer.Error) {
    // Claimed empty, so the scratch name holds only what the provider writes for this delivery; whatever
    // happens, that name goes, and the adopted bytes stay under the sink's own name.
    let path = try sink.claimScratchPath()
    defer { sink.removeScratch() }
    let progress = AssetDownloadProgress { sink.reportProgress($0) }
    try await provider.writeData(
      for: resource, ofAsset: localIdentifier, toFile: path, networkAccessAllowed: networkAccessAllowed,
      progress: { progress.download($0) })
    if Task.isCancelled { throw .cancelled }
    try await BlockingLanes.io.run { () throws(Importer.Error) in try sink.adoptFile(atPath: path) }
    progress.finish()
  }
}

/// An iCloud download's progress as an import's: PhotoKit's `progressHandler` values (which may repeat, arrive
/// out of order from its queue, or start again after a retry) become a fraction that only grows, with the last
/// step — taking the written file over — reaching 1.
public final class AssetDownloadProgress: Sendable {
  /// The share of the item's progress the download takes; the rest is the hand-over to the library.
  public static let downloadShare = 0.95

  private let reported = Protected(-1.0)
  private let sink: @Sendable (Double) -> Void

  /// Progress forwarded to `sink`, each value larger than the one before.
  public init(_ sink: @escaping @Sendable (Double) -> Void) { self.sink = sink }

  /// A download fraction (0…1); values that are not numbers, or not above what was reported, are dropped.
  public func download(_ fraction: Double) {
    guard fraction.isFinite else { return }
    report(min(max(fraction, 0), 1) * Self.downloadShare)
  }

  /// The item is in the library's hands.
  public func finish() { report(1) }

  /// The last value forwarded; -1 before the first.
  public var current: Double { reported.current }

  private func report(_ value: Double) {
    let forward = reported.withLock { last -> Bool in
      guard value > last else { return false }
      last = value
      return true
    }
    if forward { sink(value) }
  }
}
