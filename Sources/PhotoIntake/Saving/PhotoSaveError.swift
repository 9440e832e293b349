import Foundation

/// Why saving to the Photos library failed. Each case reads as a sentence a user can act on.
public enum PhotoSaveError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The user refused access (status `.denied`, or `PHPhotosError.accessUserDenied`, 3311).
  case accessDenied
  /// Access is restricted on this device (status `.restricted`, or `PHPhotosError.accessRestricted`, 3310).
  case accessRestricted
  /// The device is full (`PHPhotosError.notEnoughSpace`, 3305; Cocoa 640; ENOSPC).
  case notEnoughSpace
  /// Photos refused the files (`PHPhotosError.invalidResource`, 3302, or `changeNotSupported`, 3300).
  case invalidResource(reason: String)
  /// The system photo library is offline, moved or being switched (3114, 3142, 3143).
  case libraryUnavailable
  /// The request was cancelled (3072).
  case cancelled
  /// The file could not be prepared (missing in the app's library, location not removable…).
  case preparation(PreparedFile.Error)
  /// Anything else, with the system's own words.
  case failed(reason: String)

  public var description: String {
    switch self {
    case .accessDenied:
      "The app may not add to your photo library. You can allow it in Settings › Privacy & Security › Photos."
    case .accessRestricted:
      "Adding to the photo library is restricted on this device, for example by Screen Time."
    case .notEnoughSpace:
      "There is not enough space on the device to save to Photos. Free some space and try again."
    case .invalidResource(let reason):
      "Photos did not accept the file (\(reason)). It may be damaged or in a format Photos cannot store."
    case .libraryUnavailable:
      "The photo library is not available right now. Try again in a moment."
    case .cancelled:
      "Saving to Photos was cancelled; nothing was added."
    case .preparation(let error):
      error.description
    case .failed(let reason):
      "Saving to Photos failed: \(reason)"
    }
  }

  /// A short stable code for logs.
  public var code: String {
    switch self {
    case .accessDenied: "access-denied"
    case .accessRestricted: "access-restricted"
    case .notEnoughSpace: "not-enough-space"
    case .invalidResource: "invalid-resource"
    case .libraryUnavailable: "library-unavailable"
    case .cancelled: "cancelled"
    case .preparation: "preparation"
    case .failed: "failed"
    }
  }

  /// The error for a status that does not allow saving; nil when it does (`.authorized`, `.limited`).
  public init?(status: AuthorizationStatus) {
    switch status {
    case .authorized, .limited: return nil
    case .restricted: self = .accessRestricted
    case .denied, .notDetermined: self = .accessDenied
    }
  }

  /// Maps an error of `performChanges` (an `NSError` in `PHPhotosErrorDomain`, Cocoa or POSIX).
  public init(photoKitError error: any Error) {
    if let error = error as? PhotoSaveError {
      self = error
      return
    }
    let ns = error as NSError
    let reason = ns.localizedDescription
    switch (ns.domain, ns.code) {
    case ("PHPhotosErrorDomain", 3311): self = .accessDenied
    case ("PHPhotosErrorDomain", 3310): self = .accessRestricted
    case ("PHPhotosErrorDomain", 3305), ("NSCocoaErrorDomain", 640):
      self = .notEnoughSpace
    case ("NSPOSIXErrorDomain", let code) where code == Int(ENOSPC) || code == Int(EDQUOT):
      self = .notEnoughSpace
    case ("PHPhotosErrorDomain", 3302), ("PHPhotosErrorDomain", 3300), ("PHPhotosErrorDomain", 3303):
      self = .invalidResource(reason: reason)
    case ("PHPhotosErrorDomain", 3114), ("PHPhotosErrorDomain", 3142), ("PHPhotosErrorDomain", 3143):
      self = .libraryUnavailable
    case ("PHPhotosErrorDomain", 3072), ("NSCocoaErrorDomain", 3072):
      self = .cancelled
    default:
      self = .failed(reason: "\(reason) (\(ns.domain) \(ns.code))")
    }
  }
}
