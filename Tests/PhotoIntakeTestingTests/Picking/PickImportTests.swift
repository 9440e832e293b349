import Foundation
import PhotoIntake
import PhotoIntakeTesting
import PhotoMetadata
import Testing

@Suite(.timeLimit(.minutes(1)))
struct PickImportTests {
  /// A device holding a photo, a video and a Live Photo, and the options an importing app uses.
  struct Setup {
    let directory = TemporaryDirectory()
    let device: SimulatedPhotoLibrary
    let photo: String
    let video: String
    let live: String

    init() {
      device = directory.device()
      photo = device.add(.photo("IMG_0001"))
      video = device.add(.video("IMG_0002"))
      live = device.add(.livePhoto("IMG_0003"))
    }

    func pick(_ identifiers: [String], preselected: [String] = []) throws -> [PickedResult] {
      var configuration = orderedConfiguration(device)
      configuration.preferredAssetRepresentationMode = .current
      configuration.preselectedAssetIdentifiers = preselected
      let session = try SimulatedPicker(device: device).present(configuration)
      for identifier in preselected where !identifiers.contains(identifier) { session.deselect(identifier) }
      for identifier in identifiers where !preselected.contains(identifier) { try session.select(identifier) }
      return try session.done().map(\.picked)
    }
  }

  @Test(arguments: [1, 4])
  func picksAreImportedInTheUsersOrderWithLivePhotosAsPairs(concurrency: Int) async throws {
    let setup = Setup()
    let library = try await setup.directory.library()
    var configuration = Importer.Configuration()
    configuration.maximumConcurrentItems = concurrency
    let picking = PickImport(importer: Importer(library: library, configuration: configuration))
    let session = picking.start(try setup.pick([setup.live, setup.video, setup.photo]))
    #expect(session.plan.itemCount == 4)
    var finished: [Int] = []
    var overall: [ImportProgress] = []
    for await event in session {
      switch event {
      case .pickFinished(let report): finished.append(report.index)
      case .progress(let progress): overall.append(progress)
      default: break
      }
    }
    let outcome = await session.outcome()
    #expect(Set(finished) == [0, 1, 2])
    #expect(outcome.failedCount == 0)
    #expect(overall.last?.completed == 3 && overall.last?.total == 3 && overall.last?.fraction == 1)
    // Overall progress never goes back.
    #expect(zip(overall, overall.dropFirst()).allSatisfy { $0.fraction <= $1.fraction })
    let items = outcome.selection.items
    #expect(items.map(\.assetIdentifier) == [setup.live, setup.video, setup.photo])
    guard case .imported(_, let still, let movie) = outcome.reports[0].result else {
      Issue.record("the Live Photo was not imported")
      return
    }
    #expect(still.type == .heic)
    #expect(movie?.type == .mov)
    #expect(items[0].pairedVideo == movie?.id)
    #expect(items[1].pairedVideo == nil && items[2].pairedVideo == nil)
    #expect(try await library.asset(items[1].asset)?.type == .mov)
    #expect(try await library.asset(items[2].asset)?.type == .heic)
    // The bundle folder expired with the handler; the movie waited in staging and is gone from there too.
    #expect(setup.directory.stagingFiles(library).isEmpty)
    #expect(try await library.count() == 4)
    await library.close()
  }

  @Test func stillOnlyKeepsTheLivePhotosStillAsAPhoto() async throws {
    let setup = Setup()
    let library = try await setup.directory.library()
    let outcome = await PickImport(importer: serialImporter(library), livePhotos: .stillOnly)
      .run(try setup.pick([setup.live]))
    try #require(outcome.selection.items.count == 1)
    #expect(outcome.selection.items[0].pairedVideo == nil)
    #expect(try await library.count() == 1)
    await library.close()
  }

  @Test func reopeningWithPreselectionImportsOnlyWhatIsNew() async throws {
    let setup = Setup()
    let library = try await setup.directory.library()
    let picking = PickImport(importer: serialImporter(library))
    let first = await picking.run(try setup.pick([setup.photo, setup.live]))
    try #require(first.selection.items.count == 2)
    // The user opens the picker again, deselects the photo, keeps the Live Photo, adds the video.
    let results = try setup.pick(
      [setup.live, setup.video], preselected: first.selection.preselectedAssetIdentifiers)
    let second = await picking.run(results, previous: first.selection)
    try #require(second.selection.items.map(\.assetIdentifier) == [setup.live, setup.video])
    // The kept Live Photo is the earlier item, pair included; only the video was imported.
    #expect(second.selection.items[0] == first.selection.items[1])
    #expect(second.summary?.items.count == 1)
    #expect(second.dropped.map(\.assetIdentifier) == [setup.photo])
    guard case .reused = second.reports[0].result else {
      Issue.record("the kept Live Photo was not reused")
      return
    }
    await library.close()
  }

