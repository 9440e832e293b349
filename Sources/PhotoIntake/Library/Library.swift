import Foundation
import PhotoMetadata

/// The durable store of imported photos at a root folder, owner of its SQLite manifest.
///
/// ```
/// root/
///   manifest.sqlite     assets, batches, damage (WAL, synchronous=FULL)
///   objects/ab/<sha256> the bytes of each asset, exactly as received, named by content hash
///   staging/<uuid>.part items being received; swept when the library is opened
///   renditions/         downsampled caches, always re-creatable
/// ```
///
/// Opening a library takes an exclusive lock on `root/.lock` (another process gets ``Error/busy``), sweeps
/// `staging/`, deletes objects no row references, and marks rows whose object is missing as damaged.
///
/// ```swift
/// let library = try await Library.open(at: "/path/to/library")
/// let page = try await library.list(order: .batch, limit: 50)
/// ```
public actor Library {
  /// Options for opening a library.
  public struct Configuration: Sendable {
    /// Reconcile objects with the manifest when opening (O(n) directory listing). Turn off only for tools that
    /// open a library read-mostly and briefly.
    public var reconcileOnOpen = true
    /// Caps the manifest's size in pages (SQLite `max_page_count`); tests use it to simulate a full disk.
    package var maximumManifestPages: Int?

    public init() {}
  }

  /// The library's root folder.
  public nonisolated let root: String
  /// What opening the library repaired or found.
  public nonisolated let recovery: RecoveryReport

  let database: Database
  private let lockDescriptor: Int32
  var observers: [UUID: AsyncStream<LibraryChange>.Continuation] = [:]
  private var isClosed = false

  nonisolated var objectsPath: String { root + "/objects" }
  nonisolated var stagingPath: String { root + "/staging" }
  /// Where renditions (caches) are kept.
  public nonisolated var renditionsPath: String { root + "/renditions" }

  /// Opens the library at `root`, creating it if needed, and recovers from any interrupted import.
  ///
  /// - Throws: ``Library/Error``.
  public static func open(at root: String, configuration: Configuration = Configuration()) async throws(Error)
    -> Library
  {
    let root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    do {
      try makeDirectories(root)
    } catch {
      throw .cannotOpen(reason: error.description)
    }
    let lockDescriptor = try lock(root)
    do {
      let database = try Database.open(path: root + "/manifest.sqlite")
      try Schema.migrate(database)
      if let pages = configuration.maximumManifestPages {
        try database.execute("PRAGMA max_page_count=\(pages)")
      }
      let recovery = try recover(root: root, database: database, reconcile: configuration.reconcileOnOpen)
      return Library(root: root, database: database, lockDescriptor: lockDescriptor, recovery: recovery)
    } catch {
      Syscalls.close(lockDescriptor)
      switch error {
      case let error as DatabaseError: throw .database(reason: error.description)
      case let error as SystemError: throw .cannotOpen(reason: error.description)
      default: throw .cannotOpen(reason: "\(error)")
      }
    }
  }

  private init(root: String, database: Database, lockDescriptor: Int32, recovery: RecoveryReport) {
    self.root = root
    self.database = database
    self.lockDescriptor = lockDescriptor
    self.recovery = recovery
  }

  deinit {
    for continuation in observers.values { continuation.finish() }
    Syscalls.close(lockDescriptor)
  }

  /// Releases the lock so another process (or another `Library` value) may open the library.
  ///
  /// The library must not be used after this; it is also done when the last reference goes away.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    for continuation in observers.values { continuation.finish() }
    observers = [:]
    try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    _ = flock(lockDescriptor, LOCK_UN)
  }

  /// The path of an asset's bytes. The app may read it; it must never write to it.
  public nonisolated func objectPath(for digest: SHA256Digest) -> String {
    "\(objectsPath)/\(digest.hex.prefix(2))/\(digest.hex)"
  }

  /// The path of an asset's bytes.
  public nonisolated func objectPath(for asset: Asset) -> String { objectPath(for: asset.sha256) }

  /// Opens an asset's bytes for reading (the object is read-only; never write through another handle).
  ///
  /// - Throws: ``Error/notFound(_:)`` when the object file is gone (the asset is then damaged: see
  ///   ``verify(progress:)``), ``Error/io(reason:)`` for other failures.
  public nonisolated func openBytes(of asset: Asset) throws(Error) -> FileHandle {
    let path = objectPath(for: asset)
    do {
      let descriptor = try Syscalls.open(path, O_RDONLY | O_NOFOLLOW)
      return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    } catch  where error.code == ENOENT {
      throw .notFound(asset.id)
    } catch {
      throw Error(error)
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

  // MARK: Opening

  private static func makeDirectories(_ root: String) throws(SystemError) {
    try Syscalls.makeDirectory(root)
    for folder in ["objects", "staging", "renditions"] {
      try Syscalls.makeDirectory(root + "/" + folder)
    }
    // All 256 fan-out folders up front: a commit then never has to create (and fsync) a folder.
    let digits = Array("0123456789abcdef")
    var created = false
    for high in digits {
      for low in digits {
        let path = "\(root)/objects/\(high)\(low)"
        if (try? Syscalls.lstat(path)) == nil {
          try Syscalls.makeDirectory(path)
          created = true
        }
      }
    }
    if created {
      try Syscalls.fsyncDirectory(root + "/objects")
      try Syscalls.fsyncDirectory(root)
    }
  }

  private static func lock(_ root: String) throws(Error) -> Int32 {
    let descriptor: Int32
    do {
      descriptor = try Syscalls.open(root + "/.lock", O_RDWR | O_CREAT, mode: 0o644)
    } catch {
      throw .cannotOpen(reason: error.description)
    }
    if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      Syscalls.close(descriptor)
      throw .busy
    }
    return descriptor
  }
}

extension Library {
  /// Why a library operation failed.
  public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder could not be created or read.
    case cannotOpen(reason: String)
    /// Another process has the library open.
    case busy
    /// The manifest could not be read or written.
    case database(reason: String)
    /// No asset has this identifier.
    case notFound(AssetID)
    /// The device is full.
    case diskFull
    /// A file operation failed.
    case io(reason: String)
    /// The export destination already exists; nothing was overwritten.
    case destinationExists(String)

    public var description: String {
      switch self {
      case .cannotOpen(let reason):
        "The library folder could not be opened (\(reason)). Check that the path is a writable folder."
      case .busy:
        "The library is in use by another process. Wait for it to finish, or use another --library folder."
      case .database(let reason):
        "The library's manifest could not be read or written (\(reason))."
      case .notFound(let id):
        "No asset with the identifier \(id) is in the library. Run 'intake list' to see the identifiers."
      case .diskFull:
        "The disk holding the library is full. Free some space and try again; nothing was lost."
      case .io(let reason):
        "A storage error stopped the operation (\(reason))."
      case .destinationExists:
        "The destination already exists; nothing was overwritten. Choose another name or remove it first."
      }
    }

    init(_ error: DatabaseError) {
      self = error.isDiskFull ? .diskFull : .database(reason: error.description)
    }

    init(_ error: SystemError) {
      self = error.isDiskFull ? .diskFull : .io(reason: error.description)
    }
  }
}
