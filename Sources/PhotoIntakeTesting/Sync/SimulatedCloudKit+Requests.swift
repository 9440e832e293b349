import Foundation
import PhotoIntake

/// The requests a ``SimulatedSyncEngine`` makes, as CloudKit's server answers them.
extension SimulatedCloudKit {
  /// What the server puts in a record's system fields (opaque to the client, as `encodeSystemFields` bytes are).
  struct SystemFields: Codable, Hashable {
    var zone: String
    var name: String
    var tag: Int
    var incarnation: Int

    var data: Data { (try? JSONEncoder().encode(self)) ?? Data() }
    init(zone: String, name: String, tag: Int, incarnation: Int) {
      self.zone = zone
      self.name = name
      self.tag = tag
      self.incarnation = incarnation
    }
    init?(_ data: Data?) {
      guard let data, let decoded = try? JSONDecoder().decode(SystemFields.self, from: data) else {
        return nil
      }
      self = decoded
    }
  }

  /// A zone's change token: the zone's incarnation and the last change the holder has seen.
  struct ChangeToken: Codable, Hashable, Sendable {
    var incarnation: Int
    var sequence: Int
    /// When the server issued it (tokens issued before an expiry are expired).
    var issued: Int
  }

  /// Starts a request from `device`: takes the latency, checks the network and the account, and takes an
  /// armed failure of this kind if one is waiting.
  func begin(_ device: String, _ kind: ArmedFailure.Requests) throws(SyncError) -> (String, SyncError?) {
    clock.advance(by: latency)
    let result: Result<(String, SyncError?), SyncError> = state.withLock { state in
      var entry = state.devices[device, default: Device()]
      entry.requests += 1
      defer { state.devices[device] = entry }
      guard entry.online else { return .failure(SyncError(.networkUnavailable)) }
      guard let account = entry.account else { return .failure(SyncError(.notAuthenticated)) }
      var armed: SyncError?
      if let index = entry.armed.firstIndex(where: { $0.requests == kind }) {
        armed = entry.armed[index].error
        entry.armed[index].remaining -= 1
        if entry.armed[index].remaining <= 0 { entry.armed.remove(at: index) }
      }
      return .success((account, armed))
    }
    return try result.typedGet()
  }

  /// The zones deleted since `token`, the zones that exist, and the new token.
  func databaseChanges(_ device: String, since token: Int) throws(SyncError) -> (
    deleted: [SyncEvent.FetchedDatabaseChanges.ZoneDeletion], zones: [SyncZoneID], token: Int
  ) {
    let (account, armed) = try begin(device, .fetch)
    if let armed { throw armed }
    return state.withLock { state in
      let database = state.databases[account, default: Database()]
      let deleted = database.zoneDeletions.filter { $0.sequence > token }.map {
        SyncEvent.FetchedDatabaseChanges.ZoneDeletion(zone: SyncZoneID(name: $0.zone), reason: $0.reason)
      }
      return (deleted, database.zones.keys.sorted().map(SyncZoneID.init(name:)), state.sequence)
    }
  }

  /// One page of a zone's changes since `token`: at most ``changesPerFetch``, oldest first, a record deleted
  /// and made again appearing only as made. Asset bytes are written under `scratch`.
  ///
  /// Without a token the fetch re-fetches the zone's records from the start (CKFetchRecordZoneChangesOperation:
  /// "if this is your first fetch of a zone or if you wish to re-fetch all records within a zone, do not include
  /// a previousServerChangeToken"): it brings the records the zone holds, and no deletions — a client that
  /// starts over learns what was deleted only by what is missing.
  func recordZoneChanges(_ device: String, zone: SyncZoneID, since token: ChangeToken?, scratch: String)
    throws(SyncError) -> (SyncEvent.FetchedRecordZoneChanges, ChangeToken, moreComing: Bool)
  {
    let (account, armed) = try begin(device, .fetch)
    if let armed { throw armed }
    let page: Result<([(Int, SyncRecord?, SyncRecordDeletion?)], ChangeToken, Bool), SyncError> =
      state.withLock {
        state in
        let database = state.databases[account, default: Database()]
        guard let stored = database.zones[zone.name] else {
          return .failure(SyncError(database.purged.contains(zone.name) ? .userDeletedZone : .zoneNotFound))
        }
        if let token, token.incarnation != stored.incarnation || token.issued < database.tokensValidFrom {
          return .failure(SyncError(.changeTokenExpired))
        }
        let since = token?.sequence ?? 0
        var changes: [(Int, SyncRecord?, SyncRecordDeletion?)] = []
        for (name, record) in stored.records where record.modified > since {
          changes.append((record.modified, Self.clientRecord(name, record, zone, stored.incarnation), nil))
        }
        for deletion in stored.deletions
        where token != nil && deletion.sequence > since && stored.records[deletion.name] == nil {
          changes.append(
            (
              deletion.sequence, nil,
              SyncRecordDeletion(id: SyncRecordID(name: deletion.name, zone: zone), type: deletion.type)
            ))
        }
        changes.sort { $0.0 < $1.0 }
        let taken = Array(changes.prefix(changesPerFetch))
        let more = changes.count > taken.count
        let last = more ? taken.last!.0 : state.sequence
        return .success(
          (taken, ChangeToken(incarnation: stored.incarnation, sequence: last, issued: state.sequence), more))
      }
    let (changes, next, more) = try page.typedGet()
    var event = SyncEvent.FetchedRecordZoneChanges()
    for (_, record, deletion) in changes {
      if let deletion { event.deletions.append(deletion) }
      if let record { event.modifications.append(materialize(record, account: account, scratch: scratch)) }
    }
    return (event, next, more)
  }

