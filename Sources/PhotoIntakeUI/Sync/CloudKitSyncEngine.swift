#if canImport(CloudKit)
  import CloudKit
  import Foundation
  import PhotoIntake

  /// `CKSyncEngine` as a ``PhotoIntake/SyncEngine``: the Apple adapter of PhotoIntake's sync. It only translates
  /// — records, events, errors, pending changes — between CloudKit's types and the portable ones; every decision
  /// is made by ``PhotoIntake/LibrarySync``, which is tested on Linux against the simulated CloudKit.
  ///
  /// ```swift
  /// let database = CKContainer(identifier: "iCloud.com.example.app").privateCloudDatabase
  /// let sync = LibrarySync(library: library) { state, delegate in
  ///   CloudKitSyncEngine(database: database, state: state, delegate: delegate)
  /// }
  /// await sync.start()
  /// ```
  ///
  /// The app needs the iCloud capability with CloudKit and a container, and the Remote notifications background
  /// mode so that `CKSyncEngine` learns of changes made on other devices (see the "Syncing the library" article).
  @available(iOS 17.0, macOS 14.0, *)
  public final class CloudKitSyncEngine: SyncEngine {
    /// The engine.
    public let engine: CKSyncEngine
    /// `CKSyncEngine` holds its delegate weakly: the adapter keeps it.
    private let bridge: CloudKitSyncBridge

    /// An engine on `database` (the user's private database), from a saved state (nil: a fresh engine), reporting
    /// to `delegate`. With `automaticallySync` (the default) the engine fetches and sends on its own schedule,
    /// and after push notifications.
    public init(
      database: CKDatabase, state: SyncStateSerialization?, delegate: any SyncEngineDelegate,
      automaticallySync: Bool = true
    ) {
      let bridge = CloudKitSyncBridge(delegate: delegate)
      let serialization = state.flatMap {
        try? JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: $0.data)
      }
      var configuration = CKSyncEngine.Configuration(
        database: database, stateSerialization: serialization, delegate: bridge)
      configuration.automaticallySync = automaticallySync
      engine = CKSyncEngine(configuration)
      self.bridge = bridge
      bridge.attach(self)
    }

    public var pendingRecordZoneChanges: [SyncPendingRecordZoneChange] {
      engine.state.pendingRecordZoneChanges.map(CloudKitTranslation.pending)
    }

    public func add(pendingRecordZoneChanges changes: [SyncPendingRecordZoneChange]) {
      engine.state.add(pendingRecordZoneChanges: changes.map(CloudKitTranslation.pending))
    }

    public func remove(pendingRecordZoneChanges changes: [SyncPendingRecordZoneChange]) {
      engine.state.remove(pendingRecordZoneChanges: changes.map(CloudKitTranslation.pending))
    }

    public func add(pendingDatabaseChanges changes: [SyncPendingDatabaseChange]) {
      engine.state.add(
        pendingDatabaseChanges: changes.map { change in
          switch change {
          case .saveZone(let zone): .saveZone(CKRecordZone(zoneID: CloudKitTranslation.zoneID(zone)))
          case .deleteZone(let zone): .deleteZone(CloudKitTranslation.zoneID(zone))
          }
        })
    }

    public func fetchChanges() async throws {
      do {
        try await engine.fetchChanges()
      } catch {
        throw CloudKitTranslation.error(error)
      }
    }

    public func sendChanges() async throws {
      do {
        try await engine.sendChanges()
      } catch {
        throw CloudKitTranslation.error(error)
      }
    }

    public func fetchRecords(_ ids: [SyncRecordID]) async throws -> [SyncRecordID: Result<
      SyncRecord, SyncError
    >] {
      let results: [CKRecord.ID: Result<CKRecord, any Error>]
      do {
        results = try await engine.database.records(for: ids.map(CloudKitTranslation.recordID))
      } catch {
        throw CloudKitTranslation.error(error)
      }
      var translated: [SyncRecordID: Result<SyncRecord, SyncError>] = [:]
      for (id, result) in results {
        switch result {
        case .success(let record):
          translated[CloudKitTranslation.recordID(id)] = .success(CloudKitTranslation.record(record))
        case .failure(let error):
          translated[CloudKitTranslation.recordID(id)] = .failure(CloudKitTranslation.error(error))
        }
      }
      return translated
    }
  }

  /// The `CKSyncEngineDelegate` that hands each event and batch request to the portable delegate, translated.
  @available(iOS 17.0, macOS 14.0, *)
  final class CloudKitSyncBridge: CKSyncEngineDelegate {
    /// Both held weakly: the portable delegate owns the adapter, which owns this bridge.
    private struct Links {
      weak var delegate: (any SyncEngineDelegate)?
      weak var engine: CloudKitSyncEngine?
    }
    private let links: Protected<Links>

    init(delegate: any SyncEngineDelegate) { links = Protected(Links(delegate: delegate)) }

    func attach(_ engine: CloudKitSyncEngine) { links.withLock { $0.engine = engine } }

    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
      let (delegate, engine) = links.withLock { ($0.delegate, $0.engine) }
      guard let delegate, let engine, let translated = CloudKitTranslation.event(event) else { return }
      await delegate.handleEvent(translated, engine: engine)
    }

    func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine) async
      -> CKSyncEngine.RecordZoneChangeBatch?
    {
      let (delegate, engine) = links.withLock { ($0.delegate, $0.engine) }
      guard let delegate, let engine else { return nil }
      // The scope as the set of pending changes it admits: the portable context names records.
      let scope = context.options.scope
      let admitted = syncEngine.state.pendingRecordZoneChanges.filter { scope.contains($0) }
      let portable = SyncSendContext(
        recordIDs: Set(admitted.map { CloudKitTranslation.pending($0).recordID }))
      guard let batch = await delegate.nextRecordZoneChangeBatch(portable, engine: engine) else { return nil }
      return CKSyncEngine.RecordZoneChangeBatch(
        recordsToSave: batch.recordsToSave.map(CloudKitTranslation.record),
        recordIDsToDelete: batch.recordIDsToDelete.map(CloudKitTranslation.recordID),
        atomicByZone: batch.atomicByZone)
    }
  }
#endif
