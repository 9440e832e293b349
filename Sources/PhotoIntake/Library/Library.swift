import Foundation
import PhotoMetadata

/// The durable store of imported photos at a root folder.
///
/// ```
/// root/
///   manifest.sqlite     assets, batches, damage, and the intents of unfinished writes (WAL, synchronous=FULL)
///   objects/ab/<sha256> the bytes of each asset, exactly as received, named by content hash, read-only
///   staging/<writer>-<uuid>.part  items being received by the writer that recorded <writer>
///   renditions/         downsampled caches, always re-creatable
///   lost+found/         whatever `repair` found where it did not belong, kept
/// ```
///
/// Opening a library costs the same at 100 assets and 100,000: it reads nothing but the manifest's header.
/// Many processes (an app and its share extension, a CLI listing while another imports) may open one library:
/// readers never wait (SQLite WAL), and writers — imports, removals, repair — take turns on a lock held on the
/// library folder's own descriptor, which no one can delete while it is open. A writer that finds the lock
/// taken waits up to ``Configuration/writerWait``.
///
/// Nothing is ever deleted because it is unknown. When a writer takes its turn it undoes only what earlier,
/// unfinished writers recorded they were doing (``recoverInterruptedWork()``); an object without a row is
/// reported by ``verify(progress:)`` and adopted by ``repair()``, never removed.
///
/// The library composes its manifest (the SQLite rows, on an executor of its own: `Manifest`) and its object
/// store (the files: `ObjectStore`); it owns the writer lock, recovery and the change events, and commits
/// staged items in groups (`GroupCommit`). Import, verification, repair and export are built on these and live
/// beside them.
///
/// ```swift
/// let library = try await Library.open(at: "/path/to/library")
/// let page = try await library.list(order: .batch, limit: 50)
/// ```
public actor Library {
  /// Options for opening a library.
  public struct Configuration: Sendable {
    /// Create the library when nothing is at the path (the default). Tools that only read turn it off, so
    /// that a mistyped path is an error (``Library/Error/notALibrary(_:)``) rather than a new, empty library.
    public var createIfNeeded = true
    /// How long a write (an import, a removal, a repair) waits for another process's write to finish before
    /// it fails with ``Library/Error/busy``. Default 60 seconds.
    public var writerWait: Duration = .seconds(60)
    /// Called once when a write has to wait for another process, so a tool can say so.
    public var onWaitingForWriter: (@Sendable () -> Void)?
    /// Caps the manifest's size in pages (SQLite `max_page_count`); tests use it to simulate a full disk.
    package var maximumManifestPages: Int?
    /// Open for reading only: no connection that writes is opened and nothing in the folder is created or
    /// changed, so reading works on a full disk too; every write throws ``Library/Error/readOnly``. (A manifest
    /// that must first be made or upgraded, by a newer PhotoIntake, is made or upgraded where the storage can be
    /// written.) Storage this process cannot write — read-only media, a folder or manifest without write
    /// permission — is always opened so, whatever this says. Default false.
    public var readOnly = false

    /// The default configuration: create the library where there is none, and wait for another writer as long
    /// as ``writerWait`` says.
    public init() {}
  }

  /// The library's root folder.
  public nonisolated let root: String
  /// The queue the library's own work runs on, off Swift's cooperative pool (see ``DispatchSerialExecutor``).
  private nonisolated let executor = DispatchSerialExecutor(label: "PhotoIntake.Library")
  public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
  let configuration: Configuration
  /// The rows: assets, batches, writers, intents.
  nonisolated let manifest: Manifest
  /// The files: objects, staging, renditions, lost+found.
  nonisolated let store: ObjectStore
  private var observers: [UUID: AsyncStream<LibraryChange>.Continuation] = [:]
  /// Staged items waiting for their group commit (`Library+Commit.swift`).
  var commitQueue = CommitQueue()
  private var isClosed = false
  /// The token of this value's current write, read from any thread by ``newStagingName()``; nil between writes.
  private nonisolated let writerToken = Protected<String?>(nil)
  /// How many writes of this value are under way (they nest).
  private var writers = 0
  /// The taking or the release of the writer lock under way, which a new write waits for.
  private var transition: Task<Result<Void, Error>, Never>?
  /// What the last ``recoverInterruptedWork()`` (or the start of the last write) found and did.
  public private(set) var lastRecovery = RecoveryReport()

  /// Whether the library was opened for reading only (``Configuration/readOnly``, or storage this process cannot
  /// write): reads work, and every write throws ``Error/readOnly``.
  public nonisolated var isReadOnly: Bool { manifest.isReadOnly }

  /// Where renditions (caches) are kept.
  public nonisolated var renditionsPath: String { store.renditions.path }

  // MARK: Opening

  /// Opens the library at `root`, creating it if needed and allowed.
  ///
  /// Opening reads only the manifest's header, whatever the library's size. It neither waits for nor
  /// disturbs another process using the library.
  ///
  /// - Throws: ``Library/Error``: ``Error/notALibrary(_:)`` when nothing is there and creating was not asked,
  ///   ``Error/manifestMissing`` when photos are stored but the manifest is gone or empty,
  ///   ``Error/manifestUnreadable(reason:)``, ``Error/damagedLayout(_:)`` when a library folder is a
  ///   symbolic link or not a folder.
  public static func open(at root: String, configuration: Configuration = Configuration()) async throws(Error)
    -> Library
  {
    // sqlite3_open, the fsynced migrations and, for a new library, 256 mkdirat + fsyncs block: on an I/O
    // lane, never on a thread of Swift's cooperative pool.
    try await BlockingLanes.io.run { () throws(Error) -> Library in
      try openChecked(at: root, configuration: configuration, forRepair: false)
    }
  }

  /// Opens the library's folders and manifest (blocking). `forRepair` opens whatever is there, making anew
  /// what is missing, for repair to mend.
  static func openChecked(at root: String, configuration: Configuration, forRepair: Bool) throws(Error)
    -> Library
  {
    let (root, manifest, store) = try LibraryLayout.open(
      at: root, configuration: configuration, forRepair: forRepair)
    return Library(root: root, configuration: configuration, manifest: manifest, store: store)
  }

  private init(root: String, configuration: Configuration, manifest: Manifest, store: ObjectStore) {
    self.root = root
    self.configuration = configuration
    self.manifest = manifest
    self.store = store
  }

  deinit {
    for continuation in observers.values { continuation.finish() }
  }

  /// Ends this value's use of the library: change streams finish and the write-ahead log is folded into the
  /// manifest when no one else is using it. The library must not be used after this; the folder's descriptors
  /// are closed when the last reference goes away.
  public func close() async {
    guard !isClosed else { return }
    isClosed = true
    for continuation in observers.values { continuation.finish() }
    observers = [:]
    await manifest.checkpoint()
  }

  // MARK: Objects

  /// The path of an asset's bytes. The app may read it; it must never write to it.
  public nonisolated func objectPath(for digest: SHA256Digest) -> String { store.path(of: digest) }

  /// The path of an asset's bytes.
  public nonisolated func objectPath(for asset: Asset) -> String { store.path(of: asset.sha256) }

  /// Opens an asset's bytes for reading (the object is read-only; never write through another handle).
  ///
  /// The object is opened relative to the library's folders without following links and without blocking:
  /// a link, FIFO or folder where the object should be is damage, reported as ``Error/damagedObject(_:_:)``.
  ///
  /// - Throws: ``Error/notFound(_:)`` when the object file is gone (the asset is then damaged: see
  ///   ``verify(progress:)``), ``Error/io(reason:)`` for other failures.
  public nonisolated func openBytes(of asset: Asset) throws(Error) -> FileHandle {
    let file = try store.open(asset)
    do throws(SystemError) {
      return FileHandle(fileDescriptor: try file.duplicate(), closeOnDealloc: true)
    } catch {
      throw Error(error)
    }
  }

  // MARK: Reading
  // The public queries run on the manifest's reader connection: they never wait for a commit of the writer,
  // nor for the library actor while it is busy.

  /// Lists assets a page at a time. Each page costs O(log n + limit): the cursor is a key, not an offset.
  public nonisolated func list(order: ListOrder = .batch, limit: Int = 100, after cursor: ListCursor? = nil)
    async throws(Error) -> Page
  {
    try await read { database throws(DatabaseError) in
      try database.page(order: order, limit: limit, after: cursor)
    }
  }

  /// Every asset in the given order (convenience over ``list(order:limit:after:)``).
  public nonisolated func all(order: ListOrder = .batch) async throws(Error) -> [Asset] {
    try await read { database throws(DatabaseError) in try database.all(order: order) }
  }

  /// The asset with this identifier, with its first batch and position; nil if there is none.
  public nonisolated func asset(_ id: AssetID) async throws(Error) -> Asset? {
    try await read { database throws(DatabaseError) in try database.asset(id) }
  }

  /// The asset whose bytes hash to `digest`, if any.
  public nonisolated func asset(withSHA256 digest: SHA256Digest) async throws(Error) -> Asset? {
    try await read { database throws(DatabaseError) in try database.asset(withSHA256: digest) }
  }

  /// Resolves a full identifier, or a unique prefix of an identifier or of a SHA-256 (at least 4 characters),
  /// as people type them on a command line.
  public nonisolated func resolve(_ text: String) async throws(Error) -> Asset? {
    try await read { database throws(DatabaseError) in try database.resolve(text) }
  }

  /// How many assets the library holds.
  public nonisolated func count() async throws(Error) -> Int {
    try await read { database throws(DatabaseError) in try database.assetCount() }
  }

  /// Runs a query on the reader connection.
  nonisolated func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws(DatabaseError) -> T)
    async throws(Error) -> T
  {
    do throws(DatabaseError) {
      return try await manifest.read(body)
    } catch {
      throw Error(error)
    }
  }

  // MARK: Changes

  /// A stream of changes, from now on; ends when the library is closed.
  public func changes() -> AsyncStream<LibraryChange> {
    let (stream, continuation) = AsyncStream.makeStream(of: LibraryChange.self)
    let key = UUID()
    observers[key] = continuation
    continuation.onTermination = { [weak self] _ in
      guard let library = self else { return }
      Task { await library.removeObserver(key) }
    }
    return stream
  }

  private func removeObserver(_ key: UUID) { observers[key] = nil }

  /// Tells every stream of ``changes()`` what changed.
  func publish(_ change: LibraryChange) {
    for continuation in observers.values { continuation.yield(change) }
  }

  // MARK: Writing in turn

  /// Starts a write: takes the library's writer lock (waiting for another process's write if needed), undoes
  /// the recorded, unfinished work of earlier writers, and records this writer so that its own staging files
  /// can be found again after a crash. Writes of one library value nest; each must be ended with
  /// ``endWriting()``.
  func beginWriting() async throws(Error) {
    // Before the lock and before anything is undone or recorded: nothing may be written through this value.
    if isReadOnly { throw .readOnly }
    // A write of this value that is taking or releasing the lock finishes first; one that failed to take it
    // fails its waiters alike.
    while let pending = transition {
      if case .failure(let error) = await pending.value { throw error }
    }
    if writers > 0 {
      writers += 1
      return
    }
    let taking = Task { await takeWriterLock() }
    transition = taking
    if case .failure(let error) = await taking.value { throw error }
    writers += 1
  }

  /// Ends a write begun with ``beginWriting()``; the last one cleans up after itself and releases the lock.
  func endWriting() async {
    guard writers > 0 else { return }
    writers -= 1
    guard writers == 0 else { return }
    let releasing = Task { () -> Result<Void, Error> in
      defer { transition = nil }
      if let token = writerToken.current {
        // Nothing of ours is in flight now: whatever this writer left (a failed cleanup) is undone like a
        // crashed writer's, and its record goes.
        _ = try? await recover(token: token)
      }
      writerToken.withLock { $0 = nil }
      Syscalls.unlock(store.root.descriptor)
      return .success(())
    }
    transition = releasing
    _ = await releasing.value
  }

  /// Runs `body` as one write (``beginWriting()`` … ``endWriting()``).
  func whileWriting<T: Sendable>(_ body: () async throws(Error) -> T) async throws(Error) -> T {
    try await beginWriting()
    let result: Result<T, Error>
    do {
      result = .success(try await body())
    } catch {
      result = .failure(error)
    }
    await endWriting()
    return try result.typedGet()
  }

  private func takeWriterLock() async -> Result<Void, Error> {
    defer { transition = nil }
    let deadline = ContinuousClock.now + configuration.writerWait
    var told = false
    while true {
      do {
        if try Syscalls.tryLockExclusive(store.root.descriptor, path: root) { break }
      } catch {
        return .failure(.cannotOpen(reason: error.description))
      }
      if ContinuousClock.now >= deadline { return .failure(.busy) }
      if !told {
        told = true
        configuration.onWaitingForWriter?()
      }
      try? await Task.sleep(for: .milliseconds(25))
    }
    do {
      // A writer never builds on a damaged manifest (issue 24): its pages are checked before anything is
      // written, at the cost of reading them once per write session.
      try await manifest.refuseIfDamaged()
      try await reconcileJournal()
      lastRecovery = try await recover(token: nil)
      let token = try await manifest.registerWriter()
      writerToken.withLock { $0 = token }
      return .success(())
    } catch {
      Syscalls.unlock(store.root.descriptor)
      return .failure(Error(anyFailure: error))
    }
  }

  /// The current write's token, which its intents and staging files carry.
  nonisolated var writerTokenOrUnowned: String { writerToken.current ?? "unowned" }

  /// A new staging name for one item of the current write (`<writer token>-<uuid>.part`).
  nonisolated func newStagingName() -> String {
    store.stagingName(token: writerTokenOrUnowned)
  }

  // MARK: Recovery

  /// Undoes what interrupted writes (a crash, a power cut, a killed process) recorded and did not finish.
  ///
  /// Each write is begun this way too, so calling it is only needed to clean up without writing. Costs are
  /// proportional to what was interrupted, never to the library's size.
  ///
  /// - Throws: ``Error/busy`` when another process keeps writing for longer than the wait.
  @discardableResult
  public func recoverInterruptedWork() async throws(Error) -> RecoveryReport {
    try await whileWriting { () throws(Error) in lastRecovery }
  }

  /// Undoes the recorded work of the writer `token`, or of every recorded writer (nil): their staging files
  /// and their intents. The caller holds the writer lock, so none of them is still running.
  private func recover(token: String?) async throws(Error) -> RecoveryReport {
    var report = RecoveryReport()
    do {
      var tokens: [String] = []
      if let token { tokens = [token] } else { tokens = try await manifest.recordedWriters() }
      for token in tokens {
        let swept = try store.sweepStaging(prefix: token + "-")
        report.removedStagingFiles += swept.removed
        report.kept += swept.kept
      }
      for intent in try await manifest.intents(token: token) {
        switch try await manifest.undo(intent, in: store) {
        case .removed?: intent.kind == .place ? (report.undoneObjects += 1) : (report.completedRemovals += 1)
        case .kept(let path)?: report.kept.append(path)
        case .absent?, nil: break
        }
      }
      // The staging files' removal must be durable before the records that let them be found go.
      if !tokens.isEmpty { try store.staging.sync() }
      try await manifest.forgetWriters(tokens)
    } catch {
      throw Error(anyFailure: error)
    }
    return report
  }

  // MARK: Committing

  /// Records a new batch (one import session).
  func beginBatch() async throws(Error) -> BatchRecord {
    do throws(DatabaseError) {
      return try await manifest.beginBatch()
    } catch {
      throw Error(error)
    }
  }
}