  /// The record as a client receives it; asset fields still name the stored bytes by key (`materialize` writes
  /// them to files).
  static func clientRecord(_ name: String, _ stored: StoredRecord, _ zone: SyncZoneID, _ incarnation: Int)
    -> SyncRecord
  {
    var fields = stored.fields
    for key in stored.assets.keys { fields[key] = .asset(path: "") }
    return SyncRecord(
      type: stored.type, id: SyncRecordID(name: name, zone: zone), fields: fields,
      systemFields: SystemFields(zone: zone.name, name: name, tag: stored.tag, incarnation: incarnation).data)
  }

  /// Writes a record's asset bytes into files under `scratch` (as CloudKit puts a `CKAsset`'s download in its
  /// own cache) and points the fields at them.
  func materialize(_ record: SyncRecord, account: String, scratch: String) -> SyncRecord {
    var record = record
    let stored = state.withLock { $0.databases[account]?.zones[record.id.zone.name]?.records[record.id.name] }
    for (key, bytes) in stored?.assets ?? [:] {
      var bytes = bytes
      let corrupt = state.withLock { state -> Bool in
        guard let left = state.corruptDownloads[record.id.name], left > 0 else { return false }
        state.corruptDownloads[record.id.name] = left - 1
        return true
      }
      if corrupt && !bytes.isEmpty { bytes[bytes.count / 2] ^= 0xFF }
      let path = scratch + "/" + UUID().uuidString
      _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
      record.fields[key] = .asset(path: path)
    }
    return record
  }

  /// Creates zones (again, after a deletion).
  func saveZones(_ device: String, _ zones: [SyncZoneID]) throws(SyncError) -> SyncEvent.SentDatabaseChanges {
    let (account, armed) = try begin(device, .zoneSave)
    var sent = SyncEvent.SentDatabaseChanges()
    state.withLock { state in
      var database = state.databases[account, default: Database()]
      for zone in zones {
        if let armed {
          sent.failedZoneSaves.append(.init(zone: zone, error: armed))
          continue
        }
        if database.zones[zone.name] == nil {
          state.sequence += 1
          database.zones[zone.name] = Zone(incarnation: state.sequence)
          database.purged.remove(zone.name)
          database.zoneChanges.append((state.sequence, zone.name))
        }
        sent.savedZones.append(zone)
      }
      state.databases[account] = database
    }
    return sent
  }

