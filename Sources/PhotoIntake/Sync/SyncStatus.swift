/// What ``LibrarySync`` is doing, for the app to show: one condition, and counts of what is waiting.
public struct SyncStatus: Sendable, Hashable, CustomStringConvertible {
  /// The state of syncing as a whole. Every failure CloudKit returns maps to one of these.
  public enum Condition: Sendable, Hashable {
    /// Syncing is off (not started, or turned off by the app).
    case off
    /// Everything known is synced, or waits only for the next pass.
    case idle
    /// A fetch or send is under way.
    case syncing
    /// No network (`networkUnavailable`, `networkFailure`, `serverResponseLost`): changes wait here, kept.
    case offline
    /// CloudKit asked to wait (`requestRateLimited`, `zoneBusy`, `serviceUnavailable`): nothing is sent before
    /// `retryAfter` has passed; changes wait here, kept.
    case waiting(retryAfter: Duration, reason: SyncError.Code)
    /// The user's iCloud storage is full (`quotaExceeded`): uploads stopped, everything kept here, downloads
    /// go on. Uploads resume with ``LibrarySync/resumeUploads()`` (after the user freed space) or at the next
    /// start.
    case quotaExceeded
    /// The user deleted the app's data from iCloud (`userDeletedZone`, a purged zone, `zoneNotFound` for a zone
    /// that existed): syncing stopped; every photo is kept here, and nothing is uploaded again until the app
    /// calls ``LibrarySync/uploadAgainAfterZoneDeletion()`` (ask the user first).
    case zoneDeleted
    /// No iCloud account is signed in (or it signed out): every photo is kept here; changes are recorded for the
    /// account that signs in next.
    case signedOut
    /// The account needs the user's attention in Settings (`accountTemporarilyUnavailable`).
    case accountUnavailable
    /// A failure no retry will fix without a change (a missing entitlement, a bad container, a refused
    /// request): the code says which.
    case failed(SyncError.Code)
  }

  /// The condition.
  public var condition: Condition = .off
  /// The account synced with (an opaque user record name), when one is signed in.
  public var account: String?
  /// Assets and batches waiting to be uploaded.
  public var pendingUploads = 0
  /// Removals waiting to be sent.
  public var pendingRemovals = 0
  /// Assets known from iCloud whose bytes are not here yet.
  public var pendingDownloads = 0
  /// Assets too large for a CloudKit record: kept on this device only.
  public var tooLarge = 0
  /// Downloads refused because their bytes did not hash to their record's name.
  public var refusedDownloads = 0
  /// The last failure CloudKit returned, if any.
  public var lastError: SyncError?

  /// A status with nothing waiting.
  public init(condition: Condition = .off) { self.condition = condition }

  public var description: String {
    var text = "\(condition)"
    if pendingUploads > 0 { text += ", \(pendingUploads) to upload" }
    if pendingRemovals > 0 { text += ", \(pendingRemovals) removals to send" }
    if pendingDownloads > 0 { text += ", \(pendingDownloads) to download" }
    if tooLarge > 0 { text += ", \(tooLarge) too large" }
    return text
  }
}

/// Where one asset stands with iCloud, for a per-photo badge.
public enum AssetSyncState: Sendable, Hashable {
  /// Only on this device, and why.
  case localOnly(LocalOnlyReason)
  /// Waiting to be uploaded, or being uploaded.
  case uploading
  /// In the user's iCloud.
  case synced
  /// Known from iCloud, bytes on their way.
  case downloading
  /// Removed on another device (and so here).
  case removedRemotely
  /// Changed here and on the server at once; merged, being saved again.
  case conflicted

  /// Why an asset is only on this device.
  public enum LocalOnlyReason: Sendable, Hashable {
    /// Syncing is off, or no account is signed in.
    case notSyncing
    /// It belongs to another iCloud account (it was imported or downloaded while that account was signed
    /// in): never uploaded into this one.
    case otherAccount
    /// Larger than a CloudKit record may carry.
    case tooLarge
    /// The user's iCloud storage is full; it uploads once there is room.
    case quotaExceeded
    /// The user deleted the app's data from iCloud; it uploads again only if the app asks.
    case zoneDeleted
  }
}
