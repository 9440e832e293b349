import Foundation
import PhotoIntake

/// A simulated CloudKit container: one private database per iCloud account, custom zones, records with change
/// tags, change tokens, quotas, latency, and every failure PhotoIntake's sync handles, on demand. Several
/// ``SimulatedSyncEngine``s (devices) talk to it, each signed in to an account of its own choosing.
///
/// It behaves as CloudKit documents (CKError.h, "CloudKit: Handling errors"): a save with outdated system
/// fields fails with `serverRecordChanged` and the server's record; a save with the system fields of a record
/// deleted since fails with `unknownItem`; deletes are unconditional; a zone the user deleted from Settings is
/// reported as purged and refuses saves with `userDeletedZone` until it is created again (one another client
/// deleted is reported as deleted, and refuses saves with `zoneNotFound`); a fetch from the start (no change
/// token) brings the records a zone holds but no deletions; a fetch with an expired token fails with
/// `changeTokenExpired`; a request over the quota fails with `quotaExceeded`.
///
/// ```swift
/// let cloud = SimulatedCloudKit(clock: clock)
/// cloud.signIn("iPhone", account: "alice")
/// cloud.setOnline("iPad", false)             // the iPad's requests fail with networkUnavailable
/// cloud.setQuota(bytes: 10_000, for: "alice")  // saves past it fail with quotaExceeded
/// ```
public final class SimulatedCloudKit: Sendable {
  /// A record as the server stores it.
  struct StoredRecord: Sendable {
    var type: String
    var fields: [String: SyncField]
    /// Asset fields' bytes, by field key.
    var assets: [String: [UInt8]]
    var tag: Int
    var modified: Int
  }

  struct Zone: Sendable {
    var records: [String: StoredRecord] = [:]
    /// Deletions, for change tokens: (change sequence, name, type).
    var deletions: [(sequence: Int, name: String, type: String)] = []
    /// Which incarnation of the zone (a zone deleted and created again is a new one).
    var incarnation: Int
  }

  struct Database: Sendable {
    var zones: [String: Zone] = [:]
    /// Zone deletions, for the database's change token: (sequence, zone, reason).
    var zoneDeletions:
      [(sequence: Int, zone: String, reason: SyncEvent.FetchedDatabaseChanges.ZoneDeletion.Reason)] =
        []
    /// Zones the user deleted from Settings: saves fail with `userDeletedZone` until the zone is made again.
    var purged: Set<String> = []
    var zoneChanges: [(sequence: Int, zone: String)] = []
    var usedBytes: Int64 = 0
    var quota: Int64?
    /// Saves refused with `quotaExceeded`.
    var quotaRejections = 0
    /// Saves refused with `serverRecordChanged`.
    var changeConflicts = 0
    /// Tokens issued before this sequence are expired.
    var tokensValidFrom = 0
  }

  /// A failure armed for a device's next requests.
  public struct ArmedFailure: Sendable {
    /// Which requests it hits.
    public enum Requests: Sendable, Hashable {
      /// Record saves and deletions (reported per record, as `CKSyncEngine` does).
      case send
      /// Zone saves (reported per zone).
      case zoneSave
      /// Fetches (the request fails as a whole).
      case fetch
    }
    var requests: Requests
    var error: SyncError
    var remaining: Int
  }

  struct Device: Sendable {
    var account: String?
    var online = true
    var armed: [ArmedFailure] = []
    var requests = 0
  }

  struct State: Sendable {
    var databases: [String: Database] = [:]
    var devices: [String: Device] = [:]
    var sequence = 0
    var corruptDownloads: [String: Int] = [:]
  }

  let state = Protected(State())
  /// The simulated clock each request advances by ``latency``.
  public let clock: SimulatedClock
  /// How long each request takes, in simulated time.
  public let latency: Duration
  /// The largest asset the server takes (`limitExceeded` beyond). Default 1 MB: simulations use small files.
  public let maximumAssetSize: Int64
  /// The most asset bytes one request carries (`limitExceeded` for the request beyond).
  public let maximumRequestSize: Int64
  /// The most changes one fetch returns before `moreComing` (partial batches).
  public let changesPerFetch: Int

  /// A container with no accounts.
  public init(
    clock: SimulatedClock = SimulatedClock(), latency: Duration = .milliseconds(80),
    maximumAssetSize: Int64 = 1 << 20, maximumRequestSize: Int64 = 4 << 20, changesPerFetch: Int = 4
  ) {
    self.clock = clock
    self.latency = latency
    self.maximumAssetSize = maximumAssetSize
    self.maximumRequestSize = maximumRequestSize
    self.changesPerFetch = max(1, changesPerFetch)
  }

  // MARK: Devices and accounts

  /// Signs a device in to an account (the account's database is made when first used).
  public func signIn(_ device: String, account: String) {
    state.withLock { $0.devices[device, default: Device()].account = account }
  }

  /// Signs a device out of iCloud.
  public func signOut(_ device: String) {
    state.withLock { $0.devices[device, default: Device()].account = nil }
  }

  /// The account a device is signed in to.
  public func account(of device: String) -> String? { state.withLock { $0.devices[device]?.account } }

  /// Cuts or restores a device's network: offline, its requests fail with `networkUnavailable`.
  public func setOnline(_ device: String, _ online: Bool) {
    state.withLock { $0.devices[device, default: Device()].online = online }
  }

  /// Whether a device's network is up.
  public func isOnline(_ device: String) -> Bool { state.withLock { $0.devices[device]?.online ?? true } }

