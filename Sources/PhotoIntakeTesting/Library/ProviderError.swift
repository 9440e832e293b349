import PhotoIntake

/// An error as PhotoKit and `NSItemProvider` report it: a domain and a code, like `NSError`, with the
/// underlying errors they wrap (`NSUnderlyingErrorKey`).
///
/// The simulator uses the real domains and codes, so the code that maps them
/// (`PhotoIntake.Importer.Error.init(providerErrorChain:reason:)`) is the code the Apple layer runs.
public struct ProviderError: Error, Sendable, Hashable, CustomStringConvertible {
  /// One domain and code.
  public struct Code: Sendable, Hashable {
    /// The error domain.
    public var domain: String
    /// The code in that domain.
    public var code: Int

    /// A domain and code.
    public init(domain: String, code: Int) {
      self.domain = domain
      self.code = code
    }
  }

  /// The error domain (`NSItemProviderErrorDomain`, `PHPhotosErrorDomain`…).
  public var domain: String
  /// The code in that domain.
  public var code: Int
  /// The error's own sentence (`localizedDescription`).
  public var reason: String
  /// The errors this one wraps, outermost first.
  public var underlying: [Code]

  /// An error with its domain, code and sentence, wrapping `underlying` errors.
  public init(domain: String, code: Int, reason: String, underlying: [Code] = []) {
    self.domain = domain
    self.code = code
    self.reason = reason
    self.underlying = underlying
  }

  /// This error and the ones it wraps, outermost first.
  public var chain: [(domain: String, code: Int)] {
    [(domain, code)] + underlying.map { ($0.domain, $0.code) }
  }

  /// The import error a user can act on.
  public var importError: Importer.Error { Importer.Error(providerErrorChain: chain, reason: reason) }

  public var description: String { "\(reason) (\(domain) \(code))" }

  // MARK: The errors the simulator produces

  typealias Domain = Importer.Error.ProviderDomain

  /// `PHPhotosError.networkAccessRequired` (3164).
  static let networkAccessRequired = ProviderError(
    domain: Domain.photos, code: 3164, reason: "The photo is in iCloud and network access is required")
  /// `PHPhotosError.networkError` (3169, iOS 16: "a network connection error") around the URL loading
  /// system's "not connected" (-1009): an iCloud download with network access allowed, on a device offline.
  static let networkError = ProviderError(
    domain: Domain.photos, code: 3169, reason: "The photo could not be downloaded because of a network error",
    underlying: [Code(domain: Domain.url, code: -1009)])
  /// iCloud Photos' "Failed to download CPLResourceTypeOriginal" (`CloudPhotoLibraryErrorDomain` 1006) around
  /// CloudKit's `notAuthenticated` (9), as apps log it when the Apple Account is signed out or needs its
  /// password again.
  static let iCloudNotAuthenticated = ProviderError(
    domain: Domain.cloudPhotoLibrary, code: 1006, reason: "Failed to download CPLResourceTypeOriginal",
    underlying: [Code(domain: Domain.cloudKit, code: 9)])
  /// iCloud refusing for now: `PHPhotosError.networkError` (3169) around iCloud Photos' 1000 around CloudKit's
  /// `serviceUnavailable` (6). The 3169 outside is the simulator's assumption: PhotoKit documents no wrapping.
  static let iCloudServiceUnavailable = ProviderError(
    domain: Domain.photos, code: 3169, reason: "The photo could not be downloaded from iCloud",
    underlying: [Code(domain: Domain.cloudPhotoLibrary, code: 1000), Code(domain: Domain.cloudKit, code: 6)])
  /// `PHPhotosError.notEnoughSpace` (3305).
  static let notEnoughSpace = ProviderError(
    domain: Domain.photos, code: 3305, reason: "There is not enough space on the device to download the photo"
  )
  /// `PHPhotosError.accessUserDenied` (3311).
  static let accessUserDenied = ProviderError(
    domain: Domain.photos, code: 3311, reason: "The user has not given access to this photo")
  /// `PHPhotosError.accessRestricted` (3310).
  static let accessRestricted = ProviderError(
    domain: Domain.photos, code: 3310, reason: "Access to photos is restricted on this device")
  /// `PHPhotosError.identifierNotFound` (3201).
  static let identifierNotFound = ProviderError(
    domain: Domain.photos, code: 3201, reason: "No photo has this identifier")
  /// `PHPhotosError.userCancelled` (3072).
  static let userCancelled = ProviderError(
    domain: Domain.photos, code: 3072, reason: "The request was cancelled")
  /// `NSItemProvider.ErrorCode.itemUnavailableError` (-1000).
  static func itemUnavailable(_ reason: String, underlying: [Code] = []) -> ProviderError {
    ProviderError(domain: Domain.itemProvider, code: -1000, reason: reason, underlying: underlying)
  }
  /// `NSItemProvider.ErrorCode.unavailableCoercionError` (-1200).
  static func coercionUnavailable(_ type: String) -> ProviderError {
    ProviderError(
      domain: Domain.itemProvider, code: -1200, reason: "The item cannot be provided as \(type)")
  }

  /// This PhotoKit error as an item provider reports it: "item unavailable" around the PhotoKit error.
  var wrappedByItemProvider: ProviderError {
    if domain == Domain.itemProvider { return self }
    if code == 3072 {
      return ProviderError(domain: Domain.cocoa, code: 3072, reason: reason)
    }
    return .itemUnavailable(reason, underlying: [Code(domain: domain, code: code)] + underlying)
  }
}
