import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

/// Importing library assets (`AssetImport`) against the simulated Photos library: the same decisions the Apple
/// layer's `PHAssetResourceProvider` runs, with real files in a real library.
@Suite(.timeLimit(.minutes(1)))
struct AssetImportTests {
  let directory = TemporaryDirectory(inMemory: true)

  /// A device whose user gave full access.
  func device() -> SimulatedPhotoLibrary {
    let device = directory.device()
    device.user.setAccessInSettings(.full)
    return device
  }

  @Test func originalIsTheCameraFileAndCurrentIsTheEditsRendering() async throws {
    let device = device()
    let photo = device.add(.photo("IMG_0001", format: .heic))
    device.user.edit(photo)
    let library = try await directory.library()
    let original = await AssetImport(importer: serialImporter(library), provider: device, version: .original)
      .run([photo])
    // `.current` is the default, as it is the picker's: the same photo arrives edited through both paths.
    let current = await AssetImport(importer: serialImporter(library), provider: device).run([photo])
    #expect(original.entries[0].plan?.primary.kind == .photo)
    #expect(current.entries[0].plan?.primary.kind == .fullSizePhoto)
    let originalAsset = try #require(original.entries[0].asset)
    let currentAsset = try #require(current.entries[0].asset)
    // The bytes decide: the original is the HEIC the camera wrote, the current version the JPEG rendering.
    #expect(originalAsset.type == .heic)
    #expect(currentAsset.type == .jpeg)
    #expect(originalAsset.sha256 != currentAsset.sha256)
    #expect(originalAsset.name == "IMG_0001.HEIC")
    // Photos names every rendering FullSizeRender.jpg; the import keeps the original's name.
    #expect(currentAsset.name == "IMG_0001.jpg")
    // An unedited asset's current version is its original.
    let plain = device.add(.photo("IMG_0002", format: .jpeg))
    let unedited = await AssetImport(importer: serialImporter(library), provider: device, version: .current)
      .run([plain])
    #expect(unedited.entries[0].plan?.primary.kind == .photo)
    await library.close()
  }

