import Foundation

/// A failure reported by CloudKit, in portable form: `CKError`'s code (same raw values), the wait the server
/// asked for, and for a conflict the server's version of the record.
public struct SyncError: Swift.Error, Sendable, Hashable, CustomStringConvertible {
  /// `CKError.Code`, with the same raw values (CKError.h).
  public enum Code: Int, Sendable, Hashable, CaseIterable {
    case internalError = 1
    case partialFailure = 2
    case networkUnavailable = 3
    case networkFailure = 4
    case badContainer = 5
    case serviceUnavailable = 6
    case requestRateLimited = 7
    case missingEntitlement = 8
    case notAuthenticated = 9
    case permissionFailure = 10
    case unknownItem = 11
    case invalidArguments = 12
    case serverRecordChanged = 14
    case serverRejectedRequest = 15
    case assetFileNotFound = 16
    case assetFileModified = 17
    case incompatibleVersion = 18
    case constraintViolation = 19
    case operationCancelled = 20
    case changeTokenExpired = 21
    case batchRequestFailed = 22
    case zoneBusy = 23
    case badDatabase = 24
    case quotaExceeded = 25
    case zoneNotFound = 26
    case limitExceeded = 27
    case userDeletedZone = 28
    case serverResponseLost = 34
    case assetNotAvailable = 35
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
