import Foundation
import PhotoIntake
import PhotoIntakeTesting
import PhotoMetadata
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ProviderItemSourceTests {
  @Test func theFileIsAdoptedInsideTheHandlerAndTheOriginalKept() async throws {
    let directory = TemporaryDirectory()
    let device = directory.device()
    let photo = device.add(.photo("IMG_0001", format: .heic))
    var configuration = SimulatedPickerConfiguration()
    configuration.preferredAssetRepresentationMode = .current
    let result = try #require(try SimulatedPicker(device: device).present(configuration).pick([photo]).first)
    let source = ProviderItemSource(provider: SimulatedProviderAdapter(provider: result.itemProvider))
    #expect(source.chosenType == "public.heic")
    let library = try await directory.library()
    let summary = await serialImporter(library).importItems([source])
    try #require(summary.items.count == 1)
    let asset = try #require(summary.items[0].result.asset)
    #expect(asset.type == .heic)
    #expect(asset.name == "IMG_0001.HEIC")
    // The provider deleted its file once the handler returned; the library kept the bytes.
    try #require(device.expiredTemporaryFiles.count == 1)
    #expect(!FileManager.default.fileExists(atPath: device.expiredTemporaryFiles[0]))
    #expect(bytes(of: asset, in: library) == Fixtures.heic(seed: "IMG_0001-photo"))
    #expect(directory.stagingFiles(library).isEmpty)
    await library.close()
  }

  @Test func iCloudDownloadProgressReachesTheImport() async throws {
    let directory = TemporaryDirectory()
    let device = directory.device()
    let photo = device.add(.photo(), storage: .iCloudOnly)
    let result = try #require(try SimulatedPicker(device: device).present(.init()).pick([photo]).first)
    let library = try await directory.library()
    var fractions: [Double] = []
    let session = serialImporter(library).start([
      ProviderItemSource(provider: SimulatedProviderAdapter(provider: result.itemProvider))
    ])
    for await event in session {
      if case .itemProgress(_, let fraction) = event { fractions.append(fraction) }
    }
    #expect(fractions == [0.25, 0.5, 0.75, 1.0])
    #expect(await session.summary().importedCount == 1)
    await library.close()
  }

  @Test(arguments: [
    (SimulatedPhotoLibrary.DownloadFailure.networkRequired, "network-required"),
    (.iCloudUnavailable, "icloud-unavailable"),
    (.itemUnavailable, "item-unavailable"),
    (.diskFull, "disk-full"),
  ])
  func providerErrorsArriveAsNSErrorChainsAndMapToActionableErrors(
    _ failure: SimulatedPhotoLibrary.DownloadFailure, _ code: String
  ) async throws {
    let directory = TemporaryDirectory()
    let device = directory.device()
    let photos = [device.add(.photo(), storage: .iCloudOnly), device.add(.photo(), storage: .iCloudOnly)]
    device.failDownloads(failure, of: photos[1], atFraction: 0.5)
    var configuration = SimulatedPickerConfiguration()
    configuration.selectionLimit = 0
    let results = try SimulatedPicker(device: device).present(configuration).pick(photos)
    let library = try await directory.library()
    let summary = await Importer(library: library).importItems(
      results.map { ProviderItemSource(provider: SimulatedProviderAdapter(provider: $0.itemProvider)) })
    // One bad item never fails the batch.
    #expect(summary.items.map { $0.result.error?.code } == [nil, code])
    #expect(directory.stagingFiles(library).isEmpty)
    await library.close()
  }

  @Test func anEmptyProviderFailsAsUnavailable() async throws {
    let directory = TemporaryDirectory()
    let library = try await directory.library()
    let source = ProviderItemSource(provider: SimulatedProviderAdapter(provider: .empty))
    #expect(source.chosenType == nil)
    let summary = await Importer(library: library).importItems([source])
    try #require(summary.items.count == 1)
    #expect(summary.items[0].result.error?.code == "item-unavailable")
    await library.close()
  }

  @Test func cancellingEndsTheWaitEvenWhenTheProviderNeverAnswers() async throws {
    let directory = TemporaryDirectory()
    let library = try await directory.library()
    let provider = ScriptedProvider(
      registeredTypeIdentifiers: ["public.jpeg"], suggestedName: "x.jpg", behaviour: .silent,
      temporaryFolder: directory.at("tmp"))
    let session = Importer(library: library).start([ProviderItemSource(provider: provider)])
    Task {
      // Cancel once the provider has been asked (the batch first waits for its turn to write), then a while.
      while !provider.asked.current { try await Task.sleep(for: .milliseconds(5)) }
      try await Task.sleep(for: .milliseconds(50))
      session.cancel()
    }
    let summary = await session.summary()
    try #require(summary.items.count == 1)
    #expect(summary.items[0].result.error == .cancelled)
    #expect(provider.cancelled.current)
    #expect(directory.stagingFiles(library).isEmpty)
    await library.close()
  }

  @Test func aProviderFileOfTheWrongTypeIsStoredAsWhatItIs() async throws {
    let directory = TemporaryDirectory()
    let library = try await directory.library()
    let provider = ScriptedProvider(
      registeredTypeIdentifiers: ["public.heic"], suggestedName: "IMG_1.HEIC",
      behaviour: .file(Fixtures.png(seed: "png"), name: "IMG_1.HEIC"), temporaryFolder: directory.at("tmp")
    )
    let summary = await Importer(library: library).importItems([ProviderItemSource(provider: provider)])
    try #require(summary.items.count == 1)
    #expect(summary.items[0].result.asset?.type == .png)
    #expect(summary.items[0].typeHintMismatch?.hint == "public.heic")
    #expect(provider.expired.current.count == 1)
    await library.close()
  }

  #if TestHooks  // fault injection exists only in test-hook builds
    /// The completion handler only links (or copies) the provider's file: nothing of the staged file is read
    /// or hashed before the handler returns; the importer hashes it afterwards, on its blocking lanes.
    @Test(arguments: [false, true])
    func theHandlerReturnsBeforeTheAdoptedFileIsHashed(linksRefused: Bool) async throws {
      let directory = TemporaryDirectory()
      let library = try await directory.library()
      // Several chunks, so that a hash inside the handler would read more than once.
      let content = Fixtures.jpeg(seed: "hashed-after") + [UInt8](repeating: 0x5A, count: 3 << 20)
      let provider = ScriptedProvider(
        registeredTypeIdentifiers: ["public.jpeg"], suggestedName: "a.jpg",
        behaviour: .file(content, name: "a.jpg"), temporaryFolder: directory.at("tmp"))
      let reads = Protected((insideHandler: 0, after: 0))
      let injector = FaultInjector(
        linksRefused ? [.init(.link, pathContains: "/staging/", code: EXDEV)] : [],
        afterRead: { path, count in
          guard path.contains("/staging/") else { return }
          let inside = ScriptedProvider.insideHandler
          reads.withLock { inside ? ($0.insideHandler += count) : ($0.after += count) }
        })
      let hashedWhenDelivered = Protected<Int64?>(nil)
      let source = DeliveryProbe(inner: ProviderItemSource(provider: provider)) { sink in
        hashedWhenDelivered.withLock { $0 = sink.hashedByteCount }
      }
      let summary = await Syscalls.injectedFaults.withValue(injector) {
        await serialImporter(library).importItems([source])
      }
      try #require(summary.items.count == 1)
      let asset = try #require(summary.items[0].result.asset)
      #expect(asset.sha256 == SHA256Digest.of(content))
      #expect(bytes(of: asset, in: library) == content)
      #expect(hashedWhenDelivered.current == 0)
      #expect(reads.current.insideHandler == 0)
      // The hash read the staged file once, after the handler.
      #expect(reads.current.after == content.count)
      #expect(directory.stagingFiles(library).isEmpty)
      await library.close()
    }

    /// Cancelling while the adopted file is hashed stops the hash and keeps nothing.
    @Test func cancellingDuringTheLaterHashDropsTheItem() async throws {
      let directory = TemporaryDirectory()
      let library = try await directory.library()
      let content = Fixtures.jpeg(seed: "cancel-hash") + [UInt8](repeating: 0x33, count: 4 << 20)
      let provider = ScriptedProvider(
        registeredTypeIdentifiers: ["public.jpeg"], suggestedName: "a.jpg",
        behaviour: .file(content, name: "a.jpg"), temporaryFolder: directory.at("tmp"))
      let session = Protected<ImportSession?>(nil)
      let hashed = Protected(0)
      let injector = FaultInjector(
        [],
        afterRead: { path, count in
          // The first chunk of the hash: the handler has returned, the commit has not started.
          guard path.contains("/staging/") else { return }
          hashed.withLock { $0 += count }
          session.current?.cancel()
        })
      let summary = await Syscalls.injectedFaults.withValue(injector) {
        let started = serialImporter(library).start([ProviderItemSource(provider: provider)])
        session.withLock { $0 = started }
        return await started.summary()
      }
      try #require(summary.items.count == 1)
      #expect(summary.items[0].result.error == .cancelled)
      // The hash stopped at the next chunk instead of reading the rest.
      #expect(hashed.current < content.count)
      #expect(directory.stagingFiles(library).isEmpty)
      #expect(try await library.count() == 0)
      await library.close()
    }
    @Test func aFullDiskFailsTheItemWithAdvice() async throws {
      let directory = TemporaryDirectory()
      let library = try await directory.library()
      let provider = ScriptedProvider(
        registeredTypeIdentifiers: ["public.jpeg"], suggestedName: "a.jpg",
        behaviour: .file(Fixtures.jpeg(seed: "full"), name: "a.jpg"), temporaryFolder: directory.at("tmp"))
      let faults = FaultInjection([
        .noHardLinks(scope: .staging), .diskFull(afterBytes: 0, scope: .staging),
      ])
      let summary = await faults.run {
        await Importer(library: library).importItems([ProviderItemSource(provider: provider)])
      }
      try #require(summary.items.count == 1)
      #expect(summary.items[0].result.error == .diskFull)
      #expect(summary.items[0].result.error?.description.contains("Free some space") == true)
      await library.close()
    }
  #endif
}

/// A source that reports its sink once the inner source's delivery returned.
private struct DeliveryProbe: ItemSource {
  let inner: any ItemSource
  let delivered: @Sendable (StagingSink) -> Void
  var suggestedName: String? { inner.suggestedName }
  var typeHints: [String] { inner.typeHints }
  func deliver(to sink: StagingSink) async throws(Importer.Error) {
    try await inner.deliver(to: sink)
    delivered(sink)
  }
}