  @Test func cancelInThePickerKeepsTheSelection() async throws {
    let setup = Setup()
    let library = try await setup.directory.library()
    let picking = PickImport(importer: serialImporter(library))
    let first = await picking.run(try setup.pick([setup.photo, setup.video]))
    var configuration = orderedConfiguration(setup.device)
    configuration.preselectedAssetIdentifiers = first.selection.preselectedAssetIdentifiers
    let cancelled = try SimulatedPicker(device: setup.device).present(configuration).cancel()
    let second = await picking.run(cancelled.map(\.picked), previous: first.selection)
    #expect(second.selection == first.selection)
    #expect(second.summary == nil)
    await library.close()
  }

  @Test func aPreselectedItemTheAppHasNoCopyOfMustBePickedAgain() async throws {
    let setup = Setup()
    let library = try await setup.directory.library()
    let results = try setup.pick([setup.photo], preselected: [setup.photo])
    let outcome = await PickImport(importer: serialImporter(library)).run(results, previous: PhotoSelection())
    #expect(outcome.selection.items.isEmpty)
    #expect(outcome.reports[0].result.error?.code == "item-unavailable")
    #expect(outcome.reports[0].result.error?.description.contains("pick it again") == true)
    await library.close()
  }

  @Test func aLivePhotoWhoseMovieFailsIsKeptAsAPhoto() async throws {
    let directory = TemporaryDirectory()
    let library = try await directory.library()
    let provider = ScriptedProvider(
      registeredTypeIdentifiers: [LivePhotoBundle.typeIdentifier, "public.heic"], suggestedName: "IMG_9.HEIC",
      behaviour: .folder([("IMG_9.HEIC", Fixtures.heic(seed: "still"))]),
      temporaryFolder: directory.at("tmp"))
    let outcome = await PickImport(importer: serialImporter(library)).run([
      PickedResult(assetIdentifier: "A", provider: provider)
    ])
    let report = try #require(outcome.reports.first)
    try #require(outcome.selection.items.count == 1)
    #expect(outcome.selection.items[0].pairedVideo == nil)
    #expect(report.motionError?.code == "conversion-failed")
    #expect(report.motionError?.description.contains("kept without motion") == true)
    await library.close()
  }

  @Test func aCancelledSessionReportsEveryPickAndKeepsNothingPartial() async throws {
    let setup = Setup()
    let photos = (0..<6).map { _ in setup.device.add(.photo(), storage: .iCloudOnly) }
    let library = try await setup.directory.library()
    let session = PickImport(importer: serialImporter(library)).start(try setup.pick(photos))
    var cancelledOnce = false
    for await event in session {
      if case .pickFinished = event, !cancelledOnce {
        cancelledOnce = true
        session.cancel()
      }
    }
    let outcome = await session.outcome()
    #expect(outcome.wasCancelled)
    #expect(outcome.reports.count == 6)
    #expect(outcome.reports.contains { $0.result.error == .cancelled })
    #expect(outcome.selection.items.count == outcome.reports.filter { $0.result.item != nil }.count)
    #expect(setup.directory.stagingFiles(library).isEmpty)
    await library.close()
  }

  @Test func pickProgressFollowsTheDownloadInPicks() async throws {
    let setup = Setup()
    let cloud = setup.device.add(.livePhoto("IMG_0009"), storage: .iCloudOnly)
    let library = try await setup.directory.library()
    let session = PickImport(importer: serialImporter(library)).start(try setup.pick([setup.photo, cloud]))
    var fractions: [Int: [Double]] = [:]
    for await event in session {
      if case .pickProgress(let index, let fraction) = event {
        fractions[index, default: []].append(fraction)
      }
    }
    // The Live Photo's download is in its still's item; the pick stays below 1 until its movie is stored.
    let live = try #require(fractions[1])
    #expect(live == live.sorted())
    #expect(live.allSatisfy { $0 <= PickProgress.unfinishedCeiling })
    #expect(live.count >= 3)
    #expect(await session.outcome().selection.items[1].pairedVideo != nil)
    await library.close()
  }
}
