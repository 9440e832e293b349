extension AuthorizationStatus {
  /// The status for a system value: `PHAuthorizationStatus.rawValue` or `AVAuthorizationStatus.rawValue`, which
  /// number the shared cases alike (0 not determined, 1 restricted, 2 denied, 3 authorized; 4 limited exists for
  /// photos only). nil for a value this version does not know; the Apple layer treats that as ``denied``,
  /// which shows an explanation and a Settings link rather than content it may not read.
  public init?(systemRawValue: Int) {
    switch systemRawValue {
    case 0: self = .notDetermined
    case 1: self = .restricted
    case 2: self = .denied
    case 3: self = .authorized
    case 4: self = .limited
    default: return nil
    }
  }
}

extension PhotoAccessLevel {
  /// `PHAccessLevel.rawValue` (1 add-only, 2 read-write); nil for ``none``, which asks for nothing.
  public var photoKitRawValue: Int? {
    switch self {
    case .none: nil
    case .addOnly: 1
    case .readWrite: 2
    }
  }
}
