import Foundation

/// The engine that talks to CloudKit, as ``LibrarySync`` drives it: the part of `CKSyncEngine`'s API
/// PhotoIntake uses. `CloudKitSyncEngine` (PhotoIntakeUI) wraps `CKSyncEngine`; `SimulatedSyncEngine`
/// (PhotoIntakeTesting) runs against a simulated private database.
///
/// As with `CKSyncEngine`, the engine keeps a list of pending changes (in its serialized state), asks its
/// delegate for the records to send (``SyncEngineDelegate/nextRecordZoneChangeBatch(_:engine:)``), and reports
/// everything else as ``SyncEvent``s (``SyncEngineDelegate/handleEvent(_:engine:)``), one at a time.
public protocol SyncEngine: AnyObject, Sendable {
  /// The record saves and deletions waiting to be sent (`CKSyncEngine.State.pendingRecordZoneChanges`).
  var pendingRecordZoneChanges: [SyncPendingRecordZoneChange] { get }
  /// Adds record changes to send (`CKSyncEngine.State.add(pendingRecordZoneChanges:)`).
  func add(pendingRecordZoneChanges: [SyncPendingRecordZoneChange])
  /// Forgets record changes (`CKSyncEngine.State.remove(pendingRecordZoneChanges:)`).
  func remove(pendingRecordZoneChanges: [SyncPendingRecordZoneChange])
  /// Adds zone saves or deletions to send (`CKSyncEngine.State.add(pendingDatabaseChanges:)`).
  func add(pendingDatabaseChanges: [SyncPendingDatabaseChange])
  /// Fetches what changed on the server, reporting it as events (`CKSyncEngine.fetchChanges(_:)`).
  ///
  /// - Throws: ``SyncError`` when the fetch fails as a whole (no network, the account is unavailable).
  func fetchChanges() async throws
  /// Sends the pending changes, asking the delegate for each batch (`CKSyncEngine.sendChanges(_:)`).
  ///
  /// - Throws: ``SyncError`` when the send fails as a whole; failures of single records are reported in
  ///   ``SyncEvent/sentRecordZoneChanges(_:)``.
  func sendChanges() async throws
  /// Fetches records by id, with their assets (`CKDatabase.records(for:desiredKeys:)`): how a download that
  /// failed after its change was fetched is tried again.
  ///
  /// - Throws: ``SyncError`` when the request fails as a whole.
  func fetchRecords(_ ids: [SyncRecordID]) async throws -> [SyncRecordID: Result<SyncRecord, SyncError>]
}

/// What a sync engine calls on its delegate (`CKSyncEngineDelegate`).
public protocol SyncEngineDelegate: AnyObject, Sendable {
  /// Handles one event; the engine waits for it before the next.
  func handleEvent(_ event: SyncEvent, engine: any SyncEngine) async
  /// The next records to send, or nil when there is nothing (more) to send now.
  func nextRecordZoneChangeBatch(_ context: SyncSendContext, engine: any SyncEngine) async -> SyncRecordBatch?
}

/// `CKSyncEngine.PendingRecordZoneChange`.
public enum SyncPendingRecordZoneChange: Sendable, Hashable {
  /// Save the record with this id.
  case saveRecord(SyncRecordID)
  /// Delete the record with this id.
  case deleteRecord(SyncRecordID)

  /// The record the change is about.
  public var recordID: SyncRecordID {
    switch self {
    case .saveRecord(let id), .deleteRecord(let id): id
    }
  }
}

/// `CKSyncEngine.PendingDatabaseChange`.
public enum SyncPendingDatabaseChange: Sendable, Hashable {
  /// Create (or keep) this zone.
  case saveZone(SyncZoneID)
  /// Delete this zone.
  case deleteZone(SyncZoneID)
}

/// `CKSyncEngine.SendChangesContext`: which of the pending changes this send is for.
public struct SyncSendContext: Sendable, Hashable {
  /// The records this send may include; nil for all pending changes.
  public var recordIDs: Set<SyncRecordID>?

  /// A context for every pending change, or only those of `recordIDs`.
  public init(recordIDs: Set<SyncRecordID>? = nil) { self.recordIDs = recordIDs }

  /// Whether `change` is in this send's scope.
  public func contains(_ change: SyncPendingRecordZoneChange) -> Bool {
    recordIDs?.contains(change.recordID) ?? true
  }
}

/// `CKSyncEngine.RecordZoneChangeBatch`: records to save and ids to delete, sent as one request.
public struct SyncRecordBatch: Sendable, Hashable {
  /// Records to save.
  public var recordsToSave: [SyncRecord]
  /// Records to delete.
  public var recordIDsToDelete: [SyncRecordID]
  /// Whether the whole batch fails when one record of a zone fails.
  public var atomicByZone: Bool

  /// A batch.
  public init(
    recordsToSave: [SyncRecord] = [], recordIDsToDelete: [SyncRecordID] = [], atomicByZone: Bool = false
  ) {
    self.recordsToSave = recordsToSave
    self.recordIDsToDelete = recordIDsToDelete
    self.atomicByZone = atomicByZone
  }

  /// Whether the batch holds nothing.
  public var isEmpty: Bool { recordsToSave.isEmpty && recordIDsToDelete.isEmpty }
}
