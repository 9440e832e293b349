import Foundation
import PhotoIntake

/// One simulated device with its own library (a real SQLite manifest and real files in its folder), syncing
/// through a ``SimulatedSyncEngine`` with a ``SimulatedCloudKit``. It can be killed at any step of a sync and
/// launched again from what is on its disk, as an app would be.
///
/// ```swift
/// let cloud = SimulatedCloudKit()
/// cloud.signIn("iPhone", account: "alice")
/// let phone = SimulatedSyncDevice(name: "iPhone", cloud: cloud, folder: folder.at("iPhone"))
/// try await phone.launch()
/// _ = await phone.importPhotos([Fixtures.jpeg(seed: "1")])
/// await phone.sync()
/// ```
public actor SimulatedSyncDevice {
  /// The device's name in the container (and its id for order edits).
  public nonisolated let name: String
  /// The container.
  public nonisolated let cloud: SimulatedCloudKit
  /// The device's folder: `library/` and the engine's `cloudkit-cache/`.
  public nonisolated let folder: String
  private let configuration: LibrarySync.Configuration
  private let engines = Protected<SimulatedSyncEngine?>(nil)
  /// The library, while the device runs.
  public private(set) var library: Library?
  /// The sync, while the device runs.
  public private(set) var sync: LibrarySync?
  /// How many times the device was killed.
  public private(set) var kills = 0
  /// The wall clock the device stamps its edits with: the simulated time.
  package nonisolated let wall: SyncWallClock

  /// A device in `folder` (made if needed). `configuration` is the sync's; its device id is the name.
  public init(
    name: String, cloud: SimulatedCloudKit, folder: String, configuration: LibrarySync.Configuration? = nil
  ) {
    self.name = name
    self.cloud = cloud
    self.folder = folder
    var configuration = configuration ?? LibrarySync.Configuration()
    configuration.deviceID = configuration.deviceID ?? name
    configuration.observesLibraryChanges = false
    let clock = cloud.clock
    configuration.uptime = { clock.now.offset }
    self.configuration = configuration
    // Order edits are stamped with the simulated time: timelines read the same on every run.
    wall = SyncWallClock {
      1_700_000_000_000 + clock.now.offset.components.seconds * 1000 + clock.now.offset.components.attoseconds
        / 1_000_000_000_000_000
    }
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  /// The engine the sync runs now.
  public nonisolated var engine: SimulatedSyncEngine? { engines.current }

  /// Opens the library and starts syncing (from the state the library's ledger holds).
  public func launch() async throws {
    let library = try await Library.open(at: folder + "/library")
    let (cloud, name, scratch, engines) = (cloud, name, folder + "/cloudkit-cache", engines)
    let sync = LibrarySync(library: library, configuration: configuration) { state, delegate in
      let engine = SimulatedSyncEngine(
        cloud: cloud, device: name, state: state, delegate: delegate, scratch: scratch)
      engines.withLock { $0 = engine }
      return engine
    }
    await SyncWallClock.current.withValue(wall) { await sync.start() }
    self.library = library
    self.sync = sync
  }

  /// Kills the device: everything in memory is gone; what is on its disk stays.
  public func kill() async {
    engine?.kill(afterSteps: 0)
    sync = nil
    await library?.close()
    library = nil
    engines.withLock { $0 = nil }
    kills += 1
  }

  /// Kills the device and launches it again.
  public func relaunch() async throws {
    await kill()
    try await launch()
  }

  /// Syncs once (fetch, then send). If the device was killed during it, it is launched again.
  public func sync() async {
    guard let sync else { return }
    await SyncWallClock.current.withValue(wall) { await sync.syncNow() }
    if engine?.isKilled == true {
      try? await relaunch()
    } else {
      engine?.disarm()
    }
  }

  /// Kills the device at the n-th step of its next sync (each request and each event is a step); a sync with
  /// fewer steps ends the threat.
  public func arm(killAfterSteps steps: Int) { engine?.kill(afterSteps: steps) }

  /// Imports files (each as bytes with a name) as one batch, as a user picking photos would.
  @discardableResult
  public func importPhotos(_ photos: [[UInt8]], names: [String]? = nil) async -> ImportSummary? {
    guard let library else { return nil }
    var configuration = Importer.Configuration()
    configuration.maximumConcurrentItems = 1
    let importer = Importer(library: library, configuration: configuration)
    let sources: [any ItemSource] = photos.enumerated().map { index, bytes in
      DataItemSource(Data(bytes), suggestedName: names?[index] ?? "IMG_\(index).JPG")
    }
    return await SyncWallClock.current.withValue(wall) { await importer.importItems(sources) }
  }

  /// Removes the asset with these bytes (SHA-256 hex), if the library holds it.
  public func remove(sha256: String) async throws {
    guard let library, let digest = SHA256Digest(hex: sha256),
      let asset = try await library.asset(withSHA256: digest)
    else { return }
    try await SyncWallClock.current.withValue(wall) { try await library.remove(asset.id) }
  }

  /// Puts a batch in a new order, given as SHA-256 hexes (each of the batch's assets once).
  public func reorder(batch: BatchID, to shas: [String]) async throws {
    guard let library else { return }
    var ids: [AssetID] = []
    for sha in shas {
      guard let digest = SHA256Digest(hex: sha), let asset = try await library.asset(withSHA256: digest)
      else { return }
      ids.append(asset.id)
    }
    try await SyncWallClock.current.withValue(wall) { try await library.reorder(batch, to: ids) }
  }

  /// What the device's library holds, to compare devices.
  public func snapshot() async throws -> SyncSnapshot {
    guard let library else { return SyncSnapshot() }
    var snapshot = SyncSnapshot()
    for asset in try await library.all(order: .batch) {
      snapshot.assets.insert(asset.sha256.hex)
      snapshot.batches[asset.batch.rawValue, default: []].append(asset.sha256.hex)
    }
    return snapshot
  }

  /// The sync's status.
  public func status() async -> SyncStatus? { await sync?.refreshedStatus() }
}

/// What a library holds, as sync must make it the same on every device: the assets (by SHA-256) and each
/// batch's members in order.
public struct SyncSnapshot: Sendable, Hashable, CustomStringConvertible {
  /// The assets' SHA-256s.
  public var assets: Set<String> = []
  /// Each batch's members (SHA-256) in order, by batch id.
  public var batches: [String: [String]] = [:]

  /// An empty snapshot.
  public init() {}

  public var description: String {
    let batches = self.batches.sorted { $0.key < $1.key }.map { id, members in
      "\(id.prefix(8)): " + members.map { String($0.prefix(6)) }.joined(separator: " ")
    }
    return "\(assets.count) assets; " + batches.joined(separator: "; ")
  }
}
