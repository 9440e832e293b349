import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

// A broken simulator or scenario would wait forever for a prompt, a change or a download: fail instead.
@Suite(.timeLimit(.minutes(1)))
struct ICloudDownloadTests {
  /// A device with iCloud-only photos picked without library access, and an empty app library.
  struct Setup {
    let directory = TemporaryDirectory(inMemory: true)
    let device: SimulatedPhotoLibrary
    let photos: [String]
    let results: [SimulatedPickerResult]

    init(count: Int = 1) throws {
      let device = directory.device()
      self.device = device
      photos = (0..<count).map { _ in device.add(.photo(width: 64, height: 64), storage: .iCloudOnly) }
      var configuration = SimulatedPickerConfiguration()
      configuration.selectionLimit = 0
      results = try SimulatedPicker(device: device).present(configuration).pick(photos)
    }

    var sources: [any ItemSource] { results.map { SimulatedPickerItemSource($0) } }
  }

  @Test func downloadsReportProgressAfterLatencyOnTheSimulatedClock() async throws {
    let setup = try Setup()
    let library = try await setup.directory.library()
    var fractions: [Double] = []
    for await event in serialImporter(library).start(setup.sources) {
      if case .itemProgress(_, let fraction) = event { fractions.append(fraction) }
    }
    #expect(fractions == [0.25, 0.5, 0.75, 1.0])
    let timing = setup.device.configuration.timing
    #expect(
      setup.device.clock.now.offset == timing.downloadLatency + timing.stepDuration * timing.downloadSteps)
    #expect(setup.device.inspect(setup.photos[0])?.isLocallyAvailable == true)
    await library.close()
  }

  @Test(arguments: [
    (SimulatedPhotoLibrary.DownloadFailure.networkRequired, "network-required"),
    (.iCloudUnavailable, "icloud-unavailable"),
    (.itemUnavailable, "item-unavailable"),
    (.diskFull, "disk-full"),
  ])
  func injectedFailuresMapToActionableErrorsAndRetrySucceeds(
    _ failure: SimulatedPhotoLibrary.DownloadFailure, _ code: String
  ) async throws {
    let setup = try Setup(count: 2)
    setup.device.failDownloads(failure, of: setup.photos[1], atFraction: 0.5)
    let library = try await setup.directory.library()
    let first = await Importer(library: library).importItems(setup.sources)
    #expect(first.items.map { $0.result.error?.code } == [nil, code])
    // Nothing of the failed item is kept: no row, no staging file.
    #expect(try await library.count() == 1)
    #expect(setup.directory.stagingFiles(library).isEmpty)
    #expect(setup.device.inspect(setup.photos[1])?.isLocallyAvailable == false)

    let retry = await Importer(library: library).importItems([setup.sources[1]])
    #expect(retry.importedCount == 1)
    #expect(try await library.count() == 2)
    await library.close()
  }

  @Test func offlineFailsEveryDownloadUntilOnline() async throws {
    let setup = try Setup(count: 3)
    setup.device.user.setOnline(false)
    let library = try await setup.directory.library()
    let offline = await Importer(library: library).importItems(setup.sources)
    #expect(offline.items.map { $0.result.error } == [.networkRequired, .networkRequired, .networkRequired])
    #expect(offline.items.first?.result.error?.description.contains("offline") == true)
    setup.device.user.setOnline(true)
    #expect(await Importer(library: library).importItems(setup.sources).importedCount == 3)
    await library.close()
  }

  @Test func aFullDeviceCannotDownload() async throws {
    let setup = try Setup()
    setup.device.user.setFreeSpace(10)
    let library = try await setup.directory.library()
    let summary = await Importer(library: library).importItems(setup.sources)
    #expect(summary.items.first?.result.error == .diskFull)
    await library.close()
  }

  #if TestHooks  // fault injection exists only in test-hook builds
    @Test func aFullLibraryDiskLosesNothingAndRecovers() async throws {
      let setup = try Setup(count: 2)
      let library = try await setup.directory.library()
      let faults = FaultInjection([.noHardLinks(), .diskFull(afterBytes: 0)])
      let summary = await faults.run { await serialImporter(library).importItems(setup.sources) }
      // One at a time: the first fills the disk, and the batch stops before the second.
      #expect(summary.items.map { $0.result.error } == [.diskFull, .notAttempted])
      #expect(faults.firedCount(1) > 0)
      #expect(try await library.count() == 0)
      #expect(setup.directory.stagingFiles(library).isEmpty)
      // Outside `run`, the disk has room again.
      #expect(await Importer(library: library).importItems(setup.sources).importedCount == 2)
      await library.close()
    }
  #endif

  @Test func cancellingStopsTheDownloadAndKeepsNothingOfIt() async throws {
    let setup = try Setup()
    let library = try await setup.directory.library()
    let session = serialImporter(library).start(setup.sources)
    setup.device.observeDownloads { _, fraction in
      if fraction >= 0.5 { session.cancel() }
    }
    let summary = await session.summary()
    #expect(summary.items.first?.result.error == .cancelled)
    #expect(try await library.count() == 0)
    #expect(setup.directory.stagingFiles(library).isEmpty)
    #expect(setup.device.inspect(setup.photos[0])?.isLocallyAvailable == false)
    await library.close()
  }

  @Test func libraryReadsNeedNetworkAccessAllowed() async throws {
    let setup = try Setup()
    setup.device.user.setAccessInSettings(.full)
    let library = try await setup.directory.library()
    let refused = await Importer(library: library).importItems([
      SimulatedLibraryItemSource(
        library: setup.device, localIdentifier: setup.photos[0], networkAccessAllowed: false)
    ])
    #expect(refused.items.first?.result.error == .networkRequired)
    let allowed = await Importer(library: library).importItems([
      SimulatedLibraryItemSource(library: setup.device, localIdentifier: setup.photos[0])
    ])
    #expect(allowed.importedCount == 1)
    await library.close()
  }

  @Test func adoptedFilesAreTheProvidersBytesExactly() async throws {
    let setup = try Setup()
    let library = try await setup.directory.library()
    let expected = try await setup.results[0].itemProvider.withFileRepresentation(
      forTypeIdentifier: "public.heic"
    ) {
      [UInt8](try Data(contentsOf: $0))
    }
    let summary = await Importer(library: library).importItems(setup.sources)
    let asset = try #require(summary.items.first?.result.asset)
    #expect(bytes(of: asset, in: library) == expected)
    #expect(asset.type == .heic)
    #expect(asset.name == setup.device.inspect(setup.photos[0])?.filename)
    await library.close()
  }
}

