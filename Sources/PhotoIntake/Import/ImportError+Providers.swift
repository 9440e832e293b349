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
    /// iCloud Photos' own errors, which PhotoKit passes on or wraps (`CloudPhotoLibraryErrorDomain`; no public
    /// header declares it or its codes).
    public static let cloudPhotoLibrary = "CloudPhotoLibraryErrorDomain"
    /// CloudKit errors (`CKErrorDomain`, codes of `CKError.Code`), found under iCloud Photos' errors.
    public static let cloudKit = "CKErrorDomain"
  }

  /// Maps an error from an item provider or from PhotoKit, given as its domain and code, to the import error a
  /// user can act on.
  ///
  /// The codes are those of `NSItemProvider.ErrorCode` (-1000 item unavailable, -1200 coercion unavailable),
  /// `PHPhotosError.Code` (3164 network access required, 3169 network error, 3072 user cancelled, 3305 not enough
  /// space, 3310/3311 access restricted/denied — 3311 is also what an add-only app gets when it tries to read),
  /// Cocoa's file errors (640 out of space, 3072 user cancelled), the URL loading system's offline codes, and
  /// the iCloud errors ``Importer/Error/iCloudUnavailable`` lists (CloudKit's `CKError.Code`, CKError.h;
  /// iCloud Photos' `CloudPhotoLibraryErrorDomain`, whose 1005 apps report on a device too full to download).
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
    // 3169 (network error, iOS 16), the URL loading system's "offline" codes (-1009 not connected, -1020
    // data not allowed, -1005 connection lost) and CloudKit's networkUnavailable (3) need the same action from
    // the user: connect, then try again. (3169 yields to an iCloud error under it: see the chain.)
    case (ProviderDomain.photos, 3164), (ProviderDomain.photos, 3169), (ProviderDomain.url, -1009),
      (ProviderDomain.url, -1020), (ProviderDomain.url, -1005), (ProviderDomain.cloudKit, 3):
      self = .networkRequired
    // CloudKit reached, refusing: networkFailure 4, serviceUnavailable 6, requestRateLimited 7,
    // notAuthenticated 9, managedAccountRestricted 32, accountTemporarilyUnavailable 36 (CKError.h).
    case (ProviderDomain.cloudKit, 4), (ProviderDomain.cloudKit, 6), (ProviderDomain.cloudKit, 7),
      (ProviderDomain.cloudKit, 9), (ProviderDomain.cloudKit, 32), (ProviderDomain.cloudKit, 36):
      self = .iCloudUnavailable
    // Field reports, not documentation: 1005 comes with a device too full to download the original.
    case (ProviderDomain.cloudPhotoLibrary, 1005):
      self = .diskFull
    case (ProviderDomain.cloudPhotoLibrary, _):
      self = .iCloudUnavailable
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
  ///
  /// Two rules between network and iCloud errors: a sign of being offline anywhere in the chain (3164, the URL
  /// offline codes, CloudKit's networkUnavailable) makes it ``networkRequired`` whatever iCloud said, since
  /// connecting comes first; otherwise PhotoKit's generic "network error" (3169) yields to the iCloud error it
  /// wraps (``iCloudUnavailable``, or ``diskFull`` for iCloud Photos' 1005), and stands for
  /// ``networkRequired`` only when nothing under it says more.
  public init(providerErrorChain chain: [(domain: String, code: Int)], reason: String) {
    func isGenericNetworkError(_ link: (domain: String, code: Int)) -> Bool {
      link.domain == ProviderDomain.photos && link.code == 3169
    }
    func isSpecific(_ error: Importer.Error) -> Bool {
      switch error {
      case .itemUnavailable, .sourceFailed: false
      default: true
      }
    }
    let mapped = chain.map { Importer.Error(providerDomain: $0.domain, code: $0.code, reason: reason) }
    let offline = zip(chain, mapped).contains { link, error in
      error == .networkRequired && !isGenericNetworkError(link)
    }
    let candidates = zip(chain, mapped).compactMap { link, error -> Importer.Error? in
      if offline { return error == .iCloudUnavailable ? .networkRequired : error }
      return isGenericNetworkError(link) ? nil : error
    }
    let specific = candidates.first(where: isSpecific) ?? mapped.first(where: isSpecific)
    self = specific ?? mapped.first ?? .sourceFailed(reason: reason)
  }
}
