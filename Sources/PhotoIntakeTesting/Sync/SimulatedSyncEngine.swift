import Foundation
import PhotoIntake

/// A `CKSyncEngine` for one simulated device, against a ``SimulatedCloudKit``: it keeps pending changes and
/// change tokens in a serializable state, reports account changes, fetches in partial batches, asks its
/// delegate for each batch to send, and reports what was saved and what failed, record by record, as
/// `CKSyncEngine` does. It syncs when asked (`fetchChanges()`, `sendChanges()`), never on its own, so a test
/// decides every interleaving.
///
/// As `CKSyncEngine` does, it keeps changes that failed for a reason a retry can fix (the network, a busy zone,
/// a rate limit) pending, and forgets those that failed for another reason: the delegate adds them again if it
/// wants them sent. It holds its delegate weakly.
///
/// A test can kill the device at the n-th step (``kill(afterSteps:)``): each request and each event is a step;
/// at the chosen one the engine stops dead, delivers nothing more, and every later call fails — as if the
/// process had been killed there. What the delegate wrote before is all that is left.
public final class SimulatedSyncEngine: SyncEngine {
  struct EngineState: Codable, Sendable {
    var user: String?
    var databaseToken = 0
    var zoneTokens: [String: SimulatedCloudKit.ChangeToken] = [:]
    var pending: [Pending] = []
    var pendingZones: [String] = []
  }

  /// A pending change in codable form.
  struct Pending: Codable, Hashable, Sendable {
    var save: Bool
    var zone: String
    var name: String

    init(_ change: SyncPendingRecordZoneChange) {
      switch change {
      case .saveRecord(let id): (save, zone, name) = (true, id.zone.name, id.name)
      case .deleteRecord(let id): (save, zone, name) = (false, id.zone.name, id.name)
      }
    }

    var change: SyncPendingRecordZoneChange {
      let id = SyncRecordID(name: name, zone: SyncZoneID(name: zone))
      return save ? .saveRecord(id) : .deleteRecord(id)
    }
  }

  /// Thrown by every call once the device was killed.
  public struct Killed: Swift.Error, Sendable, CustomStringConvertible {
    public var description: String { "the simulated device was killed" }
  }

  private struct Control: Sendable {
    var state: EngineState
    var stepsLeft: Int?
    var killed = false
  }

  /// The container.
  public let cloud: SimulatedCloudKit
  /// The device's name in the container.
  public let device: String
  /// Where downloaded assets are written (CloudKit's own cache, for a real engine).
  public let scratch: String
  private weak let weakDelegate: (any SyncEngineDelegate)?
  private let control: Protected<Control>

  /// An engine for `device`, from a saved state (nil: fresh), reporting to `delegate`.
  public init(
    cloud: SimulatedCloudKit, device: String, state: SyncStateSerialization?,
    delegate: any SyncEngineDelegate,
    scratch: String
  ) {
    self.cloud = cloud
    self.device = device
    self.scratch = scratch
    weakDelegate = delegate
    let restored =
      state.flatMap { try? JSONDecoder().decode(EngineState.self, from: $0.data) } ?? EngineState()
    control = Protected(Control(state: restored))
    try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
  }

  /// Kills the device after `steps` more steps (requests and events); 0 kills it at the next one.
  public func kill(afterSteps steps: Int) { control.withLock { $0.stepsLeft = max(0, steps) } }

  /// Disarms a kill that has not happened.
  public func disarm() { control.withLock { $0.stepsLeft = nil } }

  /// Whether the device was killed.
  public var isKilled: Bool { control.withLock { $0.killed } }

  // MARK: SyncEngine

  public var pendingRecordZoneChanges: [SyncPendingRecordZoneChange] {
    control.withLock { $0.state.pending.map(\.change) }
  }

  public func add(pendingRecordZoneChanges changes: [SyncPendingRecordZoneChange]) {
    control.withLock { control in
      for change in changes.map(Pending.init) where !control.state.pending.contains(change) {
        // A save replaces a delete of the same record and the other way round, as the last intent wins.
        control.state.pending.removeAll { $0.zone == change.zone && $0.name == change.name }
        control.state.pending.append(change)
      }
    }
  }

  public func remove(pendingRecordZoneChanges changes: [SyncPendingRecordZoneChange]) {
    let gone = Set(changes.map(Pending.init))
    control.withLock { $0.state.pending.removeAll { gone.contains($0) } }
  }

  public func add(pendingDatabaseChanges changes: [SyncPendingDatabaseChange]) {
    control.withLock { control in
      for change in changes {
        if case .saveZone(let zone) = change, !control.state.pendingZones.contains(zone.name) {
          control.state.pendingZones.append(zone.name)
        }
      }
    }
  }