struct ProviderErrorMappingTests {
  @Test(arguments: [
    ("NSItemProviderErrorDomain", -1000, "item-unavailable"),
    ("NSItemProviderErrorDomain", -1200, "conversion-failed"),
    ("PHPhotosErrorDomain", 3164, "network-required"),
    ("PHPhotosErrorDomain", 3305, "disk-full"),
    ("PHPhotosErrorDomain", 3311, "photo-access-denied"),
    ("PHPhotosErrorDomain", 3072, "cancelled"),
    ("NSCocoaErrorDomain", 640, "disk-full"),
    ("NSCocoaErrorDomain", 3072, "cancelled"),
    ("NSPOSIXErrorDomain", Int(ENOSPC), "disk-full"),
    ("SomeOtherDomain", 7, "source-failed"),
  ])
  func codesMapToImportErrors(_ domain: String, _ code: Int, _ expected: String) {
    #expect(Importer.Error(providerDomain: domain, code: code, reason: "r").code == expected)
  }

  @Test func theMostSpecificErrorInTheChainWins() {
    let chain = [
      (domain: "NSItemProviderErrorDomain", code: -1000), (domain: "PHPhotosErrorDomain", code: 3164),
    ]
    #expect(Importer.Error(providerErrorChain: chain, reason: "r") == .networkRequired)
    #expect(
      Importer.Error(providerErrorChain: [(domain: "NSItemProviderErrorDomain", code: -1000)], reason: "gone")
        == .itemUnavailable(reason: "gone"))
  }
}
