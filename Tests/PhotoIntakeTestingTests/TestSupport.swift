import Foundation
import PhotoIntake
import PhotoIntakeTesting

/// A test's own folder as the simulator tests use it: devices and libraries inside it.
///
/// These tests make their folders with `inMemory: true` (in `/dev/shm` when the system has it): every library a
/// test opens fsyncs its folders and manifest, and on a busy shared disk those flushes, not the simulator, would
/// decide how long the suite takes. Durability is the import engine's own tests' business; tests that mean to
/// use the disk leave `inMemory` out.
extension TemporaryDirectory {
  /// A device whose item providers write their temporary files inside this folder.
  func device(number: Int = 1, account: SimulatedICloud? = nil, clock: SimulatedClock = SimulatedClock())
    -> SimulatedPhotoLibrary
  {
    var configuration = SimulatedPhotoLibrary.Configuration()
    configuration.deviceNumber = number
    configuration.temporaryDirectory = at("device-\(number)-tmp")
    return SimulatedPhotoLibrary(configuration: configuration, account: account, clock: clock)
  }

  /// Opens the app's library in this folder.
  func library(_ name: String = "library") async throws -> Library {
    try await Library.open(at: at(name))
  }

  /// The files in the library's staging folder.
  func stagingFiles(_ library: Library) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: library.root + "/staging")) ?? []
  }
}

/// An importer that takes one item at a time (deterministic event order).
func serialImporter(_ library: Library) -> Importer {
  var configuration = Importer.Configuration()
  configuration.maximumConcurrentItems = 1
  return Importer(library: library, configuration: configuration)
}

/// A picker configuration for `device` with unlimited, ordered selection.
func orderedConfiguration(_ device: SimulatedPhotoLibrary) -> SimulatedPickerConfiguration {
  var configuration = SimulatedPickerConfiguration(photoLibrary: device)
  configuration.selectionLimit = 0
  configuration.selection = .ordered
  return configuration
}

/// The bytes of a library asset.
func bytes(of asset: Asset, in library: Library) -> [UInt8] {
  [UInt8](FileManager.default.contents(atPath: library.objectPath(for: asset)) ?? Data())
}
