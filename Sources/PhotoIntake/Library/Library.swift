import Foundation
import PhotoMetadata

/// The durable store of imported photos at a root folder, owner of its SQLite manifest.
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

    /// The default configuration: create the library where there is none, and wait for another writer as long
    /// as ``writerWait`` says.
    public init() {}
  }

  /// The library's root folder.
  public nonisolated let root: String
  /// The queue the library's database work runs on, off Swift's cooperative pool (see
  /// ``DispatchSerialExecutor``).
  private nonisolated let executor = DispatchSerialExecutor(label: "PhotoIntake.Library")
  public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
  let configuration: Configuration
  /// The writer's connection, used only on the actor.
  let database: Database
  /// The readers' connection, for the public queries (see ``DatabaseReader``).
  nonisolated let reader: DatabaseReader
  /// The library's folders, open for the library's lifetime: every file operation goes through them.
  nonisolated let rootDirectory: Directory
  nonisolated let objects: Directory
  nonisolated let staging: Directory
  nonisolated let renditions: Directory
  /// The 256 `objects/ab` folders, opened as first needed.
  private nonisolated let fanOut = Protected<[Substring: Directory]>([:])
  var observers: [UUID: AsyncStream<LibraryChange>.Continuation] = [:]
  /// Staged items waiting for their group commit.
  var commitQueue = CommitQueue()
  private var isClosed = false

  /// This library value's writer state: how many writes are under way and the token their staging names
  /// carry. Read from any thread by ``newStagingName()``.
  nonisolated let currentWriter = Protected<String?>(nil)
  private var writerCount = 0
  private var writerAcquisition: Task<Void, any Swift.Error>?
  /// What the last ``recoverInterruptedWork()`` (or the start of the last write) found and did.
  public private(set) var lastRecovery = RecoveryReport()

  nonisolated var objectsPath: String { root + "/objects" }
  /// Where renditions (caches) are kept.
  public nonisolated var renditionsPath: String { root + "/renditions" }

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

  static func openChecked(at root: String, configuration: Configuration, forRepair: Bool) throws(Error)
    -> Library
  {
    let root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    let create = configuration.createIfNeeded || forRepair
    let rootDirectory: Directory
    do {
      rootDirectory = try Directory(opening: root, create: create)
    } catch  where error.code == ENOENT {
      throw .notALibrary(root)
    } catch {
      throw .cannotOpen(reason: error.description)
    }
    let layout = try LibraryLayout.inspect(rootDirectory)
    if !forRepair {
      if layout.manifestKind != nil && layout.manifestKind != .regular {
        throw .damagedLayout("the manifest is \(layout.manifestKind!.phrase)")
      }
      if layout.manifestIsEmpty {
        if layout.holdsObjects { throw .manifestMissing }
        // A library whose creation was interrupted (its folders exist, nothing was stored) is an empty library,
        // not a stranger's folder: it is completed even when creating was not asked for.
        if !configuration.createIfNeeded && !layout.hasObjectsFolder { throw .notALibrary(root) }
      }
    }
    var folders: [Directory] = []
    do throws(SystemError) {
      for name in ["objects", "staging", "renditions"] {
        folders.append(try rootDirectory.subdirectory(name, create: true))
      }
    } catch  where error.code == ELOOP || error.code == ENOTDIR {
      throw .damagedLayout("\(error.path.map(Self.lastComponent) ?? "a library folder") is not a folder")
    } catch {
      throw .cannotOpen(reason: error.description)
    }
    do {
      let database = try Database.open(path: root + "/manifest.sqlite")
      try Schema.migrate(database)
      if let pages = configuration.maximumManifestPages {
        try database.execute("PRAGMA max_page_count=\(pages)")
      }
      let library = Library(
        root: root, configuration: configuration, database: database,
        reader: try DatabaseReader(path: root + "/manifest.sqlite"), rootDirectory: rootDirectory,
        objects: folders[0], staging: folders[1], renditions: folders[2])
      if layout.manifestIsEmpty { try library.makeFanOutFolders() }
      return library
    } catch let error as DatabaseError {
      if error.isNotADatabase { throw .manifestUnreadable(reason: error.description) }
      throw .database(reason: error.description)
    } catch let error as SystemError {
      throw .cannotOpen(reason: error.description)
    } catch {
      throw .cannotOpen(reason: "\(error)")
    }
  }

  private init(
    root: String, configuration: Configuration, database: Database, reader: DatabaseReader,
    rootDirectory: Directory, objects: Directory, staging: Directory, renditions: Directory
  ) {
    self.root = root
    self.configuration = configuration
    self.database = database
    self.reader = reader
    self.rootDirectory = rootDirectory
    self.objects = objects
    self.staging = staging
    self.renditions = renditions
  }

  deinit {
    for continuation in observers.values { continuation.finish() }
  }

  /// Ends this value's use of the library: change streams finish and the write-ahead log is folded into the
  /// manifest when no one else is using it. The library must not be used after this; the folder's descriptors
  /// are closed when the last reference goes away.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    for continuation in observers.values { continuation.finish() }
    observers = [:]
    try? database.execute("PRAGMA wal_checkpoint(PASSIVE)")
  }

  /// The path of an asset's bytes. The app may read it; it must never write to it.
  public nonisolated func objectPath(for digest: SHA256Digest) -> String {
    "\(objectsPath)/\(digest.hex.prefix(2))/\(digest.hex)"
  }

  /// The path of an asset's bytes.
  public nonisolated func objectPath(for asset: Asset) -> String { objectPath(for: asset.sha256) }

  /// Opens an asset's bytes for reading (the object is read-only; never write through another handle).
  ///
  /// The object is opened relative to the library's folders without following links and without blocking:
  /// a link, FIFO or folder where the object should be is damage, reported as ``Error/damagedObject(_:_:)``.
  ///
  /// - Throws: ``Error/notFound(_:)`` when the object file is gone (the asset is then damaged: see
  ///   ``verify(progress:)``), ``Error/io(reason:)`` for other failures.
  public nonisolated func openBytes(of asset: Asset) throws(Error) -> FileHandle {
    let descriptor = try openObject(asset.sha256, id: asset.id)
    return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }

  /// Opens the object with `digest` as a regular file; the caller closes the descriptor.
  nonisolated func openObject(_ digest: SHA256Digest, id: AssetID) throws(Error) -> Int32 {
    let opened: (descriptor: Int32, status: stat)?
    do throws(Directory.OpenFailure) {
      opened = try fanOutFolder(for: digest).openRegularFile(digest.hex)
    } catch {
      switch error {
      case .notRegular(let kind): throw .damagedObject(id, kind)
      case .system(let error): throw error.code == ENOENT ? .notFound(id) : Error(error)
      }
    }
    guard let opened else { throw .notFound(id) }
    return opened.descriptor
  }

  /// The `objects/ab` folder of `digest`, opened once without following links.
  nonisolated func fanOutFolder(for digest: SHA256Digest) throws(Directory.OpenFailure) -> Directory {
    let prefix = digest.hex.prefix(2)
    if let open = fanOut.withLock({ $0[prefix] }) { return open }
    do {
      let folder = try objects.subdirectory(String(prefix), create: true)
      return fanOut.withLock { opened in
        if let existing = opened[prefix] { return existing }
        opened[prefix] = folder
        return folder
      }
    } catch  where error.code == ELOOP || error.code == ENOTDIR {
      throw .notRegular(.symbolicLink)
    } catch {
      throw .system(error)
    }
  }

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

  func publish(_ change: LibraryChange) {
    for continuation in observers.values { continuation.yield(change) }
  }

  /// Runs a read on the readers' connection.
  nonisolated func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws(Error) -> T)
    async throws(Error)
    -> T
  {
    try await reader.read(body)
  }

  // MARK: Writing in turn

  /// Starts a write: takes the library's writer lock (waiting for another process's write if needed), undoes
  /// the recorded, unfinished work of earlier writers, and records this writer so that its own staging files
  /// can be found again after a crash. Writes of one library value nest; each must be ended with
  /// ``endWriting()``.
  func beginWriting() async throws(Error) {
    if writerCount > 0 {
      writerCount += 1
      return
    }
    if let pending = writerAcquisition {
      do {
        try await pending.value
      } catch {
        throw (error as? Error) ?? .busy
      }
      writerCount += 1
      return
    }
    let descriptor = rootDirectory.descriptor
    let path = root
    let wait = configuration.writerWait
    let onWait = configuration.onWaitingForWriter
    let task = Task<Void, any Swift.Error> {
      try await Self.lock(descriptor, path: path, wait: wait, onWait: onWait)
    }
    writerAcquisition = task
    do {
      try await task.value
    } catch {
      writerAcquisition = nil
      throw (error as? Error) ?? .busy
    }
    writerAcquisition = nil
    do {
      lastRecovery = try recover(token: nil)
      let token = try registerWriter()
      currentWriter.withLock { $0 = token }
    } catch {
      Syscalls.unlock(descriptor)
      throw error
    }
    writerCount += 1
  }

  /// Ends a write begun with ``beginWriting()``; the last one cleans up after itself and releases the lock.
  func endWriting() {
    guard writerCount > 0 else { return }
    writerCount -= 1
    guard writerCount == 0 else { return }
    if let token = currentWriter.withLock({ $0 }) {
      // Nothing of ours is in flight now: whatever this writer left (a failed cleanup) is undone like a
      // crashed writer's, and its record goes.
      _ = try? recover(token: token)
    }
    currentWriter.withLock { $0 = nil }
    Syscalls.unlock(rootDirectory.descriptor)
  }

  /// Takes the writer lock, polling while another open file description holds it.
  private static func lock(
    _ descriptor: Int32, path: String, wait: Duration, onWait: (@Sendable () -> Void)?
  ) async throws {
    let deadline = ContinuousClock.now + wait
    var told = false
    while true {
      do {
        if try Syscalls.tryLockExclusive(descriptor, path: path) { return }
      } catch {
        throw Error.cannotOpen(reason: error.description)
      }
      if ContinuousClock.now >= deadline { throw Error.busy }
      if !told {
        told = true
        onWait?()
      }
      try? await Task.sleep(for: .milliseconds(25))
    }
  }

  /// A new staging name for one item of the current write (`<writer token>-<uuid>.part`).
  nonisolated func newStagingName() -> String {
    let token = currentWriter.withLock { $0 } ?? "unowned"
    return "\(token)-\(UUID().uuidString.lowercased()).part"
  }

  /// A staging path for a file parked outside a write (a Live Photo's movie between two deliveries). Such
  /// files belong to no writer, so recovery never removes them; their owner does.
  nonisolated func newStagingPath() -> String {
    "\(staging.path)/parked-\(UUID().uuidString.lowercased()).part"
  }

  // MARK: Creating

  /// All 256 fan-out folders of a new library up front: a commit then rarely has to create (and fsync) one.
  private nonisolated func makeFanOutFolders() throws(SystemError) {
    let digits = Array("0123456789abcdef")
    var created = false
    for high in digits {
      for low in digits where try objects.status("\(high)\(low)") == nil {
        try Syscalls.makeDirectoryAt(
          objects.descriptor, "\(high)\(low)", path: objects.path(of: "\(high)\(low)"))
        created = true
      }
    }
    if created {
      try objects.sync()
      try rootDirectory.sync()
    }
  }

  private static func lastComponent(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }
}
