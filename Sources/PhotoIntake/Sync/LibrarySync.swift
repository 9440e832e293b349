import Foundation

/// Syncs a ``Library`` with the user's private CloudKit database, losing nothing: the portable core of
/// PhotoIntake's sync, the delegate of a ``SyncEngine`` (`CKSyncEngine` through PhotoIntakeUI's adapter, or the
/// simulated engine of PhotoIntakeTesting).
///
/// - Each asset is a record named by the SHA-256 of its bytes, in a custom zone of the private database: the
///   same bytes on two devices are one record, so content never conflicts. Its bytes travel as a `CKAsset`, its
///   facts and display name as fields. Each batch is a record holding its members and their order.
/// - A download enters the library through the same path as any import (staging, hash check, intent, link,
///   row); bytes that do not hash to the record's name are refused.
/// - A removal is a tombstone: the record is deleted and the photo taken out of its batches; another device
///   removes its copy (row first, then bytes) when it learns of it, never because a device is slow.
/// - Order edits merge deterministically: see `BatchMembership`.
/// - The ledger (each asset's and batch's state, the server's system fields, the engine's state) is written in
///   the same SQLite transactions as the rows it describes.
/// - Every failure CloudKit returns maps to a ``SyncStatus/Condition`` the app can show.
///
/// ```swift
/// let database = CKContainer(identifier: "iCloud.com.example.app").privateCloudDatabase
/// let sync = LibrarySync(library: library) { state, delegate in
///   CloudKitSyncEngine(database: database, state: state, delegate: delegate)  // PhotoIntakeUI
/// }
/// await sync.start()
/// for await status in await sync.statusUpdates() { banner.show(status) }
/// ```
public actor LibrarySync: SyncEngineDelegate {
  /// How a library syncs.
  public struct Configuration: Sendable {
    /// The zone of the private database the library's records live in.
    public var zone = SyncZoneID.library
    /// Assets larger than this are kept on the device only (``AssetSyncState/LocalOnlyReason/tooLarge``),
    /// never sent. CloudKit refuses a request that is too large with `limitExceeded`, which is handled too.
    /// Default 250 MB.
    public var maximumAssetSize: Int64 = 250_000_000
    /// The most records one send carries; halved while CloudKit answers `limitExceeded`.
    public var recordsPerBatch = 16
    /// The most asset bytes one send carries (at least one asset goes in each). Default 64 MB.
    public var bytesPerBatch: Int64 = 64 << 20
    /// A fixed device id for order edits (the tie-break of equal stamps); nil: a random one made once per
    /// library.
    public var deviceID: String?
    /// Whether local changes are handed to the engine as they happen (an app's choice; the engine then sends
    /// on its own schedule). Off, they are handed over at each ``syncNow()``.
    public var observesLibraryChanges = true
    /// What ``SyncStatus/Condition/waiting(retryAfter:reason:)`` is measured with: a monotonic uptime.
    public var uptime: @Sendable () -> Duration = {
      let now = ContinuousClock.now
      return now - LibrarySync.start
    }

    /// The defaults documented on each property.
    public init() {}
  }

  /// Makes the engine, from the state saved for the account (nil: a fresh engine), with this core as its
  /// delegate. Called at ``start()``, and again after an account change or an expired change token.
  public typealias EngineFactory =
    @Sendable (_ state: SyncStateSerialization?, _ delegate: any SyncEngineDelegate) -> any SyncEngine

  static let start = ContinuousClock.now

  /// The library synced.
  public nonisolated let library: Library
  let configuration: Configuration
  let makeEngine: EngineFactory
  /// The running engine.
  var engine: (any SyncEngine)?
  /// The account whose saved state the running engine was made from, or that it reported since.
  var engineAccount: String?
  var status = SyncStatus()
  private var observers: [UUID: AsyncStream<SyncStatus>.Continuation] = [:]
  /// The revision of each batch record in flight, by batch id.
  var sentRevisions: [String: Int64] = [:]
  /// Records per send now (``Configuration/recordsPerBatch``, halved on `limitExceeded`).
  var recordsPerBatch: Int
  /// Set on `quotaExceeded`: asset uploads wait until ``resumeUploads()``.
  var uploadsPaused = false
  /// Nothing is sent before this uptime (CloudKit's `retryAfter`).
  var notBefore: Duration?
  /// Set when the change token expired: the next pass starts the engine afresh and re-fetches everything.
  var needsRefetch = false
  /// Whether the fetch under way reported a failure (a census is then not concluded).
  var fetchFailed = false
  var isSyncing = false
  /// The engine's latest state, not yet written (see ``write(_:)``).
  var unsavedState: (account: String, data: Data)?
  /// How many records the last batch held (a `limitExceeded` on a batch of one means the record is too large).
  var lastBatchSize = 0
  private var changeObserver: Task<Void, Never>?

  /// A sync for `library`, with engines made by `makeEngine`. Nothing happens until ``start()``.
  public init(
    library: Library, configuration: Configuration = Configuration(), makeEngine: @escaping EngineFactory
  ) {
    self.library = library
    self.configuration = configuration
    self.makeEngine = makeEngine
    recordsPerBatch = max(1, configuration.recordsPerBatch)
  }

  // MARK: Controls

  /// Turns syncing on: makes the engine from the state saved for the last account, hands it every change the
  /// ledger holds as pending, and (with ``Configuration/observesLibraryChanges``) follows the library.
  ///
  /// Whatever was imported while syncing was off belongs to no account yet; the account synced with adopts it
  /// (``AssetSyncState/LocalOnlyReason/notSyncing`` until then).
  public func start() async {
    let device = configuration.deviceID
    let account = try? await write { ledger throws(DatabaseError) -> String? in
      if let device { try ledger.setSetting("device", SyncLedger.sanitizedDevice(device)) }
      try ledger.setSetting("enabled", "1")
      let account = try ledger.setting("account")
      if let account { try ledger.adoptUnowned(into: account) }
      return account
    }
    await makeEngine(for: account ?? nil)
    status.account = account ?? nil
    status.condition = account == nil ? .signedOut : .idle
    if let account = account ?? nil,
      (try? await library.syncRead { ledger throws(DatabaseError) in try ledger.zoneState(account) })
        == .deleted
    {
      // The user deleted the app's data from iCloud before this launch: still stopped, until the app says.
      status.condition = .zoneDeleted
    }
    await refreshPending()
    await refreshCounts()
    if configuration.observesLibraryChanges && changeObserver == nil {
      let stream = await library.changes()
      changeObserver = Task { [weak self] in
        for await _ in stream {
          guard let self else { return }
          await self.refreshPending()
        }
      }
    }
    publish()
  }

  /// Turns syncing off (the app's "iCloud" switch): the engine stops; everything stays in the library, and
  /// what is imported meanwhile is adopted by the account synced with when it is turned on again.
  public func stop() async {
    changeObserver?.cancel()
    changeObserver = nil
    engine = nil
    _ = try? await write { ledger throws(DatabaseError) in try ledger.setSetting("enabled", "0") }
    status.condition = .off
    publish()
  }

  /// Fetches what changed in iCloud, retries downloads that failed, then sends what changed here. Every
  /// failure becomes the ``currentStatus``; nothing is lost by one.
  public func syncNow() async {
    guard let engine, !isSyncing else { return }
    if status.condition == .zoneDeleted || status.condition == .off { return }
    if let notBefore, configuration.uptime() < notBefore { return }
    isSyncing = true
    defer { isSyncing = false }
    // One write for the whole pass, as an import session holds one: the ledger writes of its events nest in
    // it instead of each taking the library's writer lock and registering a writer of its own.
    let writing = (try? await library.beginWriting()) != nil
    notBefore = nil
    setCondition(.syncing)
    await refreshPending()
    fetchFailed = false
    var failure: SyncError?
    do {
      try await engine.fetchChanges()
    } catch {
      failure = Self.syncError(error)
    }
    if needsRefetch {
      await refetchEverything()
    }
    if failure == nil, let engine = self.engine {
      await retryDownloads(engine)
      await refreshPending()
      do {
        try await engine.sendChanges()
      } catch {
        failure = Self.syncError(error)
      }
    }
    if let failure { await note(failure) }
    await saveEngineState()
    await refreshCounts()
    if writing { await library.endWriting() }
    if status.condition == .syncing { setCondition(uploadsPaused ? .quotaExceeded : .idle) }
  }

  /// Resumes uploads stopped by `quotaExceeded`, once the user has freed space (or the app wants to try).
  public func resumeUploads() async {
    uploadsPaused = false
    if status.condition == .quotaExceeded { setCondition(.idle) }
    await refreshPending()
  }

  /// After the user deleted the app's data from iCloud, uploads everything here again — only when the app
  /// asks (ask the user first: they may have meant to stop using iCloud for it).
  public func uploadAgainAfterZoneDeletion() async {
    guard let account = status.account else { return }
    _ = try? await write { ledger throws(DatabaseError) in
      try ledger.restartAfterZoneDeletion(account)
    }
    await makeEngine(for: nil)
    setCondition(.idle)
    await refreshPending()
  }

  /// The status as of the last change of condition and the last pass (cheap).
  public var currentStatus: SyncStatus { status }

  /// The status with its counts read from the ledger now (what waits to upload, remove, download).
  public func refreshedStatus() async -> SyncStatus {
    await refreshCounts()
    return status
  }

  /// The status, now and after each change, until the sync goes away.
  public func statusUpdates() -> AsyncStream<SyncStatus> {
    let (stream, continuation) = AsyncStream.makeStream(of: SyncStatus.self)
    let key = UUID()
    observers[key] = continuation
    continuation.yield(status)
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      Task { await self.removeObserver(key) }
    }
    return stream
  }

  private func removeObserver(_ key: UUID) { observers[key] = nil }

  func publish() {
    for continuation in observers.values { continuation.yield(status) }
  }

  func setCondition(_ condition: SyncStatus.Condition) {
    guard status.condition != condition else { return }
    status.condition = condition
    publish()
  }

  // MARK: The engine

  /// Runs `body` in one ledger transaction of the library (holding its writer lock), with the engine's latest
  /// state if it is not written yet: the state is written with the ledger changes that came before it.
  func write<T: Sendable>(_ body: @escaping @Sendable (SyncLedger) throws(DatabaseError) -> T)
    async throws(Library.Error)
    -> T
  {
    let state = unsavedState
    let result = try await library.syncWrite { ledger throws(DatabaseError) -> T in
      let value = try body(ledger)
      if let state { try ledger.setEngineState(state.account, state.data) }
      return value
    }
    if let state, unsavedState?.data == state.data, unsavedState?.account == state.account {
      unsavedState = nil
    }
    return result
  }

  /// Writes the engine's latest state if it is not written yet.
  func saveEngineState() async {
    guard unsavedState != nil else { return }
    _ = try? await write { _ throws(DatabaseError) in }
  }

  /// Makes the engine from the state saved for `account` (nil: a fresh engine).
  func makeEngine(for account: String?) async {
    await saveEngineState()
    let state = try? await library.syncRead { ledger throws(DatabaseError) -> Data? in
      guard let account else { return nil }
      return try ledger.engineState(account)
    }
    engineAccount = account
    sentRevisions = [:]
    engine = makeEngine((state ?? nil).map(SyncStateSerialization.init(data:)), self)
  }

  /// Hands the engine every change the ledger holds as pending for the current account (an engine made from
  /// an older state, or a fresh one, learns them again; adding what it has is harmless).
  func refreshPending() async {
    guard let engine, let account = status.account, status.condition != .zoneDeleted else { return }
    let paused = uploadsPaused
    let zone = configuration.zone
    guard
      let (changes, zoneKnown) = try? await library.syncRead({
        ledger throws(DatabaseError) -> ([SyncPendingRecordZoneChange], Bool) in
        var changes: [SyncPendingRecordZoneChange] = []
        for entry in try ledger.assets(account, in: [.deleting]) {
          changes.append(.saveRecord(SyncRecordID(name: entry.sha256, zone: zone)))
        }
        if !paused {
          for entry in try ledger.assets(account, in: [.uploading, .conflicted]) {
            changes.append(.saveRecord(SyncRecordID(name: entry.sha256, zone: zone)))
          }
        }
        for entry in try ledger.batches(account, in: [.uploading, .conflicted]) {
          changes.append(.saveRecord(SyncRecordID(name: SyncRecord.batchName(entry.id), zone: zone)))
        }
        return (changes, try ledger.zoneState(account) == .created)
      })
    else { return }
    if !zoneKnown { engine.add(pendingDatabaseChanges: [.saveZone(zone)]) }
    let known = Set(engine.pendingRecordZoneChanges)
    let missing = changes.filter { !known.contains($0) }
    if !missing.isEmpty { engine.add(pendingRecordZoneChanges: missing) }
  }

  /// Recounts what waits, for the status.
  func refreshCounts() async {
    guard let account = status.account else { return }
    guard
      let counts = try? await library.syncRead({ ledger throws(DatabaseError) -> [Int] in
        [
          try ledger.assets(account, in: [.uploading, .conflicted]).count
            + ledger.batches(account, in: [.uploading, .conflicted]).count,
          try ledger.assets(account, in: [.deleting]).count,
          try ledger.assets(account, in: [.downloading]).count,
          try ledger.assets(account, in: [.tooLarge]).count,
        ]
      })
    else { return }
    status.pendingUploads = counts[0]
    status.pendingRemovals = counts[1]
    status.pendingDownloads = counts[2]
    status.tooLarge = counts[3]
    publish()
  }

  static func syncError(_ error: any Swift.Error) -> SyncError {
    (error as? SyncError) ?? SyncError(.internalError)
  }
}

extension SyncLedger {
  /// A device id as the ledger stores it: letters, digits and dashes only (it is a field of each membership
  /// line).
  static func sanitizedDevice(_ id: String) -> String {
    let kept = id.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" }
    return kept.isEmpty ? "device" : String(String.UnicodeScalarView(kept.prefix(40)))
  }
}
