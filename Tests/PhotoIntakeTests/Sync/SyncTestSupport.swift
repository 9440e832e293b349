import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

/// Devices against one simulated container, in a fresh folder (in RAM when possible: libraries fsync).
struct SyncWorld {
  let folder = TemporaryDirectory(inMemory: true)
  let clock = SimulatedClock()
  let cloud: SimulatedCloudKit

  init(maximumAssetSize: Int64 = 1 << 20, changesPerFetch: Int = 4) {
    cloud = SimulatedCloudKit(
      clock: clock, maximumAssetSize: maximumAssetSize, changesPerFetch: changesPerFetch)
  }

  /// A launched device signed in to `account`.
  func device(_ name: String, account: String? = "alice", configuration: LibrarySync.Configuration? = nil)
    async throws -> SimulatedSyncDevice
  {
    if let account { cloud.signIn(name, account: account) }
    let device = SimulatedSyncDevice(
      name: name, cloud: cloud, folder: folder.at(name), configuration: configuration)
    try await device.launch()
    return device
  }

  /// Syncs every device `rounds` times in turn.
  func syncAll(_ devices: [SimulatedSyncDevice], rounds: Int = 2) async {
    for _ in 0..<rounds {
      for device in devices { await device.sync() }
    }
  }
}

/// A small photo with distinct bytes; `padding` makes it larger (a longer comment segment).
func photo(_ seed: String, padding: Int = 0) -> [UInt8] {
  Fixtures.jpeg(width: 8, height: 8, seed: seed + String(repeating: ".", count: padding))
}

func sha(_ bytes: [UInt8]) -> String { SHA256Digest.of(bytes).hex }

extension SimulatedSyncDevice {
  /// Whether every object of the device's library verifies and nothing stray is stored.
  func verifies() async throws -> Bool {
    guard let library else { return false }
    return try await library.verify().isClean
  }

  /// The asset with these bytes, if the device has it.
  func asset(_ bytes: [UInt8]) async throws -> Asset? {
    try await library?.asset(withSHA256: SHA256Digest.of(bytes))
  }

  /// The sync's state of the asset with these bytes.
  func syncState(_ bytes: [UInt8]) async throws -> AssetSyncState? {
    guard let asset = try await asset(bytes) else { return nil }
    return await sync?.state(of: asset)
  }

  func condition() async -> SyncStatus.Condition? { await status()?.condition }

  /// Sends what changed here without fetching first, as `CKSyncEngine` does on its own schedule once an app
  /// observing the library has told it of a change: a save can then meet a version of the record this device
  /// has not fetched (`serverRecordChanged`), which a fetch-then-send pass never does.
  func sendWithoutFetching() async throws {
    guard let sync, let engine else { return }
    try await SyncWallClock.current.withValue(wall) {
      await sync.refreshPending()
      try await engine.sendChanges()
    }
  }
}
