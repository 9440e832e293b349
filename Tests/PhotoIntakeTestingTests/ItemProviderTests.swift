import Foundation
import PhotoIntake
import PhotoIntakeTesting
import PhotoMetadata
import Testing

struct ItemProviderTests {
  @Test func theTemporaryFileIsDeletedWhenTheHandlerReturns() async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let photo = library.add(.photo())
    let result = try SimulatedPicker(device: library).present(.init()).pick([photo])[0]
    let (path, existedInside) = try await result.itemProvider.withFileRepresentation(
      forTypeIdentifier: "public.heic"
    ) {
      ($0.path, FileManager.default.fileExists(atPath: $0.path))
    }
    #expect(existedInside)
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(library.expiredTemporaryFiles == [path])
  }

  @Test(arguments: [
    (
      AssetFixture.StillFormat.heic, SimulatedPickerConfiguration.AssetRepresentationMode.current,
      MediaType.heic
    ),
    (.heic, .automatic, .heic),
    (.heic, .compatible, .jpeg),
    (.jpeg, .current, .jpeg),
    (.jpeg, .compatible, .jpeg),
    (.png, .compatible, .png),
  ])
  func encodingFollowsTheRepresentationMode(
    _ format: AssetFixture.StillFormat, _ mode: SimulatedPickerConfiguration.AssetRepresentationMode,
    _ expected: MediaType
  ) async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let device = directory.device()
    let photo = device.add(.photo(format: format))
    var configuration = SimulatedPickerConfiguration()
    configuration.preferredAssetRepresentationMode = mode
    let result = try SimulatedPicker(device: device).present(configuration).pick([photo])[0]
    let library = try await directory.library()
    let summary = await Importer(library: library).importItems([SimulatedPickerItemSource(result)])
    #expect(summary.items.first?.result.asset?.type == expected)
    await library.close()
  }

  @Test func compatibleVideosBecomeMPEG4() async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let device = directory.device()
    let video = device.add(.video())
    var configuration = SimulatedPickerConfiguration()
    configuration.preferredAssetRepresentationMode = .compatible
    let compatible = try SimulatedPicker(device: device).present(configuration).pick([video])[0]
    #expect(compatible.itemProvider.registeredTypeIdentifiers == ["public.mpeg-4"])
    configuration.preferredAssetRepresentationMode = .current
    let current = try SimulatedPicker(device: device).present(configuration).pick([video])[0]
    let type = try await current.itemProvider.withFileRepresentation(forTypeIdentifier: "public.movie") {
      MediaType.sniff([UInt8](try Data(contentsOf: $0)))
    }
    #expect(type == .mov)
  }

  @Test func transcodingTakesSimulatedTime() async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let device = directory.device()
    let photo = device.add(.photo())
    let result = try SimulatedPicker(device: device).present(.init()).pick([photo])[0]
    _ = try await result.itemProvider.withFileRepresentation(forTypeIdentifier: "public.heic") { _ in 0 }
    #expect(device.clock.now.offset == .zero)
    _ = try await result.itemProvider.withFileRepresentation(forTypeIdentifier: "public.jpeg") { _ in 0 }
    #expect(device.clock.now.offset == device.configuration.timing.transcoding)
  }

  @Test func unregisteredTypesFailWithCoercionErrors() async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let device = directory.device()
    let photo = device.add(.photo())
    let result = try SimulatedPicker(device: device).present(.init()).pick([photo])[0]
    #expect(result.itemProvider.hasItemConformingToTypeIdentifier("public.image"))
    #expect(!result.itemProvider.hasItemConformingToTypeIdentifier("public.movie"))
    await #expect {
      try await result.itemProvider.withFileRepresentation(forTypeIdentifier: "public.movie") { _ in 0 }
    } throws: { error in
      (error as? ProviderError)?.code == -1200
        && (error as? ProviderError)?.importError.code == "conversion-failed"
    }
  }

  @Test func livePhotosOfferTheStillAndABundleWithTheMovie() async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let device = directory.device()
    let live = device.add(.livePhoto("IMG_0100"))
    let result = try SimulatedPicker(device: device).present(.init()).pick([live])[0]
    #expect(
      result.itemProvider.registeredTypeIdentifiers == [
        "public.heic", "public.jpeg", SimulatedItemProvider.livePhotoBundleType,
      ])
    #expect(
      RepresentationChoice.preferredTypeIdentifier(among: result.itemProvider.registeredTypeIdentifiers)
        == "public.heic")
    let contents = try await result.itemProvider.withFileRepresentation(
      forTypeIdentifier: SimulatedItemProvider.livePhotoBundleType
    ) { try FileManager.default.contentsOfDirectory(atPath: $0.path).sorted() }
    #expect(contents == ["IMG_0100.HEIC", "IMG_0100.MOV"])
  }

  @Test(arguments: [
    (["public.jpeg", "public.heic"], "public.heic"),
    (["public.heic", "public.jpeg", "com.apple.live-photo-bundle"], "public.heic"),
    (["com.apple.quicktime-movie", "public.mpeg-4"], "com.apple.quicktime-movie"),
    (["public.mpeg-4"], "public.mpeg-4"),
    (["public.png", "public.jpeg"], "public.png"),
    (["com.adobe.raw-image", "public.jpeg"], "com.adobe.raw-image"),
    (["com.apple.live-photo-bundle"], "com.apple.live-photo-bundle"),
    (["public.heic", "com.apple.quicktime-movie"], "public.heic"),
  ])
  func representationChoiceKeepsTheOriginal(_ registered: [String], _ chosen: String) {
    #expect(RepresentationChoice.preferredTypeIdentifier(among: registered) == chosen)
  }

  @Test func noRegisteredTypesMeansNothingToLoad() {
    #expect(RepresentationChoice.preferredTypeIdentifier(among: []) == nil)
  }
}
