/// Imports what the user picked — from `PHPickerViewController`, `PhotosPicker` or the simulator — into a
/// ``Library``, merged with the selection the picker was opened with, in the user's order.
///
/// The Apple layer only wraps each result's provider (``FileRepresentationProviding``); every decision is here:
/// which results reuse an earlier asset (``SelectionMerge``), which type to load (``RepresentationChoice``),
/// Live Photos as a still and a movie (``LivePhotoLoad``), and progress in picks (``PickProgress``).
///
/// ```swift
/// let picking = PickImport(importer: importer)
/// let session = picking.start(results, previous: selection)
/// for await event in session {
///   if case .pickProgress(let index, let fraction) = event { cells[index].progress = fraction }
///   if case .finished(let outcome) = event { selection = outcome.selection }
/// }
/// ```
public struct PickImport: Sendable {
  /// The importer the picks go through.
  public let importer: Importer
  /// What becomes of Live Photos.
  public var livePhotos: LivePhotoPolicy

  /// Imports picks through `importer`, keeping Live Photos as `livePhotos` says.
  public init(importer: Importer, livePhotos: LivePhotoPolicy = .keepPair) {
    self.importer = importer
    self.livePhotos = livePhotos
  }

  /// Starts importing `results` (in the order the picker returned them) merged into `previous`.
  public func start(_ results: [PickedResult], previous: PhotoSelection = PhotoSelection()) -> PickSession {
    PickSession(
      plan: PickPlan(results: results, previous: previous, livePhotos: livePhotos), results: results,
      importer: importer)
  }

  /// Imports `results` and returns when every pick is done.
  public func run(_ results: [PickedResult], previous: PhotoSelection = PhotoSelection()) async -> PickOutcome
  {
    await start(results, previous: previous).outcome()
  }
}

/// One picker session being imported: an `AsyncSequence` of ``PickEvent``s, cancellable.
///
/// Iterate it once; ``outcome()`` may be awaited as well, from anywhere.
public final class PickSession: AsyncSequence, Sendable {
  public typealias Element = PickEvent

  /// What the session does with each result.
  public let plan: PickPlan
  private let events: AsyncStream<PickEvent>
  private let task: Task<PickOutcome, Never>

  init(plan: PickPlan, results: [PickedResult], importer: Importer) {
    self.plan = plan
    let (stream, continuation) = AsyncStream.makeStream(of: PickEvent.self)
    events = stream
    task = Task {
      var run = PickRun(plan: plan, results: results, continuation: continuation)
      let outcome = await run.run(importer: importer)
      continuation.yield(.finished(outcome))
      continuation.finish()
      return outcome
    }
  }

  public func makeAsyncIterator() -> AsyncStream<PickEvent>.Iterator { events.makeAsyncIterator() }

  /// Stops the import; picks not yet stored fail with ``Importer/Error/cancelled``, nothing partial is kept.
  public func cancel() { task.cancel() }

  /// Waits for the session to finish.
  public func outcome() async -> PickOutcome { await task.value }
}

/// The state of one session while it runs.
private struct PickRun {
  let plan: PickPlan
  let results: [PickedResult]
  let continuation: AsyncStream<PickEvent>.Continuation
  var progress: PickProgress
  var reports: [PickReport?]
  var itemReports: [ItemReport?]
  var lastOverall = -1.0

  init(plan: PickPlan, results: [PickedResult], continuation: AsyncStream<PickEvent>.Continuation) {
    self.plan = plan
    self.results = results
    self.continuation = continuation
    progress = PickProgress(weights: plan.progressWeights)
    reports = .init(repeating: nil, count: plan.picks.count)
    itemReports = .init(repeating: nil, count: plan.itemCount)
  }

