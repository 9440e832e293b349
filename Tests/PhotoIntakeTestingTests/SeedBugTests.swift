import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

/// The seed bug: photos that go black after a restart.
///
/// An app keeps what the picker gave it: the temporary URL of each photo and its asset identifier. After the user
/// narrows the limited selection and the app restarts, the URLs point at deleted files and most identifiers no
/// longer open anything. The same flow through PhotoIntake (a real library on disk, real SQLite) keeps every photo.
// A broken simulator or scenario would wait forever for a prompt, a change or a download: fail instead.
@Suite(.timeLimit(.minutes(1)))
struct SeedBugTests {
  struct Flow {
    // On the disk, as an app's container is.
    let directory = TemporaryDirectory()
    let device: SimulatedPhotoLibrary
    let photos: [String]
    let results: [SimulatedPickerResult]

    init() async throws {
      device = directory.device()
      photos = device.add([.photo(), .photo(), .photo(), .photo()])
      device.user.willAnswerNextPrompt(.selectPhotos(Array(photos.prefix(3))))
      _ = await device.requestAuthorization(for: .readWrite)
      results = try SimulatedPicker(device: device).present(orderedConfiguration(device)).pick(
        Array(photos.prefix(3)))
    }

    /// The user narrows the selection to the first photo in Settings, then the app restarts.
    func narrowAndRestart() {
      device.user.editSelectedPhotos(removing: [photos[1], photos[2]])
    }
  }

  @Test func anAppHoldingPickerURLsAndIdentifiersLosesPhotos() async throws {
    let flow = try await Flow()
    var urls: [URL] = []
    var identifiers: [String] = []
    for result in flow.results {
      urls.append(
        try await result.itemProvider.withFileRepresentation(forTypeIdentifier: "public.image") { $0 })
      identifiers.append(try #require(result.assetIdentifier))
    }
    // Before the restart everything seems fine through the identifiers.
    #expect(flow.device.fetchAssets(.init(localIdentifiers: identifiers)).count == 3)

    flow.narrowAndRestart()

    let openedByURL = urls.filter { FileManager.default.fileExists(atPath: $0.path) }
    let openedByIdentifier = flow.device.fetchAssets(.init(localIdentifiers: identifiers)).localIdentifiers
    #expect(openedByURL.isEmpty)
    #expect(openedByIdentifier == [flow.photos[0]])
    #expect(Set(flow.device.expiredTemporaryFiles) == Set(urls.map(\.path)))
  }

  @Test func theSameFlowThroughPhotoIntakeKeepsEveryPhoto() async throws {
    let flow = try await Flow()
    var library = try await flow.directory.library()
    let items = flow.results.map(\.pickedItem)
    let outcome = await SelectionMerge(previous: PhotoSelection(), results: items).run(
      importer: Importer(library: library), results: items
    ) { SimulatedPickerItemSource(flow.results[$0]) }
    let saved = try JSONEncoder().encode(outcome.selection)
    var expected: [SHA256Digest] = []
    for asset in outcome.selection.assets {
      expected.append(try #require(try await library.asset(asset)).sha256)
    }
    await library.close()

    flow.narrowAndRestart()

    library = try await flow.directory.library()
    #expect(try await library.recoverInterruptedWork() == RecoveryReport())
    let selection = try JSONDecoder().decode(PhotoSelection.self, from: saved)
    #expect(selection.items.count == 3)
    for (asset, digest) in zip(selection.assets, expected) {
      let stored = try #require(try await library.asset(asset))
      #expect(stored.damage == nil)
      #expect(SHA256Digest.of(bytes(of: stored, in: library)) == digest)
    }
    #expect(try await library.verify().isClean)
    // The identifiers are still there for preselection, even of photos the app may no longer read.
    #expect(selection.preselectedAssetIdentifiers == Array(flow.photos.prefix(3)))
    await library.close()
  }
}
