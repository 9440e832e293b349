import PhotoMetadata

#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Importer {
  /// Why one item could not be imported. Each case reads as a sentence a user can act on.
  ///
  /// The batch goes on after any of these; nothing already imported is affected.
  public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    /// The item has no bytes.
    case emptyFile
    /// The bytes are not a photo or movie format PhotoIntake supports (the name or type hint is ignored).
    case unsupportedContent(hint: String?)
    /// The item is larger than ``Importer/Configuration/maximumFileSize``.
    case tooLarge(limit: Int64)
    /// The image declares more pixels than ``Importer/Configuration/maximumPixelCount``.
    case tooManyPixels(declared: Int, limit: Int)
    /// The source changed (size or modification time) while it was being copied.
    case sourceChanged
    /// The source disappeared before or while it was copied.
    case sourceVanished
    /// The source or the library could not be read or written for lack of permission.
    case permissionDenied
    /// The Photos library refused to hand over the item: access is denied or restricted, the item left a
    /// limited selection, or the app only has add-only access (PHPhotosError 3310/3311).
    case photoLibraryAccessDenied
    /// The device holding the library is full (ENOSPC, EDQUOT or SQLITE_FULL).
    case diskFull
    /// A read, write or flush failed. A failed fsync is final: it is never retried.
    case ioError(operation: String, code: Int32)
    /// The source is not a regular file (a symbolic link, FIFO, device, socket or folder).
    case notRegularFile(FileKind)
    /// The photo is only in iCloud and could not be downloaded because the network was not there for it: the
    /// device is offline, or the download was not allowed. Connecting (and allowing the download) fixes it.
    ///
    /// On Apple platforms: `PHPhotosError.networkAccessRequired` (3164, "set networkAccessAllowed"),
    /// `PHPhotosError.networkError` (3169, "a network connection error") when nothing under it names iCloud, the
    /// URL loading system's offline codes (-1009 not connected, -1020 data not allowed, -1005 connection lost) and
    /// CloudKit's `networkUnavailable` (3), anywhere in the chain of underlying errors. Being offline wins over
    /// any iCloud error in the same chain: connecting is the first thing to do either way.
    case networkRequired
    /// iCloud itself could not provide the photo although the download was allowed and the network reachable:
    /// the device's Apple Account is signed out or needs its password again, iCloud Photos is off or refuses
    /// requests for now. Waiting or checking iCloud in Settings fixes it; connecting does not.
    ///
    /// On Apple platforms PhotoKit reports these as an error of `CloudPhotoLibraryErrorDomain` (iCloud Photos'
    /// own domain, undocumented) wrapping CloudKit's reason, alone or under `PHPhotosError.networkError` (3169) or
    /// `NSItemProvider`'s -1000. Apps in the field log "Failed to download CPLResourceTypeOriginal" as
    /// `CloudPhotoLibraryErrorDomain` 1006 around `CKErrorDomain` 9 (`notAuthenticated`), and 1000 around
    /// `CKErrorDomain` 7 (`requestRateLimited`, after an authentication failure). So any
    /// `CloudPhotoLibraryErrorDomain` error, and CloudKit's `networkFailure` (4, "network available but CloudKit
    /// inaccessible"), `serviceUnavailable` (6), `requestRateLimited` (7), `notAuthenticated` (9),
    /// `managedAccountRestricted` (32) and `accountTemporarilyUnavailable` (36) map here — except
    /// `CloudPhotoLibraryErrorDomain` 1005, which apps report when the device is too full to download the
    /// original, and which maps to ``diskFull``.
    case iCloudUnavailable
    /// The provider could not produce the item (NSItemProvider error -1000, or the asset is gone).
    case itemUnavailable(reason: String)
    /// The Photos asset was deleted (or lost the file asked for) between the app's fetch and the import
    /// (PHPhotosError 3201 or 3303 while reading its resources).
    case assetDeleted
    /// The provider could not convert the item to a type we asked for (NSItemProvider error -1200).
    case conversionFailed(reason: String)
    /// Location stripping was asked for and is not possible for this file without re-encoding it (or the file's
    /// metadata is too damaged to rewrite safely); the item was not imported with its location.
    case metadata(MetadataError)
    /// The library's manifest could not be updated.
    case database(reason: String)
    /// The import was cancelled before this item was committed; nothing of it was kept.
    case cancelled
    /// The source failed in a way PhotoIntake does not know; `reason` is the source's own sentence.
    case sourceFailed(reason: String)
    /// Another process kept writing to the library for longer than the wait; nothing of this batch was stored.
    case libraryBusy
    /// The library cannot be written here (read-only media, a folder without write permission, a library opened
    /// for reading only); nothing was imported.
    case libraryReadOnly
    /// Part of the library is not what it should be (a link or a file where a folder belongs); nothing was
    /// followed or changed.
    case libraryDamaged(reason: String)
    /// An earlier item hit a full disk, so this one was not attempted.
    case notAttempted
    /// A folder nested deeper than the walk enters (a loop made with bind mounts, or an attack); its contents
    /// were not imported.
    case folderTooDeep(limit: Int)

    public var description: String {
      switch self {
      case .emptyFile:
        "The file is empty (0 bytes). Pick the photo again; if it is in iCloud, let it finish downloading."
      case .unsupportedContent(let hint):
        "The content is not a supported photo or movie format"
          + (hint.map { " (whatever its name says: \($0))" } ?? "")
          + ". Supported: JPEG, HEIC/HEIF, AVIF, PNG, GIF, WebP, TIFF, DNG and raw, MOV, MP4."
      case .tooLarge(let limit):
        "The file is larger than the \(Self.bytes(limit)) limit. Raise the limit or import it another way."
      case .tooManyPixels(let declared, let limit):
        "The image declares \(declared / 1_000_000) megapixels, more than the \(limit / 1_000_000) MP limit; "
          + "it was refused so that decoding it cannot exhaust memory."
      case .sourceChanged:
        "The file changed while it was being copied. Wait until the program writing it has finished, then import again."
      case .sourceVanished:
        "The file disappeared before it could be copied. Check that it still exists and import it again."
      case .permissionDenied:
        "Permission was denied reading the file or writing the library. Check the file's and the library folder's permissions."
      case .photoLibraryAccessDenied:
        "The Photos library did not allow reading this item (access is denied, limited to other photos, or "
          + "add-only). Pick it with the photo picker, which needs no permission, or allow access in Settings."
      case .diskFull:
        "The disk holding the library is full. Free some space and import again; nothing was lost."
      case .ioError(let operation, let code):
        "A storage error stopped the copy (\(operation): \(String(cString: strerror(code)))). "
          + "The item was not kept; check the disk and import it again."
      case .notRegularFile(let kind):
        "This is \(kind.phrase), not a regular file; it was not followed or read. Import the file itself."
      case .networkRequired:
        "The photo is in iCloud and the device is offline (or downloading it was not allowed). Connect to the "
          + "network and import it again."
      case .iCloudUnavailable:
        "The photo is in iCloud, and iCloud could not provide it although the network is reachable. Check that "
          + "you are signed in to iCloud with iCloud Photos on (in Settings), or wait a while, then import it again."
      case .itemUnavailable(let reason):
        "The item could not be loaded (\(reason)). It may have been deleted or is not available on this device."
      case .assetDeleted:
        "The photo was deleted from the Photos library before it could be imported. Nothing of it was kept; "
          + "pick another photo."
      case .conversionFailed(let reason):
        "The item could not be provided in a supported format (\(reason)). Try picking it again."
      case .metadata(let error):
        "The location could not be removed, so the item was not imported: \(error.description)"
      case .database(let reason):
        "The library's manifest could not be updated (\(reason)). Verify the library; nothing acknowledged was lost."
      case .cancelled:
        "The import was cancelled before this item was saved; nothing of it was kept."
      case .libraryBusy:
        "Another process kept writing to the library for longer than the wait allows; nothing of this item "
          + "was stored. Try again when it has finished."
      case .libraryReadOnly:
        "The library cannot be changed here: it is on a read-only disk, in a folder this user cannot write, or "
          + "was opened for reading only. Nothing was imported; make it writable and import again."
      case .libraryDamaged(let reason):
        "The library is damaged (\(reason)); nothing was followed or changed. Repair the library, then import "
          + "again."
      case .notAttempted:
        "Not attempted: the disk filled up earlier in this import. Free some space and import again."
      case .folderTooDeep(let limit):
        "This folder is nested more than \(limit) levels deep, so its contents were not imported. Import it "
          + "directly if it is meant to be."
      case .sourceFailed(let reason):
        "The item could not be read: \(reason)"
      }
    }

    /// A short stable code for JSON output and logs.
    public var code: String {
      switch self {
      case .emptyFile: "empty-file"
      case .unsupportedContent: "unsupported-content"
      case .tooLarge: "too-large"
      case .tooManyPixels: "too-many-pixels"
      case .sourceChanged: "source-changed"
      case .sourceVanished: "source-vanished"
      case .permissionDenied: "permission-denied"
      case .photoLibraryAccessDenied: "photo-access-denied"
      case .diskFull: "disk-full"
      case .ioError: "io-error"
      case .notRegularFile: "not-regular-file"
      case .networkRequired: "network-required"
      case .iCloudUnavailable: "icloud-unavailable"
      case .itemUnavailable: "item-unavailable"
      case .assetDeleted: "asset-deleted"
      case .conversionFailed: "conversion-failed"
      case .metadata: "metadata"
      case .database: "database"
      case .cancelled: "cancelled"
      case .sourceFailed: "source-failed"
      case .libraryBusy: "library-busy"
      case .libraryReadOnly: "library-read-only"
      case .libraryDamaged: "library-damaged"
      case .notAttempted: "not-attempted"
      case .folderTooDeep: "folder-too-deep"
      }
    }

    /// The failure to begin writing to the library (or to record the batch), as every item of the batch
    /// reports it.
    init(writing error: Library.Error) {
      switch error {
      case .busy: self = .libraryBusy
      case .diskFull: self = .diskFull
      case .readOnly: self = .libraryReadOnly
      case .damagedLayout(let what): self = .libraryDamaged(reason: what)
      case .database(let reason): self = .database(reason: reason)
      default: self = .database(reason: error.description)
      }
    }

    /// The failure of one item's commit (``Library`` commits in groups; each item keeps its own error).
    init(commitFailure failure: CommitFailure) {
      switch failure {
      case .manifest(let error):
        self =
          error.isDiskFull
          ? .diskFull : error.isReadOnly ? .libraryReadOnly : .database(reason: error.description)
      case .storage(let error): self.init(libraryFailure: error)
      case .damagedLayout(let what): self = .libraryDamaged(reason: what)
      }
    }

    /// Maps a failed system call on the library side (staging, objects) to an import error.

    package init(libraryFailure error: SystemError) {
      if error.isDiskFull {
        self = .diskFull
      } else if error.code == EACCES || error.code == EPERM || error.code == EROFS {
        self = .permissionDenied
      } else {
        self = .ioError(operation: error.operation.rawValue, code: error.code)
      }
    }

    /// Maps a failed system call on the source side to an import error.
    init(sourceFailure error: SystemError) {
      switch error.code {
      case ENOENT, ENOTDIR: self = .sourceVanished
      case EACCES, EPERM: self = .permissionDenied
      case ELOOP: self = .notRegularFile(.symbolicLink)
      case EISDIR: self = .notRegularFile(.directory)
      default: self = .ioError(operation: error.operation.rawValue, code: error.code)
      }
    }

    private static func bytes(_ count: Int64) -> String {
      if count >= 1 << 30, count % (1 << 30) == 0 { return "\(count >> 30) GiB" }
      if count >= 1 << 20 { return "\(count >> 20) MiB" }
      return "\(count) byte"
    }
  }
}
