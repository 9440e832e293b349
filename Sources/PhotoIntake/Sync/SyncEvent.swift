import Foundation

/// What a sync engine tells its delegate, shaped after `CKSyncEngine.Event` case by case, so that the Apple
/// adapter only translates types and the simulated engine can be checked against the same contract.
public enum SyncEvent: Sendable {
  /// The engine's state changed; persist ``SyncStateSerialization`` to hand it back on the next launch.
  case stateUpdate(SyncStateSerialization)
  /// The iCloud account signed in, out, or changed.
  case accountChange(SyncAccountChange)
  /// Zones changed or were deleted in the database.
  case fetchedDatabaseChanges(FetchedDatabaseChanges)
  /// Records changed or were deleted in a zone (one of possibly several partial batches of a fetch).
  case fetchedRecordZoneChanges(FetchedRecordZoneChanges)
  /// Zone saves and deletions were sent.
  case sentDatabaseChanges(SentDatabaseChanges)
  /// Record saves and deletions were sent: what was saved and what failed, record by record.
  case sentRecordZoneChanges(SentRecordZoneChanges)
  /// A fetch starts.
  case willFetchChanges
  /// A zone's changes are about to be fetched.
  case willFetchRecordZoneChanges(SyncZoneID)
  /// A zone's changes were fetched, or failed (`error`).
  case didFetchRecordZoneChanges(SyncZoneID, error: SyncError?)
  /// A fetch ended.
  case didFetchChanges
  /// A send starts.
  case willSendChanges
  /// A send ended.
  case didSendChanges

  /// `CKSyncEngine.Event.AccountChange.ChangeType`. Users are opaque ids (the user record's name).
  public enum SyncAccountChange: Sendable, Hashable {
    /// An account signed in (or the engine saw the account for the first time).
    case signIn(currentUser: String)
    /// The account signed out.
    case signOut(previousUser: String)
    /// Another account signed in in place of the previous one.
    case switchAccounts(previousUser: String, currentUser: String)
  }

  /// `CKSyncEngine.Event.FetchedDatabaseChanges`.
  public struct FetchedDatabaseChanges: Sendable, Hashable {
    /// Zones with changes.
    public var modifiedZones: [SyncZoneID]
    /// Zones that are gone, and why.
    public var deletedZones: [ZoneDeletion]

    /// Modified and deleted zones.
    public init(modifiedZones: [SyncZoneID] = [], deletedZones: [ZoneDeletion] = []) {
      self.modifiedZones = modifiedZones
      self.deletedZones = deletedZones
    }

    /// A zone that is gone (`CKDatabase.DatabaseChange.Deletion`).
    public struct ZoneDeletion: Sendable, Hashable {
      /// The zone.
      public var zone: SyncZoneID
      /// Why it is gone.
      public var reason: Reason

      /// A deletion of `zone` for `reason`.
      public init(zone: SyncZoneID, reason: Reason) {
        self.zone = zone
        self.reason = reason
      }

      /// `CKDatabase.DatabaseChange.Deletion.Reason`.
      public enum Reason: Sendable, Hashable {
        /// The zone was deleted (by an app, through the API).
        case deleted
        /// The user deleted the app's data from iCloud (Settings, "Delete Data from iCloud"): purged.
        case purged
        /// The user reset their end-to-end encrypted data: encrypted fields are lost, the rest is gone too.
        case encryptedDataReset
      }
    }
  }

  /// `CKSyncEngine.Event.FetchedRecordZoneChanges`.
  public struct FetchedRecordZoneChanges: Sendable, Hashable {
    /// Records saved on the server since the last fetch (with their downloaded assets).
    public var modifications: [SyncRecord]
    /// Records deleted on the server since the last fetch.
    public var deletions: [SyncRecordDeletion]

    /// Modified and deleted records.
    public init(modifications: [SyncRecord] = [], deletions: [SyncRecordDeletion] = []) {
      self.modifications = modifications
      self.deletions = deletions
    }
  }

  /// `CKSyncEngine.Event.SentDatabaseChanges`.
  public struct SentDatabaseChanges: Sendable, Hashable {
    /// Zones saved.
    public var savedZones: [SyncZoneID]
    /// Zones that could not be saved, with the reason.
    public var failedZoneSaves: [FailedZoneSave]

    /// Saved and failed zones.
    public init(savedZones: [SyncZoneID] = [], failedZoneSaves: [FailedZoneSave] = []) {
      self.savedZones = savedZones
      self.failedZoneSaves = failedZoneSaves
    }

    /// A zone that could not be saved.
    public struct FailedZoneSave: Sendable, Hashable {
      /// The zone.
      public var zone: SyncZoneID
      /// Why.
      public var error: SyncError

      /// A failed save of `zone`.
      public init(zone: SyncZoneID, error: SyncError) {
        self.zone = zone
        self.error = error
      }
    }
  }

  /// `CKSyncEngine.Event.SentRecordZoneChanges`.
  public struct SentRecordZoneChanges: Sendable, Hashable {
    /// Records saved, as the server now has them (with new system fields).
    public var savedRecords: [SyncRecord]
    /// Records that could not be saved, with the reason.
    public var failedRecordSaves: [FailedRecordSave]
    /// Records deleted.
    public var deletedRecordIDs: [SyncRecordID]
    /// Records that could not be deleted, with the reason.
    public var failedRecordDeletes: [SyncRecordID: SyncError]

    /// What a send did.
    public init(
      savedRecords: [SyncRecord] = [], failedRecordSaves: [FailedRecordSave] = [],
      deletedRecordIDs: [SyncRecordID] = [], failedRecordDeletes: [SyncRecordID: SyncError] = [:]
    ) {
      self.savedRecords = savedRecords
      self.failedRecordSaves = failedRecordSaves
      self.deletedRecordIDs = deletedRecordIDs
      self.failedRecordDeletes = failedRecordDeletes
    }

    /// A record that could not be saved.
    public struct FailedRecordSave: Sendable, Hashable {
      /// The record as it was sent.
      public var record: SyncRecord
      /// Why.
      public var error: SyncError

      /// A failed save of `record`.
      public init(record: SyncRecord, error: SyncError) {
        self.record = record
        self.error = error
      }
    }
  }
}

/// The engine's state (change tokens, pending changes) as opaque bytes: `CKSyncEngine.State.Serialization`
/// encoded with `JSONEncoder`, or the simulated engine's own.
public struct SyncStateSerialization: Sendable, Hashable, Codable {
  /// The bytes.
  public var data: Data

  /// State as bytes.
  public init(data: Data) { self.data = data }
}
