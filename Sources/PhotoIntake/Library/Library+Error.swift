#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Library {
  /// Why a library operation failed. Each description is a sentence a user can act on; none names a command
  /// or a flag of a particular tool (the CLI adds those).
  public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder could not be created or read.
    case cannotOpen(reason: String)
    /// Nothing is at the path, or it holds no library, and creating one was not asked for.
    case notALibrary(String)
    /// Photos are stored, but the manifest that lists them is missing or empty. Nothing was changed: repairing
    /// the library rebuilds the manifest from the stored photos.
    case manifestMissing
    /// The manifest is not a readable SQLite database. Nothing was changed.
    case manifestUnreadable(reason: String)
    /// The manifest's bytes are damaged (SQLite finds it malformed, its header is inconsistent) or it lacks
    /// commits its identity journal records. Nothing was answered from it and nothing was changed: repairing
    /// the library rebuilds it from the stored photos and their identity records.
    case manifestDamaged(reason: String)
    /// One of the library's own folders or files is a symbolic link, a file where a folder belongs, or the
    /// like. Nothing was followed or changed.
    case damagedLayout(String)
    /// Another process is writing to the library and did not finish within the wait.
    case busy
    /// The manifest could not be read or written.
    case database(reason: String)
    /// No asset has this identifier.
    case notFound(AssetID)
    /// Where the asset's bytes belong there is something else (a link, a FIFO, a folder); it was left alone.
    case damagedObject(AssetID, FileKind)
    /// The asset's bytes no longer match what was imported (re-hashed while reading them).
    case alteredObject(AssetID)
    /// The asset's bytes, or their folder, could not be opened or read (permissions, an I/O error): nothing is
    /// known to be altered, and nothing was written.
    case unreadableObject(AssetID, reason: String)
    /// The device is full.
    case diskFull
    /// The library is on storage this process cannot write (read-only media, a folder or manifest without
    /// write permission), or was opened for reading only: it can be read, and nothing was changed.
    case readOnly
    /// A file operation failed.
    case io(reason: String)
    /// The export destination already exists; nothing was overwritten.
    case destinationExists(String)
    /// A compatible copy of the asset could not be made (a bomb, a damaged or unsupported picture); nothing
    /// was written.
    case cannotConvert(AssetID, ImagingError)
    /// No batch has this identifier.
    case batchNotFound(BatchID)
    /// A new order for a batch must hold each of its assets once, and nothing else.
    case notAReordering(BatchID)

    public var description: String {
      switch self {
      case .cannotOpen(let reason):
        "The library folder could not be opened (\(reason)). Check that the path is a writable folder."
      case .notALibrary:
        "No PhotoIntake library is at this path. Check the path, or import something to create a library there."
      case .manifestMissing:
        "Photos are stored in this library, but its manifest is missing or empty. Nothing was changed; "
          + "repair the library to rebuild the manifest from the stored photos."
      case .manifestUnreadable(let reason):
        "The library's manifest cannot be read (\(reason)). Nothing was changed; repairing the library "
          + "sets the unreadable manifest aside and rebuilds it from the stored photos."
      case .manifestDamaged(let reason):
        "The library's manifest is damaged (\(reason)). Nothing was read from it or changed; repairing the "
          + "library sets it aside and rebuilds it from the stored photos and their identity records."
      case .damagedLayout(let what):
        "The library is damaged: \(what). Nothing was followed or changed; repairing the library moves it "
          + "aside into lost+found."
      case .busy:
        "Another process kept writing to the library for longer than the wait allows. Try again when it has "
          + "finished."
      case .database(let reason):
        "The library's manifest could not be read or written (\(reason))."
      case .notFound(let id):
        "No asset with the identifier \(id) is in the library."
      case .damagedObject(_, let kind):
        "Where this asset's bytes belong there is \(kind.phrase); it was left alone. Verify or repair the "
          + "library."
      case .alteredObject:
        "This asset's stored bytes no longer match what was imported; nothing was written. Verify the library."
      case .unreadableObject(_, let reason):
        "This asset's stored bytes could not be read (\(reason)); they are not known to be altered, and nothing "
          + "was written. Check the permissions of the library folder and its disk, then try again."
      case .diskFull:
        "The disk holding the library is full. Free some space and try again; nothing was lost."
      case .readOnly:
        "The library cannot be changed here: it is on a read-only disk, in a folder this user cannot write, or "
          + "was opened for reading only. Nothing was changed; it can still be read. Make it writable and try again."
      case .io(let reason):
        "A storage error stopped the operation (\(reason))."
      case .destinationExists:
        "The destination already exists; nothing was overwritten. Choose another name or remove it first."
      case .cannotConvert(_, let error):
        "No compatible copy could be made, so nothing was written: \(error.description)"
      case .batchNotFound(let id):
        "No batch with the identifier \(id) is in the library."
      case .notAReordering:
        "The new order must list each photo of the batch exactly once; nothing was changed."
      }
    }

    init(_ error: DatabaseError) {
      if error.isDiskFull {
        self = .diskFull
      } else if error.isDamage {
        self = .manifestDamaged(reason: error.damageReason)
      } else if error.code == ExtendedCode.needsMigration {
        self = .cannotOpen(reason: error.message)
      } else if error.isReadOnly {
        self = .readOnly
      } else {
        self = .database(reason: error.description)
      }
    }

    /// Whether repairing the library is what mends this failure (the CLI then names `intake repair`).
    public var isMendedByRepair: Bool {
      switch self {
      // A link, FIFO or folder where an object belongs: repair moves it aside and marks the asset.
      case .manifestMissing, .manifestUnreadable, .manifestDamaged, .damagedLayout, .damagedObject: true
      default: false
      }
    }

    init(_ error: SystemError) {
      // EROFS only: one file without write permission (EACCES) is not a read-only library.
      self =
        error.isDiskFull ? .diskFull : error.code == EROFS ? .readOnly : .io(reason: error.description)
    }

    /// Any failure of the manifest or the file system, as the library reports it.
    init(anyFailure error: any Swift.Error) {
      switch error {
      case let error as Library.Error: self = error
      case let error as DatabaseError: self.init(error)
      case let error as SystemError: self.init(error)
      default: self = .io(reason: "\(error)")
      }
    }
  }
}
