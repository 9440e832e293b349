#if canImport(CloudKit)
  import CloudKit
  import Foundation
  import PhotoIntake

  /// CloudKit's types to PhotoIntake's portable sync types and back. Nothing here decides anything.
  @available(iOS 17.0, macOS 14.0, *)
  enum CloudKitTranslation {
    // MARK: Identities

    static func zoneID(_ zone: SyncZoneID) -> CKRecordZone.ID {
      CKRecordZone.ID(zoneName: zone.name, ownerName: CKCurrentUserDefaultName)
    }

    static func zone(_ id: CKRecordZone.ID) -> SyncZoneID { SyncZoneID(name: id.zoneName) }

    static func recordID(_ id: SyncRecordID) -> CKRecord.ID {
      CKRecord.ID(recordName: id.name, zoneID: zoneID(id.zone))
    }

    static func recordID(_ id: CKRecord.ID) -> SyncRecordID {
      SyncRecordID(name: id.recordName, zone: zone(id.zoneID))
    }

    static func pending(_ change: CKSyncEngine.PendingRecordZoneChange) -> SyncPendingRecordZoneChange {
      switch change {
      case .saveRecord(let id): .saveRecord(recordID(id))
      case .deleteRecord(let id): .deleteRecord(recordID(id))
      @unknown default: .saveRecord(SyncRecordID(name: ""))
      }
    }

    static func pending(_ change: SyncPendingRecordZoneChange) -> CKSyncEngine.PendingRecordZoneChange {
      switch change {
      case .saveRecord(let id): .saveRecord(recordID(id))
      case .deleteRecord(let id): .deleteRecord(recordID(id))
      }
    }

    // MARK: Records

    /// A `CKRecord` for saving: made from the server's system fields when there are any (so that the server
    /// knows which version it changes), with the record's fields set; a cleared field is set to nil.
    static func record(_ record: SyncRecord) -> CKRecord {
      let made: CKRecord
      if let data = record.systemFields, let decoded = decodeSystemFields(data) {
        made = decoded
      } else {
        made = CKRecord(recordType: record.type, recordID: recordID(record.id))
      }
      for (key, field) in record.fields {
        switch field {
        case .string(let text): made.setObject(text as NSString, forKey: key)
        case .int(let number): made.setObject(NSNumber(value: number), forKey: key)
        case .date(let date): made.setObject(date as NSDate, forKey: key)
        case .asset(let path): made.setObject(CKAsset(fileURL: URL(fileURLWithPath: path)), forKey: key)
        case .cleared: made.setObject(nil, forKey: key)
        }
      }
      return made
    }

    /// A record as it arrived from the server: its fields and its system fields.
    static func record(_ record: CKRecord) -> SyncRecord {
      var fields: [String: SyncField] = [:]
      for key in record.allKeys() {
        switch record.object(forKey: key) {
        case let text as NSString: fields[key] = .string(text as String)
        case let date as NSDate: fields[key] = .date(date as Date)
        case let asset as CKAsset:
          if let url = asset.fileURL { fields[key] = .asset(path: url.path) }
        case let number as NSNumber: fields[key] = .int(number.int64Value)
        default: break
        }
      }
      return SyncRecord(
        type: record.recordType, id: recordID(record.recordID), fields: fields,
        systemFields: encodeSystemFields(record))
    }

    /// The record's system fields (`encodeSystemFields(with:)`), as CloudKit's guide to local caches stores them.
    static func encodeSystemFields(_ record: CKRecord) -> Data {
      let archiver = NSKeyedArchiver(requiringSecureCoding: true)
      record.encodeSystemFields(with: archiver)
      archiver.finishEncoding()
      return archiver.encodedData
    }

    static func decodeSystemFields(_ data: Data) -> CKRecord? {
      guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
      unarchiver.requiresSecureCoding = true
      defer { unarchiver.finishDecoding() }
      return CKRecord(coder: unarchiver)
    }

    // MARK: Errors

    /// A CloudKit failure in portable form: its code, the wait it asks for, the server's record of a conflict.
    static func error(_ error: any Error) -> SyncError {
      guard let error = error as? CKError else { return SyncError(.internalError) }
      return SyncError(
        SyncError.Code(rawValue: error.code.rawValue) ?? .internalError,
        retryAfter: error.retryAfterSeconds.map { .milliseconds(Int64(($0 * 1000).rounded())) },
        serverRecord: error.serverRecord.map(record))
    }

    // MARK: Events

    static func event(_ event: CKSyncEngine.Event) -> SyncEvent? {
      switch event {
      case .stateUpdate(let update):
        guard let data = try? JSONEncoder().encode(update.stateSerialization) else { return nil }
        return .stateUpdate(SyncStateSerialization(data: data))
      case .accountChange(let change):
        switch change.changeType {
        case .signIn(let current):
          return .accountChange(.signIn(currentUser: current.recordName))
        case .signOut(let previous):
          return .accountChange(.signOut(previousUser: previous.recordName))
        case .switchAccounts(let previous, let current):
          return .accountChange(
            .switchAccounts(previousUser: previous.recordName, currentUser: current.recordName))
        @unknown default:
          return nil
        }
      case .fetchedDatabaseChanges(let changes):
        return .fetchedDatabaseChanges(
          SyncEvent.FetchedDatabaseChanges(
            modifiedZones: changes.modifications.map { zone($0.zoneID) },
            deletedZones: changes.deletions.map { deletion in
              let reason: SyncEvent.FetchedDatabaseChanges.ZoneDeletion.Reason =
                switch deletion.reason {
                case .purged: .purged
                case .encryptedDataReset: .encryptedDataReset
                default: .deleted
                }
              return .init(zone: zone(deletion.zoneID), reason: reason)
            }))
      case .fetchedRecordZoneChanges(let changes):
        return .fetchedRecordZoneChanges(
          SyncEvent.FetchedRecordZoneChanges(
            modifications: changes.modifications.map { record($0.record) },
            deletions: changes.deletions.map {
              SyncRecordDeletion(id: recordID($0.recordID), type: $0.recordType)
            }))
      case .sentDatabaseChanges(let sent):
        return .sentDatabaseChanges(
          SyncEvent.SentDatabaseChanges(
            savedZones: sent.savedZones.map { zone($0.zoneID) },
            failedZoneSaves: sent.failedZoneSaves.map {
              .init(zone: zone($0.zone.zoneID), error: error($0.error))
            }))
      case .sentRecordZoneChanges(let sent):
        var failedDeletes: [SyncRecordID: SyncError] = [:]
        for (id, failure) in sent.failedRecordDeletes { failedDeletes[recordID(id)] = error(failure) }
        return .sentRecordZoneChanges(
          SyncEvent.SentRecordZoneChanges(
            savedRecords: sent.savedRecords.map(record),
            failedRecordSaves: sent.failedRecordSaves.map {
              .init(record: record($0.record), error: error($0.error))
            },
            deletedRecordIDs: sent.deletedRecordIDs.map(recordID), failedRecordDeletes: failedDeletes))
      case .willFetchChanges:
        return .willFetchChanges
      case .willFetchRecordZoneChanges(let fetch):
        return .willFetchRecordZoneChanges(zone(fetch.zoneID))
      case .didFetchRecordZoneChanges(let fetch):
        return .didFetchRecordZoneChanges(zone(fetch.zoneID), error: fetch.error.map(error))
      case .didFetchChanges:
        return .didFetchChanges
      case .willSendChanges:
        return .willSendChanges
      case .didSendChanges:
        return .didSendChanges
      @unknown default:
        return nil
      }
    }
  }
#endif