  @Test func aLivePhotoBecomesItsPhotoAndItsMovieLinkedAsThePickerLinksThem() async throws {
    let device = device()
    let live = device.add(.livePhoto("IMG_0100"))
    let library = try await directory.library()
    let outcome = await AssetImport(importer: serialImporter(library), provider: device).run([live])
    let entry = outcome.entries[0]
    let still = try #require(entry.asset)
    let movie = try #require(entry.pairedVideo)
    #expect(still.type == .heic)
    #expect(movie.type == .mov)
    #expect(entry.motionError == nil)
    #expect(
      outcome.selection.items == [
        PhotoSelection.Item(assetIdentifier: live, asset: still.id, pairedVideo: movie.id)
      ])
    #expect(try await library.count() == 2)
    // Still only: one asset, no movie.
    let stillOnly = await AssetImport(
      importer: serialImporter(library), provider: device, livePhotos: .stillOnly
    ).run([live])
    #expect(stillOnly.entries[0].pairedVideo == nil)
    #expect(stillOnly.entries[0].asset?.id == still.id)
    await library.close()
  }

  @Test func offlineFailsWithATypedErrorAndARetryOnlineSucceeds() async throws {
    let device = device()
    let photos = [device.add(.photo(), storage: .local), device.add(.photo(), storage: .iCloudOnly)]
    device.user.setOnline(false)
    let library = try await directory.library()
    let assets = AssetImport(importer: serialImporter(library), provider: device)
    let offline = await assets.run(photos)
    #expect(offline.entries.map { $0.error?.code } == [nil, "network-required"])
    #expect(try await library.count() == 1)
    // Nothing of the failed item stays in staging, not even the scratch file PhotoKit would have written.
    #expect(directory.stagingFiles(library).isEmpty)
    device.user.setOnline(true)
    let online = await assets.run(photos)
    #expect(online.failures.isEmpty)
    #expect(online.summary?.duplicateCount == 1)
    #expect(online.summary?.importedCount == 1)
    #expect(try await library.count() == 2)
    await library.close()
  }

  @Test func networkAccessNotAllowedIsTheSameActionableError() async throws {
    let device = device()
    let photo = device.add(.photo(), storage: .iCloudOnly)
    let library = try await directory.library()
    let outcome = await AssetImport(
      importer: serialImporter(library), provider: device, networkAccessAllowed: false
    ).run([photo])
    #expect(outcome.entries[0].error == .networkRequired)
    await library.close()
  }

  @Test func anAssetDeletedBetweenTheFetchAndTheImportIsATypedError() async throws {
    let device = device()
    let kept = device.add(.photo(), storage: .iCloudOnly)
    let doomed = device.add(.photo(), storage: .iCloudOnly)
    let deletedBefore = device.add(.photo())
    // The fetch saw all three; the user deletes one before the import starts and one while it downloads.
    let fetched = device.fetchAssets().localIdentifiers
    #expect(Set(fetched) == Set([kept, doomed, deletedBefore]))
    device.user.delete([deletedBefore])
    let user = device.user
    device.observeDownloads { identifier, fraction in
      if identifier == doomed, fraction >= 0.5 { user.delete([doomed]) }
    }
    let library = try await directory.library()
    let outcome = await AssetImport(importer: serialImporter(library), provider: device)
      .run([kept, doomed, deletedBefore])
    #expect(outcome.entries.map(\.error) == [nil, .assetDeleted, .assetDeleted])
    #expect(outcome.entries[1].plan != nil, "planned before it was deleted")
    #expect(outcome.entries[2].plan == nil)
    #expect(Importer.Error.assetDeleted.description.contains("deleted"))
    #expect(try await library.count() == 1)
    #expect(directory.stagingFiles(library).isEmpty)
    await library.close()
  }

  @Test func progressOnlyGrowsAndReachesOneForEveryAsset() async throws {
    let device = device()
    let ids = [
      device.add(.livePhoto(), storage: .iCloudOnly), device.add(.photo(), storage: .iCloudOnly),
      device.add(.photo()),
    ]
    let library = try await directory.library()
    let seen = Protected<[Int: [Double]]>([:])
    _ = await AssetImport(importer: serialImporter(library), provider: device).run(ids) { index, fraction in
      seen.withLock { $0[index, default: []].append(fraction) }
    }
    let progress = seen.current
    for index in ids.indices {
      let values = try #require(progress[index], "asset \(index) reported progress")
      #expect(values == values.sorted(), "asset \(index): \(values)")
      #expect(values.last == 1)
      #expect(values.allSatisfy { (0...1).contains($0) })
    }
    // The iCloud assets reported steps on the way, not only the end.
    #expect((progress[1] ?? []).contains { $0 > 0 && $0 < 1 })
    await library.close()
  }

  @Test func anAppWithoutAccessToTheAssetGetsAccessDenied() async throws {
    let device = directory.device()
    let photo = device.add(.photo())
    let other = device.add(.photo())
    device.user.setAccessInSettings(.limited([other]))
    let library = try await directory.library()
    let outcome = await AssetImport(importer: serialImporter(library), provider: device).run([photo, other])
    #expect(outcome.entries.map(\.error) == [.photoLibraryAccessDenied, nil])
    await library.close()
  }

  @Test func cancellingDuringADownloadKeepsNothingPartial() async throws {
    let device = device()
    let photos = (0..<3).map { _ in device.add(.photo(), storage: .iCloudOnly) }
    let library = try await directory.library()
    let running = Protected<Task<AssetImportOutcome, Never>?>(nil)
    // The user cancels halfway through the second photo's download.
    device.observeDownloads { identifier, fraction in
      if identifier == photos[1], fraction >= 0.5 { running.current?.cancel() }
    }
    let task = Task {
      while running.current == nil { await Task.yield() }
      return await AssetImport(importer: serialImporter(library), provider: device).run(photos)
    }
    running.withLock { $0 = task }
    let outcome = await task.value
    #expect(outcome.entries[0].error == nil)
    #expect(outcome.entries[1].error == .cancelled)
    #expect(outcome.entries[2].asset == nil)
    #expect(try await library.count() == 1)
    #expect(directory.stagingFiles(library).isEmpty)
    await library.close()
  }
}
