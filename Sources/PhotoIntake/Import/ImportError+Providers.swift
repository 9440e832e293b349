import Foundation

extension Importer.Error {
  /// Error domains the Apple layer and the simulator report, as `NSError.domain` spells them.
  public enum ProviderDomain {
    /// `NSItemProvider` errors (`NSItemProviderErrorDomain`).
    public static let itemProvider = "NSItemProviderErrorDomain"
    /// PhotoKit errors (`PHPhotosErrorDomain`).
    public static let photos = "PHPhotosErrorDomain"
    /// Foundation file errors (`NSCocoaErrorDomain`).
    public static let cocoa = "NSCocoaErrorDomain"
    /// System call errors (`NSPOSIXErrorDomain`), whose codes are `errno` values.
    public static let posix = "NSPOSIXErrorDomain"
    /// Networking errors (`NSURLErrorDomain`).
    public static let url = "NSURLErrorDomain"
  }

  /// Maps an error from an item provider or from PhotoKit, given as its domain and code, to the import error a
  /// user can act on.
  ///
  /// The codes are those of `NSItemProvider.ErrorCode` (-1000 item unavailable, -1200 coercion unavailable),
  /// `PHPhotosError.Code` (3164 network access required, 3169 network error, 3072 user cancelled, 3305 not enough
  /// space, 3310/3311 access restricted/denied — 3311 is also what an add-only app gets when it tries to read),
  /// Cocoa's file errors (640 out of space, 3072 user cancelled) and the URL loading system's offline codes.
  ///
  /// - Parameters:
  ///   - domain: `NSError.domain`.
  ///   - code: `NSError.code`.
  ///   - reason: the error's own description, kept for the cases that carry one.
  public init(providerDomain domain: String, code: Int, reason: String) {
    switch (domain, code) {
    case (ProviderDomain.itemProvider, -1000):
      self = .itemUnavailable(reason: reason)
    case (ProviderDomain.itemProvider, -1200), (ProviderDomain.itemProvider, -1100):
      self = .conversionFailed(reason: reason)
    // 3169 (network error, iOS 16) and the URL loading system's "offline" codes (-1009 not connected, -1020
    // data not allowed, -1005 connection lost) need the same action from the user: connect, then try again.
    case (ProviderDomain.photos, 3164), (ProviderDomain.photos, 3169), (ProviderDomain.url, -1009),
      (ProviderDomain.url, -1020), (ProviderDomain.url, -1005):
      self = .networkRequired
    case (ProviderDomain.photos, 3072), (ProviderDomain.cocoa, 3072):
      self = .cancelled
    case (ProviderDomain.photos, 3305), (ProviderDomain.cocoa, 640):
      self = .diskFull
    case (ProviderDomain.photos, 3310), (ProviderDomain.photos, 3311):
      self = .photoLibraryAccessDenied
    // 3201 identifier not found, 3303 missing resource; 3114, 3142, 3143: the system photo library is
    // offline, moved or switched (PHError.h).
    case (ProviderDomain.photos, 3201), (ProviderDomain.photos, 3303), (ProviderDomain.photos, 3114),
      (ProviderDomain.photos, 3142), (ProviderDomain.photos, 3143):
      self = .itemUnavailable(reason: reason)
    case (ProviderDomain.posix, let errno) where errno == Int(ENOSPC) || errno == Int(EDQUOT):
      self = .diskFull
    case (ProviderDomain.posix, let errno) where errno == Int(ENOENT):
      self = .sourceVanished
    default:
      self = .sourceFailed(reason: "\(reason) (\(domain) \(code))")
    }
  }

  /// Maps an error and its underlying errors (`NSUnderlyingErrorKey`, outermost first) to the most specific
  /// import error: an item provider often reports "item unavailable" (-1000) around the PhotoKit error that
  /// says why (3164, network access required).
  public init(providerErrorChain chain: [(domain: String, code: Int)], reason: String) {
    let mapped = chain.map { Importer.Error(providerDomain: $0.domain, code: $0.code, reason: reason) }
    let specific = mapped.first { error in
      switch error {
      case .itemUnavailable, .sourceFailed: false
      default: true
      }
    }
    self = specific ?? mapped.first ?? .sourceFailed(reason: reason)
  }
}
