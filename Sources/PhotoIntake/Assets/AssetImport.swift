/// Imports assets of the user's Photos library — chosen in a grid, or just added to a limited selection — into a
/// ``Library``, each as its original (or current) files, a Live Photo as its photo and its movie linked as the
/// picker links them (``PhotoSelection/Item/pairedVideo``).
///
/// The Apple layer supplies only the resource reads (`PHAssetResourceProvider`); PhotoIntakeTesting's
/// `SimulatedPhotoLibrary` supplies the same reads with scripted iCloud downloads, failures and deletions. Every
/// decision is here: which resources (``AssetResourcePlan``), the files written straight into staging
/// (``AssetResourceItemSource``), progress per asset (``PickProgress`` weights: a Live Photo's movie counts
/// like its photo), and errors a user can act on. One asset that fails never fails the others; importing the
/// same identifiers again (after coming back online) imports what failed and finds the rest as duplicates.
///
/// ```swift
/// let assets = AssetImport(importer: importer, provider: PHAssetResourceProvider())
/// let outcome = await assets.run(selectedIdentifiers) { index, fraction in cells[index].progress = fraction }
/// selection.items += outcome.selection.items
/// ```
public struct AssetImport: Sendable {
  /// The importer the files go through.
  public let importer: Importer
  /// Where the resources are read from.
  public let provider: any AssetResourceProviding
  /// The current rendering of edited assets (the default, as the picker delivers them with
  /// `preferredAssetRepresentationMode = .current`), or the original files.
  public var version: AssetVersion
  /// Whether a Live Photo keeps its movie.
  public var livePhotos: LivePhotoPolicy
  /// Whether iCloud downloads are allowed; without them an iCloud-only asset fails with
  /// ``Importer/Error/networkRequired``.
  public var networkAccessAllowed: Bool

  /// Imports through `importer` what `provider` reads.
  public init(
    importer: Importer, provider: any AssetResourceProviding, version: AssetVersion = .current,
    livePhotos: LivePhotoPolicy = .keepPair, networkAccessAllowed: Bool = true
  ) {
    self.importer = importer
    self.provider = provider
    self.version = version
    self.livePhotos = livePhotos
    self.networkAccessAllowed = networkAccessAllowed
  }

  /// What was decided for each asset before anything is copied: its plan, or why it cannot be imported.
  public func plan(_ localIdentifiers: [String]) async -> [Result<AssetResourcePlan, Importer.Error>] {
    await planned(localIdentifiers).map { $0.map(\.plan) }
  }

  /// Each asset's plan and its original's file name (for the names of renderings).
  private func planned(_ localIdentifiers: [String]) async
    -> [Result<(plan: AssetResourcePlan, original: String?), Importer.Error>]
  {
    var plans: [Result<(plan: AssetResourcePlan, original: String?), Importer.Error>] = []
    for identifier in localIdentifiers {
      do throws(Importer.Error) {
        let resources = try await provider.assetResources(forAsset: identifier)
        let plan = try AssetResourcePlan(resources: resources, version: version, livePhotos: livePhotos)
        let original = resources.first { $0.kind == .photo || $0.kind == .video }?.originalFilename
        plans.append(.success((plan, original)))
      } catch {
        plans.append(.failure(error))
      }
    }
    return plans
  }