  mutating func run(importer: Importer) async -> PickOutcome {
    continuation.yield(.started(count: plan.picks.count))
    for (index, pick) in plan.picks.enumerated() where pick.items.isEmpty {
      report(index, Self.immediateResult(of: pick), motionError: nil)
    }
    let sources = makeSources(library: importer.library)
    var summary: ImportSummary?
    if !sources.isEmpty {
      let session = importer.start(sources)
      _ = await withTaskCancellationHandler {
        await consume(session)
      } onCancel: {
        session.cancel()
      }
      // Iterating stops at once when this task is cancelled, while the import still ends its items (an item
      // in its group commit completes): the outcome waits for the import's own summary, so that nothing is
      // still writing when it is returned and no item it acknowledged is reported as cancelled.
      summary = await session.summary()
    }
    // Items the import never reported (a cancelled session lists them only in its summary).
    for (index, pick) in plan.picks.enumerated() where reports[index] == nil {
      for item in pick.items where itemReports[item] == nil {
        itemReports[item] =
          summary?.items.indices.contains(item) == true
          ? summary!.items[item] : ItemReport(index: item, result: .failed(.cancelled))
      }
      for part in 0..<pick.items.count { progress.finish(pick: index, part: part) }
      finishPick(index)
    }
    emitOverall(force: true)
    var items: [PhotoSelection.Item] = []
    for report in reports { if let item = report?.result.item { items.append(item) } }
    return PickOutcome(
      selection: PhotoSelection(items: items + plan.merge.unmatchable),
      reports: reports.map { $0! }, dropped: plan.merge.dropped, summary: summary,
      wasCancelled: summary?.wasCancelled ?? Task.isCancelled)
  }

  private static func immediateResult(of pick: PickPlan.Pick) -> PickResult {
    switch pick.step {
    case .reuse(let item):
      return .reused(item)
    case .importNew:
      return .failed(
        .conversionFailed(reason: "the picker offered no photo or movie format this app can store"))
    case .unavailable:
      return .failed(
        .itemUnavailable(
          reason: "the picker returned it as still selected, but this app has no copy of it; pick it again"))
    }
  }

  private func makeSources(library: Library) -> [any ItemSource] {
    var sources: [any ItemSource] = []
    for pick in plan.picks {
      guard let load = pick.load, let resultIndex = pick.resultIndex else { continue }
      let provider = results[resultIndex].provider
      switch load {
      case .file(let type):
        sources.append(ProviderItemSource(provider: provider, typeIdentifier: type))
      case .livePhoto(let bundleType, let keepsMovie):
        let live = LivePhotoLoad(
          provider: provider, bundleTypeIdentifier: bundleType,
          movieStagingPath: keepsMovie ? library.store.parkingPath() : nil)
        sources.append(live.stillSource)
        if keepsMovie { sources.append(live.movieSource) }
      case .nothing:
        break
      }
    }
    return sources
  }

  private mutating func consume(_ session: ImportSession) async -> ImportSummary? {
    var summary: ImportSummary?
    for await event in session {
      switch event {
      case .itemProgress(let item, let fraction):
        let (pick, part) = plan.owner(ofItem: item)
        let pickFraction = progress.update(pick: pick, part: part, fraction: fraction)
        continuation.yield(.pickProgress(index: pick, fraction: pickFraction))
        emitOverall(force: false)
      case .itemFinished(let report):
        itemReports[report.index] = report
        let (pick, part) = plan.owner(ofItem: report.index)
        if progress.finish(pick: pick, part: part) { finishPick(pick) }
        emitOverall(force: false)
      case .finished(let finished):
        summary = finished
      case .started, .progress, .renditionsFinished:
        // Picks report their own start and progress; renditions are the caller's concern (RenditionStore).
        break
      }
    }
    return summary
  }

  /// Reports a pick whose items have all finished.
  private mutating func finishPick(_ index: Int) {
    let pick = plan.picks[index]
    guard let first = pick.items.first, let main = itemReports[first], let resultIndex = pick.resultIndex
    else { return }
    guard let asset = main.result.asset else {
      report(index, .failed(main.result.error ?? .cancelled), motionError: nil)
      return
    }
    var movie: Asset?
    var motionError: Importer.Error?
    if pick.items.count > 1, let second = itemReports[first + 1] {
      movie = second.result.asset
      motionError = second.result.error
    }
    let item = PhotoSelection.Item(
      assetIdentifier: results[resultIndex].assetIdentifier, asset: asset.id, pairedVideo: movie?.id)
    report(index, .imported(item, asset: asset, pairedVideo: movie), motionError: motionError)
  }

  private mutating func report(_ index: Int, _ result: PickResult, motionError: Importer.Error?) {
    guard reports[index] == nil else { return }
    let report = PickReport(index: index, result: result, motionError: motionError)
    reports[index] = report
    continuation.yield(.pickFinished(report))
  }

  /// The session's progress, in steps of at least 1 % (and always when a pick completes).
  private mutating func emitOverall(force: Bool) {
    let overall = progress.overall
    guard force || overall.fraction - lastOverall >= 0.01 || overall.completed == overall.total else {
      return
    }
    lastOverall = overall.fraction
    continuation.yield(.progress(overall))
  }
}