  /// Makes a device's next `count` requests of a kind fail with `error` (for sends, every record of the
  /// request fails with it).
  public func fail(
    _ device: String, _ requests: ArmedFailure.Requests, with error: SyncError, times count: Int = 1
  ) {
    state.withLock {
      $0.devices[device, default: Device()].armed.append(
        ArmedFailure(requests: requests, error: error, remaining: count))
    }
  }

  /// How many requests a device has made.
  public func requestCount(_ device: String) -> Int { state.withLock { $0.devices[device]?.requests ?? 0 } }

  // MARK: Account-wide conditions

  /// Sets an account's iCloud quota in asset bytes (nil: unlimited). Saves that would pass it fail with
  /// `quotaExceeded`.
  public func setQuota(bytes: Int64?, for account: String) {
    state.withLock { $0.databases[account, default: Database()].quota = bytes }
  }

  /// How many saves the account's quota refused.
  public func quotaRejections(_ account: String) -> Int {
    state.withLock { $0.databases[account]?.quotaRejections ?? 0 }
  }

  /// Deletes a record outright, as another app (or an old version) could; PhotoIntake itself only saves
  /// tombstones.
  public func deleteRecordOutright(_ name: String, of account: String, zone: SyncZoneID = .library) {
    state.withLock { state in
      guard var database = state.databases[account], var stored = database.zones[zone.name],
        let removed = stored.records.removeValue(forKey: name)
      else { return }
      state.sequence += 1
      stored.deletions.append((state.sequence, name, removed.type))
      database.usedBytes -= Int64(removed.assets.values.map(\.count).reduce(0, +))
      database.zones[zone.name] = stored
      state.databases[account] = database
    }
  }

  /// How many saves of the account were refused with `serverRecordChanged` (a save on an outdated version).
  public func changeConflicts(_ account: String) -> Int {
    state.withLock { $0.databases[account]?.changeConflicts ?? 0 }
  }

  /// The asset bytes an account stores.
  public func usedBytes(_ account: String) -> Int64 {
    state.withLock { $0.databases[account]?.usedBytes ?? 0 }
  }

  /// The user deletes the app's data from iCloud (Settings): the zone and its records are gone, reported as
  /// purged; saves to it fail with `userDeletedZone` until it is created again.
  public func userDeletesZone(_ zone: SyncZoneID = .library, of account: String) {
    removeZone(zone, of: account, reason: .purged)
  }

  /// Another client deletes the zone (a `CKModifyRecordZonesOperation` deleting it, as an older version of the
  /// app or another device could): the zone and its records are gone, reported as deleted; saves to it fail
  /// with `zoneNotFound` until it is created again.
  public func deleteZone(_ zone: SyncZoneID = .library, of account: String) {
    removeZone(zone, of: account, reason: .deleted)
  }

  /// Removes a zone and its records, frees their bytes and records the deletion for the database's change
  /// token; a zone the user purged also refuses saves until it is created again.
  private func removeZone(
    _ zone: SyncZoneID, of account: String, reason: SyncEvent.FetchedDatabaseChanges.ZoneDeletion.Reason
  ) {
    state.withLock { state in
      state.sequence += 1
      let sequence = state.sequence
      var database = state.databases[account, default: Database()]
      if let removed = database.zones.removeValue(forKey: zone.name) {
        database.usedBytes -= removed.records.values.reduce(0) {
          $0 + Int64($1.assets.values.map(\.count).reduce(0, +))
        }
      }
      if reason == .purged { database.purged.insert(zone.name) }
      database.zoneDeletions.append((sequence, zone.name, reason))
      state.databases[account] = database
    }
  }

  /// Expires every change token issued so far for an account: the next fetch fails with `changeTokenExpired`.
  public func expireChangeTokens(of account: String) {
    state.withLock { state in
      state.sequence += 1
      state.databases[account, default: Database()].tokensValidFrom = state.sequence
    }
  }

  /// The next `times` downloads of the asset with this SHA-256 (hex) deliver other bytes (a damaged transfer).
  public func corruptNextDownload(of sha256: String, times: Int = 1) {
    state.withLock { $0.corruptDownloads[sha256, default: 0] += times }
  }

  // MARK: Inspecting

  /// The names of the records of `type` in an account's zone, sorted.
  public func recordNames(_ account: String, type: String, zone: SyncZoneID = .library) -> [String] {
    state.withLock { state in
      (state.databases[account]?.zones[zone.name]?.records ?? [:]).filter { $0.value.type == type }.map(\.key)
        .sorted()
    }
  }

  /// The names of the asset records that hold bytes (not tombstones), sorted.
  public func assetsWithBytes(_ account: String, zone: SyncZoneID = .library) -> [String] {
    state.withLock { state in
      (state.databases[account]?.zones[zone.name]?.records ?? [:])
        .filter { $0.value.type == SyncRecord.RecordType.asset && !$0.value.assets.isEmpty }.map(\.key)
        .sorted()
    }
  }

  /// A record's field as the server holds it.
  public func field(_ key: String, of name: String, in account: String, zone: SyncZoneID = .library)
    -> SyncField?
  {
    state.withLock { $0.databases[account]?.zones[zone.name]?.records[name]?.fields[key] }
  }

  /// A number that grows with every change any account's database makes (a save, a zone made or deleted).
  public var changeCount: Int { state.withLock { $0.sequence } }

  /// Whether an account has the zone.
  public func hasZone(_ zone: SyncZoneID = .library, in account: String) -> Bool {
    state.withLock { $0.databases[account]?.zones[zone.name] != nil }
  }
}