  public func fetchChanges() async throws {
    try step()
    try await checkAccount()
    try await emit(.willFetchChanges)
    let since = control.withLock { $0.state.databaseToken }
    let database = try cloud.databaseChanges(device, since: since)
    try step()
    if !database.deleted.isEmpty {
      control.withLock { control in
        for deletion in database.deleted { control.state.zoneTokens[deletion.zone.name] = nil }
      }
      try await emit(
        .fetchedDatabaseChanges(.init(modifiedZones: database.zones, deletedZones: database.deleted)))
    }
    control.withLock { $0.state.databaseToken = database.token }
    try await emitState()
    for zone in database.zones {
      try await emit(.willFetchRecordZoneChanges(zone))
      var failure: SyncError?
      while true {
        let token = control.withLock { $0.state.zoneTokens[zone.name] }
        let page: (SyncEvent.FetchedRecordZoneChanges, SimulatedCloudKit.ChangeToken, moreComing: Bool)
        do {
          page = try cloud.recordZoneChanges(device, zone: zone, since: token, scratch: scratch)
        } catch {
          failure = error
          break
        }
        try step()
        if !page.0.modifications.isEmpty || !page.0.deletions.isEmpty {
          try await emit(.fetchedRecordZoneChanges(page.0))
        }
        control.withLock { $0.state.zoneTokens[zone.name] = page.1 }
        try await emitState()
        if !page.moreComing { break }
      }
      try await emit(.didFetchRecordZoneChanges(zone, error: failure))
      if let failure, failure.code == .networkUnavailable || failure.code == .networkFailure { throw failure }
    }
    try await emit(.didFetchChanges)
  }

  public func sendChanges() async throws {
    try step()
    try await checkAccount()
    guard cloud.account(of: device) != nil else { throw SyncError(.notAuthenticated) }
    try await emit(.willSendChanges)
    var rounds = 0
    while rounds < 1_000 {
      rounds += 1
      // Zones first, at every round: a zone the delegate asks for meanwhile is made before more records go.
      let zones = control.withLock { $0.state.pendingZones }
      if !zones.isEmpty {
        let sent = try cloud.saveZones(device, zones.map(SyncZoneID.init(name:)))
        try step()
        control.withLock { control in
          control.state.pendingZones.removeAll { name in sent.savedZones.contains { $0.name == name } }
        }
        try await emit(.sentDatabaseChanges(sent))
        try await emitState()
        // Records are not sent into a zone that could not be made.
        if let failure = sent.failedZoneSaves.first?.error {
          try await emit(.didSendChanges)
          throw failure
        }
      }
      guard let delegate = weakDelegate else { return }
      try step()
      guard let batch = await delegate.nextRecordZoneChangeBatch(SyncSendContext(), engine: self),
        !batch.isEmpty
      else { break }
      let sent = try cloud.modify(device, saves: batch.recordsToSave, deletes: batch.recordIDsToDelete)
      try step()
      var done = Set(sent.savedRecords.map { Pending(.saveRecord($0.id)) })
      done.formUnion(sent.deletedRecordIDs.map { Pending(.deleteRecord($0)) })
      for failure in sent.failedRecordSaves where !failure.error.isTransient {
        done.insert(Pending(.saveRecord(failure.record.id)))
      }
      for (id, error) in sent.failedRecordDeletes where !error.isTransient {
        done.insert(Pending(.deleteRecord(id)))
      }
      control.withLock { $0.state.pending.removeAll { done.contains($0) } }
      try await emit(.sentRecordZoneChanges(sent))
      try await emitState()
      // A batch that only failed for a reason a retry can fix ends this send: the engine tries later.
      if sent.savedRecords.isEmpty && sent.deletedRecordIDs.isEmpty
        && sent.failedRecordSaves.allSatisfy(\.error.isTransient)
        && sent.failedRecordDeletes.values.allSatisfy(\.isTransient)
      {
        if let transient = sent.failedRecordSaves.first?.error ?? sent.failedRecordDeletes.values.first {
          try await emit(.didSendChanges)
          throw transient
        }
      }
    }
    try await emit(.didSendChanges)
  }

  public func fetchRecords(_ ids: [SyncRecordID]) async throws -> [SyncRecordID: Result<
    SyncRecord, SyncError
  >] {
    try step()
    let results = try cloud.fetchRecords(device, ids, scratch: scratch)
    try step()
    return results
  }

  /// Reports an account that signed in, out or changed since the state was saved, and starts that account
  /// afresh: as CKSyncEngine does, the state of one account is never used for another.
  private func checkAccount() async throws {
    let current = cloud.account(of: device)
    let known = control.withLock { $0.state.user }
    guard current != known else { return }
    let change: SyncEvent.SyncAccountChange? =
      switch (known, current) {
      case (nil, let user?): .signIn(currentUser: user)
      case (let previous?, nil): .signOut(previousUser: previous)
      case (let previous?, let user?): .switchAccounts(previousUser: previous, currentUser: user)
      case (nil, nil): nil
      }
    control.withLock { $0.state = EngineState(user: current) }
    if let change { try await emit(.accountChange(change)) }
    try await emitState()
  }

  // MARK: Steps

  /// Counts a step; dies if this is the chosen one.
  private func step() throws {
    let dead = control.withLock { control -> Bool in
      if control.killed { return true }
      if let left = control.stepsLeft {
        if left == 0 {
          control.killed = true
          return true
        }
        control.stepsLeft = left - 1
      }
      return false
    }
    if dead { throw Killed() }
  }

  private func emit(_ event: SyncEvent) async throws {
    try step()
    guard let delegate = weakDelegate else { return }
    await delegate.handleEvent(event, engine: self)
  }

  private func emitState() async throws {
    let data = control.withLock { (try? JSONEncoder().encode($0.state)) ?? Data() }
    try await emit(.stateUpdate(SyncStateSerialization(data: data)))
  }
}