  /// Imports the assets in the given order and returns when each is done.
  ///
  /// - Parameter progress: each asset's fraction (index into `localIdentifiers`), only ever growing, 1 when done.
  public func run(
    _ localIdentifiers: [String],
    progress: @escaping @Sendable (_ index: Int, _ fraction: Double) -> Void = { _, _ in }
  ) async -> AssetImportOutcome {
    let planned = await planned(localIdentifiers)
    let plans = planned.map { $0.map(\.plan) }
    var sources: [any ItemSource] = []
    var owners: [(asset: Int, part: Int)] = []
    var items: [Range<Int>] = []
    for (index, found) in planned.enumerated() {
      let start = sources.count
      if case .success(let found) = found {
        for (part, resource) in found.plan.resources.enumerated() {
          sources.append(
            AssetResourceItemSource(
              provider: provider, localIdentifier: localIdentifiers[index], resource: resource,
              networkAccessAllowed: networkAccessAllowed,
              displayName: AssetResourcePlan.displayName(of: resource, original: found.original)))
          owners.append((index, part))
        }
      }
      items.append(start..<sources.count)
    }
    var meter = PickProgress(weights: items.map { [Double](repeating: 1, count: $0.count) })
    var reports: [ItemReport?] = .init(repeating: nil, count: sources.count)
    var summary: ImportSummary?
    if !sources.isEmpty {
      let session = importer.start(sources)
      await withTaskCancellationHandler {
        for await event in session {
          switch event {
          case .itemProgress(let item, let fraction):
            let (asset, part) = owners[item]
            progress(asset, meter.update(pick: asset, part: part, fraction: fraction))
          case .itemFinished(let report):
            reports[report.index] = report
            let (asset, part) = owners[report.index]
            if meter.finish(pick: asset, part: part) { progress(asset, 1) }
          case .started, .progress, .renditionsFinished, .finished:
            break
          }
        }
      } onCancel: {
        session.cancel()
      }
      // Iterating stops at once when this task is cancelled, while the import still ends its items (an item
      // in its group commit completes): the outcome waits for the import's own summary, so that nothing is
      // still writing when it is returned and no item it acknowledged is reported as cancelled.
      summary = await session.summary()
    }
    var entries: [AssetImportOutcome.Entry] = []
    for (index, plan) in plans.enumerated() {
      var entry = AssetImportOutcome.Entry(localIdentifier: localIdentifiers[index], plan: try? plan.get())
      switch plan {
      case .failure(let error):
        entry.error = error
        progress(index, 1)
      case .success:
        let range = items[index]
        let report = { (item: Int) -> ItemReport? in
          reports[item] ?? summary?.items.first { $0.index == item }
        }
        let main = report(range.lowerBound)
        entry.asset = main?.result.asset
        entry.error = main == nil ? .cancelled : main?.result.error
        if range.count > 1 {
          let movie = report(range.lowerBound + 1)
          entry.pairedVideo = movie?.result.asset
          entry.motionError = movie == nil ? .cancelled : movie?.result.error
        }
      }
      entries.append(entry)
    }
    return AssetImportOutcome(entries: entries, summary: summary)
  }
}

/// What became of each asset of an ``AssetImport``, in the order asked.
public struct AssetImportOutcome: Sendable {
  /// One asset.
  public struct Entry: Sendable {
    /// The asset's local identifier.
    public var localIdentifier: String
    /// The resources chosen; nil when the asset could not be planned (deleted, unreadable).
    public var plan: AssetResourcePlan?
    /// The photo or video in the app's library (new or a duplicate); nil when it failed.
    public var asset: Asset?
    /// A Live Photo's movie in the app's library.
    public var pairedVideo: Asset?
    /// Why the asset was not imported.
    public var error: Importer.Error?
    /// Why a Live Photo's movie was not imported (the photo was kept without motion).
    public var motionError: Importer.Error?

    /// An entry for `localIdentifier`, with nothing imported yet.
    public init(localIdentifier: String, plan: AssetResourcePlan?) {
      self.localIdentifier = localIdentifier
      self.plan = plan
    }

    /// The item to keep in a ``PhotoSelection``, the movie linked to its photo; nil when nothing was imported.
    public var item: PhotoSelection.Item? {
      asset.map {
        PhotoSelection.Item(assetIdentifier: localIdentifier, asset: $0.id, pairedVideo: pairedVideo?.id)
      }
    }
  }

  /// The assets, in the order asked.
  public var entries: [Entry]
  /// The import's summary; nil when nothing could be planned.
  public var summary: ImportSummary?

  /// A selection of the imported assets, in the order asked.
  public var selection: PhotoSelection { PhotoSelection(items: entries.compactMap(\.item)) }
  /// The assets that failed, with why.
  public var failures: [(localIdentifier: String, error: Importer.Error)] {
    entries.compactMap { entry in entry.error.map { (entry.localIdentifier, $0) } }
  }
}
