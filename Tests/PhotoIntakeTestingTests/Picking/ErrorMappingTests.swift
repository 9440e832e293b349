import Foundation
import PhotoIntake
import Testing

struct ErrorMappingTests {
  static func chain(_ codes: [(String, Int)]) -> NSError {
    var error: NSError?
    for (domain, code) in codes.reversed() {
      error = NSError(
        domain: domain, code: code, userInfo: error.map { [NSUnderlyingErrorKey: $0] } ?? [:])
    }
    return error!
  }

  @Test(arguments: [
    ([("NSItemProviderErrorDomain", -1000)], "item-unavailable"),
    ([("NSItemProviderErrorDomain", -1200)], "conversion-failed"),
    ([("NSItemProviderErrorDomain", -1000), ("PHPhotosErrorDomain", 3164)], "network-required"),
    ([("NSItemProviderErrorDomain", -1000), ("PHPhotosErrorDomain", 3169)], "network-required"),
    ([("NSItemProviderErrorDomain", -1000), ("NSURLErrorDomain", -1009)], "network-required"),
    ([("PHPhotosErrorDomain", 3311)], "photo-access-denied"),
    ([("PHPhotosErrorDomain", 3310)], "photo-access-denied"),
    ([("PHPhotosErrorDomain", 3305)], "disk-full"),
    ([("NSCocoaErrorDomain", 640)], "disk-full"),
    ([("NSItemProviderErrorDomain", -1000), ("NSPOSIXErrorDomain", 28)], "disk-full"),
    ([("NSCocoaErrorDomain", 3072)], "cancelled"),
    ([("PHPhotosErrorDomain", 3072)], "cancelled"),
    ([("PHPhotosErrorDomain", 3143)], "item-unavailable"),
    ([("SomeOtherDomain", 7)], "source-failed"),
  ])
  func nsErrorChainsMapToTheMostSpecificImportError(_ codes: [(String, Int)], _ expected: String) {
    #expect(Importer.Error(providerError: Self.chain(codes)).code == expected)
  }

  /// iCloud against the network: which of the two a chain means (see `Importer.Error.iCloudUnavailable`).
  static let iCloudChains: [(chain: [(String, Int)], code: String)] = [
    // iCloud itself: iCloud Photos' errors around CloudKit's reason, alone or under 3169 or -1000.
    ([("CloudPhotoLibraryErrorDomain", 1006), ("CKErrorDomain", 9)], "icloud-unavailable"),
    ([("CloudPhotoLibraryErrorDomain", 1000), ("CKErrorDomain", 7)], "icloud-unavailable"),
    (
      [
        ("NSItemProviderErrorDomain", -1000), ("PHPhotosErrorDomain", 3169),
        ("CloudPhotoLibraryErrorDomain", 1006), ("CKErrorDomain", 9),
      ], "icloud-unavailable"
    ),
    ([("PHPhotosErrorDomain", 3169), ("CKErrorDomain", 6)], "icloud-unavailable"),
    ([("CloudPhotoLibraryErrorDomain", 77)], "icloud-unavailable"),
    // 1005: a device too full to download, in the field reports found.
    ([("CloudPhotoLibraryErrorDomain", 1005)], "disk-full"),
    ([("PHPhotosErrorDomain", 3169), ("CloudPhotoLibraryErrorDomain", 1005)], "disk-full"),
    // Offline anywhere in the chain wins over iCloud's complaint: connecting comes first.
    ([("CloudPhotoLibraryErrorDomain", 1000), ("CKErrorDomain", 3)], "network-required"),
    (
      [("PHPhotosErrorDomain", 3169), ("CloudPhotoLibraryErrorDomain", 1000), ("NSURLErrorDomain", -1009)],
      "network-required"
    ),
    // 3169 with nothing under it that says more stays "connect, then retry".
    ([("PHPhotosErrorDomain", 3169)], "network-required"),
    ([("PHPhotosErrorDomain", 3169), ("NSURLErrorDomain", -1009)], "network-required"),
  ]

  @Test(arguments: iCloudChains)
  func iCloudAndNetworkChainsMapToWhatTheUserCanDo(_ chain: [(String, Int)], _ expected: String) {
    #expect(Importer.Error(providerError: Self.chain(chain)).code == expected)
  }

  @Test func importErrorsPassThroughUnchanged() {
    #expect(Importer.Error(providerError: Importer.Error.tooLarge(limit: 5)) == .tooLarge(limit: 5))
  }

  @Test func aCycleOfUnderlyingErrorsDoesNotHang() {
    // userInfo cannot truly point at itself, but a deep chain must stop at the bound.
    let deep = Self.chain(Array(repeating: ("NSItemProviderErrorDomain", -1000), count: 50))
    #expect(Importer.Error(providerError: deep).code == "item-unavailable")
  }

  @Test func swiftErrorsWithoutADomainBecomeSourceFailures() {
    struct Odd: Error {}
    #expect(Importer.Error(providerError: Odd()).code == "source-failed")
  }
}
