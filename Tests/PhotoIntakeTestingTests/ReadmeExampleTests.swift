import PhotoIntake
import PhotoIntakeTesting
import Testing

/// The README's PhotoIntakeTesting example, verbatim between the markers, so the README stays true.
@Suite struct ReadmeExampleTests {
  @Test func theReadmeExampleRunsAsDescribed() async throws {
    let folder = TemporaryDirectory(inMemory: true)
    let library = try await Library.open(at: folder.at("library"))
    // README begin
    let device = SimulatedPhotoLibrary()
    let photos = device.add([.photo("IMG_0001"), .photo("IMG_0002")], storage: .iCloudOnly)

    // The system picker: no authorization needed; results behave like PHPickerResult.
    var configuration = SimulatedPickerConfiguration(photoLibrary: device)
    configuration.selectionLimit = 0
    configuration.selection = .ordered
    let results = try SimulatedPicker(device: device).present(configuration).pick(photos)

    // The user goes offline; the import fails with an error they can act on, and keeps nothing half-done.
    device.user.setOnline(false)
    let summary = await Importer(library: library).importItems(results.map { SimulatedPickerItemSource($0) })
    // summary.items[0].result.error == .networkRequired
    // README end
    #expect(summary.items.map(\.result.error) == [.networkRequired, .networkRequired])
    #expect(try await library.count() == 0)
  }
}
