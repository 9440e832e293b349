import Testing

@testable import PhotoIntake

/// Live Photos offered as `com.apple.private.live-photo-bundle` are Live Photos, not stills.
@Suite struct PrivateLivePhotoBundleTests {
  @Test(arguments: ["com.apple.live-photo-bundle", "com.apple.private.live-photo-bundle"])
  func aProviderListingTheBundleLoadsItAsALivePhoto(_ bundle: String) {
    #expect(LivePhotoBundle.isBundleType(bundle))
    #expect(
      PickLoad.decide(registered: ["public.heic", bundle], livePhotos: .keepPair)
        == .livePhoto(bundleTypeIdentifier: bundle, keepsMovie: true))
    #expect(
      PickLoad.decide(registered: ["public.heic", bundle], livePhotos: .stillOnly)
        == .file(typeIdentifier: "public.heic"))
    // A provider offering only the bundle still gives its still under `.stillOnly`.
    #expect(
      PickLoad.decide(registered: [bundle], livePhotos: .stillOnly)
        == .livePhoto(bundleTypeIdentifier: bundle, keepsMovie: false))
  }
}
