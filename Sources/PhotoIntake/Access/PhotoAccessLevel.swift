/// How much of the photo library an app can reach, from least to most.
///
/// Mirrors PhotoKit's `PHAccessLevel` (`.addOnly`, `.readWrite`) with one more level below them: ``none``,
/// which is what the system photo picker needs. Ordered, so that the least access for several features is
/// their maximum.
public enum PhotoAccessLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
  /// No library access at all: the system picker runs out of process and hands over only what the user picks.
  case none
  /// Add-only: the app may save new photos and videos but can read nothing back.
  case addOnly
  /// Read-write: the app may read the library (the whole of it, or the user's limited selection) and change it.
  case readWrite

  public static func < (lhs: PhotoAccessLevel, rhs: PhotoAccessLevel) -> Bool {
    lhs.rank < rhs.rank
  }

  private var rank: Int {
    switch self {
    case .none: 0
    case .addOnly: 1
    case .readWrite: 2
    }
  }
}

/// The answer the system gives for one access level, mirroring PhotoKit's `PHAuthorizationStatus`.
///
/// `.limited` is a grant: the app may read the photos the user selected. Treating it as a refusal is one of the
/// classic mistakes this package exists to prevent (see ``AccessStateMachine``).
public enum AuthorizationStatus: String, Sendable, Hashable, Codable, CaseIterable {
  /// The user has not been asked yet.
  case notDetermined
  /// Parental controls or a configuration profile forbid access; the user cannot change it.
  case restricted
  /// The user refused access; only Settings can change it.
  case denied
  /// The user allowed access to all photos.
  case authorized
  /// The user allowed access to the photos they selected (read-write level only).
  case limited

  /// Whether the app may use the level this status was given for (`.authorized` or `.limited`).
  public var isGranted: Bool { self == .authorized || self == .limited }
}
