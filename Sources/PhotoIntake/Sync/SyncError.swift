import Foundation

/// A failure reported by CloudKit, in portable form: `CKError`'s code (same raw values), the wait the server
/// asked for, and for a conflict the server's version of the record.
public struct SyncError: Swift.Error, Sendable, Hashable, CustomStringConvertible {
  /// `CKError.Code`, with the same raw values (CKError.h).
  public enum Code: Int, Sendable, Hashable, CaseIterable {
    /// CloudKit failed for a reason of its own: the sync stops with a failed status.
    case internalError = 1
    /// Some items of a request failed; each has its own error.
    case partialFailure = 2
    /// No network: the status says offline and every change stays pending.
    case networkUnavailable = 3
    /// The network failed during the request: as ``networkUnavailable``.
    case networkFailure = 4
    /// The container is unknown or not set up for this app (an entitlement or identifier mistake): the sync
    /// stops with a failed status.
    case badContainer = 5
    /// CloudKit is unavailable for now: nothing is sent before the wait it asks for.
    case serviceUnavailable = 6
    /// Too many requests: nothing is sent before the wait CloudKit asks for.
    case requestRateLimited = 7
    /// The app lacks the CloudKit entitlement: the sync stops with a failed status.
    case missingEntitlement = 8
    /// No iCloud account is signed in: the status says signed out.
    case notAuthenticated = 9
    /// The account may not read or write this data: the sync stops with a failed status.
    case permissionFailure = 10
    /// The record does not exist on the server: a record deleted there since this device saw it is saved again.
    case unknownItem = 11
    /// The request was malformed: the sync stops with a failed status.
    case invalidArguments = 12
    /// The record changed on the server since it was fetched: a conflict, merged with ``SyncError/serverRecord``.
    case serverRecordChanged = 14
    /// The server refused the request: the sync stops with a failed status.
    case serverRejectedRequest = 15
    /// An asset's file was gone before it was uploaded.
    case assetFileNotFound = 16
    /// An asset's file changed while it was uploaded.
    case assetFileModified = 17
    /// The app's version may not use this container: the sync stops with a failed status.
    case incompatibleVersion = 18
    /// A unique-field constraint of the schema was violated.
    case constraintViolation = 19
    /// The request was cancelled.
    case operationCancelled = 20
    /// The change token is too old: everything is fetched again.
    case changeTokenExpired = 21
    /// An atomic batch failed because another of its records did: this one is sent again.
    case batchRequestFailed = 22
    /// The zone is busy: nothing is sent before the wait CloudKit asks for.
    case zoneBusy = 23
    /// The request was sent to the wrong database: the sync stops with a failed status.
    case badDatabase = 24
    /// The user's iCloud storage is full: uploads stop, nothing is lost, and the app is told.
    case quotaExceeded = 25
    /// The zone does not exist: created when this account never had it, treated as ``userDeletedZone`` when it did.
    case zoneNotFound = 26
    /// The request was too large: sent again with fewer records; an asset too large alone stays on this device.
    case limitExceeded = 27
    /// The user deleted the app's data from iCloud: syncing stops until the app turns it on again.
    case userDeletedZone = 28
    /// The server's answer was lost: as ``networkUnavailable``.
    case serverResponseLost = 34
    /// An asset's bytes cannot be downloaded now.
    case assetNotAvailable = 35
    /// The account is signed in but not ready yet: the status says so and every change stays pending.
    case accountTemporarilyUnavailable = 36
  }

  /// What failed.
  public var code: Code
  /// How long the server asked to wait before trying again (`CKErrorRetryAfterKey`), when it did.
  public var retryAfter: Duration?
  /// For ``Code/serverRecordChanged``: the server's version of the record (`CKRecordChangedErrorServerRecordKey`).
  public var serverRecord: SyncRecord?

  /// A failure with `code`, the server's requested wait and, for a conflict, its record.
  public init(_ code: Code, retryAfter: Duration? = nil, serverRecord: SyncRecord? = nil) {
    self.code = code
    self.retryAfter = retryAfter
    self.serverRecord = serverRecord
  }

  /// Whether CloudKit says the same request may succeed later without any change (the network, a busy or
  /// unavailable service, a rate limit): the change stays pending.
  public var isTransient: Bool {
    switch code {
    case .networkUnavailable, .networkFailure, .serviceUnavailable, .requestRateLimited, .zoneBusy,
      .serverResponseLost, .operationCancelled, .notAuthenticated, .accountTemporarilyUnavailable:
      true
    default: false
    }
  }

  public var description: String {
    let wait = retryAfter.map { " (retry after \($0))" } ?? ""
    return "CloudKit error \(code.rawValue) (\(code))\(wait)"
  }
}
