import PhotoIntake
import PhotoIntakeTesting
import Testing

struct PickerTests {
  /// One asset of each kind, in this order.
  static func stockedDevice(_ directory: TemporaryDirectory) -> (
    SimulatedPhotoLibrary, [SimulatedAsset.Kind: String]
  ) {
    let library = directory.device()
    var ids: [SimulatedAsset.Kind: String] = [:]
    for kind in SimulatedAsset.Kind.allCases { ids[kind] = library.add(.of(kind)) }
    return (library, ids)
  }

  @Test(arguments: [
    (
      SimulatedPickerFilter.images,
      [SimulatedAsset.Kind.photo, .livePhoto, .screenshot, .burst, .panorama, .depthEffect]
    ),
    (.videos, [.video, .slomo, .timelapse, .cinematic, .screenRecording]),
    (.livePhotos, [.livePhoto]),
    (.any(of: [.screenshots, .screenRecordings]), [.screenshot, .screenRecording]),
    (.all(of: [.images, .not(.screenshots), .not(.livePhotos)]), [.photo, .burst, .panorama, .depthEffect]),
    (.not(.videos), [.photo, .livePhoto, .screenshot, .burst, .panorama, .depthEffect]),
    (.any(of: [.bursts, .cinematicVideos, .slomoVideos]), [.burst, .slomo, .cinematic]),
    (.all(of: [.videos, .timelapseVideos]), [.timelapse]),
    (.any(of: [.panoramas, .depthEffectPhotos]), [.panorama, .depthEffect]),
  ])
  func filtersShowWhatTheyMatch(_ filter: SimulatedPickerFilter, _ kinds: [SimulatedAsset.Kind]) throws {
    let directory = TemporaryDirectory(inMemory: true)
    let (library, ids) = Self.stockedDevice(directory)
    var configuration = SimulatedPickerConfiguration()
    configuration.filter = filter
    let session = try SimulatedPicker(device: library).present(configuration)
    #expect(session.visibleAssets.map(\.kind) == kinds)
    let hidden = SimulatedAsset.Kind.allCases.first { !kinds.contains($0) }!
    #expect(throws: SimulatedPicker.Error.filteredOut(ids[hidden]!)) { try session.select(ids[hidden]!) }
  }

  @Test func needsNoAuthorizationAndShowsTheWholeLibrary() throws {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let photos = library.add([.photo(), .photo()])
    library.user.setAccessInSettings(.none)
    let results = try SimulatedPicker(device: library).present(SimulatedPickerConfiguration()).pick([
      photos[1]
    ])
    try #require(results.count == 1)
    #expect(results[0].itemProvider.registeredTypeIdentifiers == ["public.heic", "public.jpeg"])
  }

  @Test func assetIdentifiersAreNilWithoutAPhotoLibrary() throws {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let photo = library.add(.photo())
    let picker = SimulatedPicker(device: library)
    let without = try picker.present(SimulatedPickerConfiguration()).pick([photo])
    #expect(without.map(\.assetIdentifier) == [nil])
    let with = try picker.present(SimulatedPickerConfiguration(photoLibrary: library)).pick([photo])
    #expect(with.map(\.assetIdentifier) == [photo])
  }

  @Test func preselectionNeedsAPhotoLibrary() {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    var configuration = SimulatedPickerConfiguration()
    configuration.preselectedAssetIdentifiers = [library.add(.photo())]
    #expect(throws: SimulatedPicker.Error.preselectionRequiresPhotoLibrary) {
      try SimulatedPicker(device: library).present(configuration)
    }
  }

  @Test(arguments: [SimulatedPickerConfiguration.Selection.ordered, .default])
  func orderedSelectionKeepsTheTapOrder(_ selection: SimulatedPickerConfiguration.Selection) throws {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let photos = library.add([.photo(), .photo(), .photo()])
    var configuration = orderedConfiguration(library)
    configuration.selection = selection
    let results = try SimulatedPicker(device: library).present(configuration).pick([photos[2], photos[0]])
    let expected = selection == .ordered ? [photos[2], photos[0]] : [photos[0], photos[2]]
    #expect(results.map(\.assetIdentifier) == expected)
  }

  @Test func selectionLimitIsEnforced() throws {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let photos = library.add([.photo(), .photo(), .photo()])
    var configuration = SimulatedPickerConfiguration()
    configuration.selectionLimit = 2
    let session = try SimulatedPicker(device: library).present(configuration)
    try session.select(photos[0])
    try session.select(photos[1])
    #expect(throws: SimulatedPicker.Error.selectionLimitReached(2)) { try session.select(photos[2]) }
    session.deselect(photos[0])
    try session.select(photos[2])
    #expect(try session.done().count == 2)
    #expect(throws: SimulatedPicker.Error.sessionEnded) { try session.done() }
  }

  @Test func preselectionBeyondTheLimitDisablesDone() throws {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let photos = library.add([.photo(), .photo(), .photo()])
    var configuration = SimulatedPickerConfiguration(photoLibrary: library)
    configuration.selectionLimit = 2
    configuration.preselectedAssetIdentifiers = photos
    let session = try SimulatedPicker(device: library).present(configuration)
    #expect(throws: SimulatedPicker.Error.doneDisabled(selected: 3, limit: 2)) { try session.done() }
    session.deselect(photos[1])
    #expect(try session.done().map(\.assetIdentifier) == [photos[0], photos[2]])
  }

  @Test func preselectedItemsComeBackWithEmptyProviders() throws {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let photos = library.add([.photo(), .photo(), .photo()])
    var configuration = orderedConfiguration(library)
    configuration.preselectedAssetIdentifiers = [photos[0], photos[1]]
    let session = try SimulatedPicker(device: library).present(configuration)
    #expect(session.selectedIdentifiers == [photos[0], photos[1]])
    session.deselect(photos[0])
    try session.select(photos[2])
    let results = try session.done()
    #expect(results.map(\.assetIdentifier) == [photos[1], photos[2]])
    #expect(results[0].itemProvider.registeredTypeIdentifiers.isEmpty)
    #expect(!results[1].itemProvider.registeredTypeIdentifiers.isEmpty)
    #expect(results.map(\.pickedItem.hasItemProvider) == [false, true])
  }

  @Test(arguments: [0, 1, 3])
  func cancelReturnsExactlyThePreselected(_ count: Int) throws {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let photos = library.add([.photo(), .photo(), .photo(), .photo()])
    var configuration = orderedConfiguration(library)
    configuration.preselectedAssetIdentifiers = Array(photos.prefix(count))
    let session = try SimulatedPicker(device: library).present(configuration)
    try session.select(photos[3])
    let results = session.cancel()
    #expect(results.map(\.assetIdentifier) == Array(photos.prefix(count)))
    #expect(results.allSatisfy { $0.itemProvider.registeredTypeIdentifiers.isEmpty })
  }
}