  /// Saves and deletes records, record by record, as a modify-records request with the
  /// `ifServerRecordUnchanged` policy `CKSyncEngine` uses.
  func modify(_ device: String, saves: [SyncRecord], deletes: [SyncRecordID]) throws(SyncError)
    -> SyncEvent.SentRecordZoneChanges
  {
    let (account, armed) = try begin(device, .send)
    var sent = SyncEvent.SentRecordZoneChanges()
    if let armed {
      sent.failedRecordSaves = saves.map { .init(record: $0, error: armed) }
      for id in deletes { sent.failedRecordDeletes[id] = armed }
      return sent
    }
    // Assets are read from their files as the request is made (CKAsset uploads the file's bytes).
    var files: [SyncRecordID: [String: [UInt8]]] = [:]
    var requestBytes: Int64 = 0
    for record in saves {
      for (key, field) in record.fields {
        guard case .asset(let path) = field else { continue }
        guard let data = FileManager.default.contents(atPath: path) else {
          sent.failedRecordSaves.append(.init(record: record, error: SyncError(.assetFileNotFound)))
          continue
        }
        files[record.id, default: [:]][key] = [UInt8](data)
        requestBytes += Int64(data.count)
      }
    }
    if requestBytes > maximumRequestSize && saves.count > 1 {
      sent.failedRecordSaves = saves.map { .init(record: $0, error: SyncError(.limitExceeded)) }
      return sent
    }
    let failedAlready = Set(sent.failedRecordSaves.map(\.record.id))
    state.withLock { state in
      var database = state.databases[account, default: Database()]
      for record in saves where !failedAlready.contains(record.id) {
        switch save(record, assets: files[record.id] ?? [:], into: &database, sequence: &state.sequence) {
        case .success(let saved): sent.savedRecords.append(saved)
        case .failure(let error): sent.failedRecordSaves.append(.init(record: record, error: error))
        }
      }
      for id in deletes {
        guard var zone = database.zones[id.zone.name] else {
          sent.failedRecordDeletes[id] = SyncError(
            database.purged.contains(id.zone.name) ? .userDeletedZone : .zoneNotFound)
          continue
        }
        guard let removed = zone.records.removeValue(forKey: id.name) else {
          sent.failedRecordDeletes[id] = SyncError(.unknownItem)
          continue
        }
        state.sequence += 1
        zone.deletions.append((state.sequence, id.name, removed.type))
        database.usedBytes -= Int64(removed.assets.values.map(\.count).reduce(0, +))
        database.zones[id.zone.name] = zone
        sent.deletedRecordIDs.append(id)
      }
      state.databases[account] = database
    }
    return sent
  }

  /// One record save.
  private func save(
    _ record: SyncRecord, assets: [String: [UInt8]], into database: inout Database, sequence: inout Int
  ) -> Result<SyncRecord, SyncError> {
    let zoneName = record.id.zone.name
    guard var zone = database.zones[zoneName] else {
      return .failure(SyncError(database.purged.contains(zoneName) ? .userDeletedZone : .zoneNotFound))
    }
    let sent = SystemFields(record.systemFields)
    let existing = zone.records[record.id.name]
    if let existing {
      guard let sent, sent.tag == existing.tag, sent.incarnation == zone.incarnation else {
        database.changeConflicts += 1
        let server = Self.clientRecord(record.id.name, existing, record.id.zone, zone.incarnation)
        return .failure(SyncError(.serverRecordChanged, serverRecord: server))
      }
    } else if let sent, sent.incarnation == zone.incarnation {
      // Saved with the system fields of a record that was deleted since.
      return .failure(SyncError(.unknownItem))
    }
    // As CloudKit does, only the fields the record mentions change; a cleared field is removed.
    var fields = existing?.fields ?? [:]
    var stored = existing?.assets ?? [:]
    for (key, value) in record.fields {
      switch value {
      case .cleared:
        fields.removeValue(forKey: key)
        stored.removeValue(forKey: key)
      case .asset:
        fields.removeValue(forKey: key)
        stored[key] = assets[key] ?? []
      default:
        fields[key] = value
      }
    }
    let size = Int64(stored.values.map(\.count).reduce(0, +))
    let added = Int64(assets.values.map(\.count).reduce(0, +))
    if added > maximumAssetSize { return .failure(SyncError(.limitExceeded)) }
    let previous = Int64(existing?.assets.values.map(\.count).reduce(0, +) ?? 0)
    if let quota = database.quota, size > previous, database.usedBytes - previous + size > quota {
      database.quotaRejections += 1
      return .failure(SyncError(.quotaExceeded))
    }
    sequence += 1
    zone.records[record.id.name] = StoredRecord(
      type: record.type, fields: fields, assets: stored, tag: sequence, modified: sequence)
    database.usedBytes += size - previous
    database.zones[zoneName] = zone
    var saved = record
    saved.systemFields =
      SystemFields(zone: zoneName, name: record.id.name, tag: sequence, incarnation: zone.incarnation)
      .data
    return .success(saved)
  }

  /// Fetches records by id, with their assets written under `scratch`.
  func fetchRecords(_ device: String, _ ids: [SyncRecordID], scratch: String) throws(SyncError)
    -> [SyncRecordID: Result<SyncRecord, SyncError>]
  {
    let (account, armed) = try begin(device, .fetch)
    if let armed { throw armed }
    var results: [SyncRecordID: Result<SyncRecord, SyncError>] = [:]
    for id in ids {
      let found = state.withLock { state -> SyncRecord? in
        guard let zone = state.databases[account]?.zones[id.zone.name], let stored = zone.records[id.name]
        else {
          return nil
        }
        return Self.clientRecord(id.name, stored, id.zone, zone.incarnation)
      }
      results[id] =
        found.map { .success(materialize($0, account: account, scratch: scratch)) }
        ?? .failure(SyncError(.unknownItem))
    }
    return results
  }
}
