import Foundation
import Testing

@testable import PhotoIntake

/// Which resources of a Photos asset an import copies, from the resource lists PhotoKit gives.
@Suite struct AssetResourcePlanTests {
  static func resource(_ kind: AssetResource.Kind, _ type: String = "public.heic") -> AssetResource {
    AssetResource(kind: kind, uniformTypeIdentifier: type, originalFilename: "\(kind).\(type)")
  }

  typealias Row = (
    resources: [AssetResource.Kind], version: AssetVersion, policy: LivePhotoPolicy,
    primary: AssetResource.Kind, paired: AssetResource.Kind?
  )

  static let table: [Row] = [
    ([.photo], .original, .keepPair, .photo, nil),
    ([.photo], .current, .keepPair, .photo, nil),
    ([.adjustmentData, .fullSizePhoto, .photo], .original, .keepPair, .photo, nil),
    ([.adjustmentData, .fullSizePhoto, .photo], .current, .keepPair, .fullSizePhoto, nil),
    ([.video], .current, .keepPair, .video, nil),
    ([.fullSizeVideo, .video, .adjustmentData, .adjustmentBaseVideo], .original, .keepPair, .video, nil),
    ([.fullSizeVideo, .video, .adjustmentData], .current, .keepPair, .fullSizeVideo, nil),
    ([.pairedVideo, .photo], .original, .keepPair, .photo, .pairedVideo),
    ([.pairedVideo, .photo], .original, .stillOnly, .photo, nil),
    (
      [.photo, .pairedVideo, .fullSizePhoto, .fullSizePairedVideo], .current, .keepPair, .fullSizePhoto,
      .fullSizePairedVideo
    ),
    (
      [.photo, .pairedVideo, .fullSizePhoto, .fullSizePairedVideo], .original, .keepPair, .photo, .pairedVideo
    ),
    // An edit that turned the motion off renders a still only: the original movie must not come back.
    ([.photo, .pairedVideo, .fullSizePhoto, .adjustmentData], .current, .keepPair, .fullSizePhoto, nil),
    // An alternate photo that is not RAW (these rows' resources are all HEIC) leaves the photo; an alternate
    // alone is the photo. RAW+JPEG pairs: `theRAWPolicyIsTheSameOnBothPaths`.
    ([.alternatePhoto, .photo], .original, .keepPair, .photo, nil),
    ([.alternatePhoto], .original, .keepPair, .alternatePhoto, nil),
    // A proxy the camera saved while finishing the photo is not the photo.
    ([.photoProxy, .photo], .current, .keepPair, .photo, nil),
  ]

  @Test(arguments: table.indices)
  func choosesTheResources(_ index: Int) throws {
    let row = Self.table[index]
    let plan = try AssetResourcePlan(
      resources: row.resources.map { Self.resource($0) }, version: row.version, livePhotos: row.policy)
    #expect(plan.primary.kind == row.primary, "row \(index)")
    #expect(plan.pairedVideo?.kind == row.paired, "row \(index)")
    #expect(plan.resources.count == (row.paired == nil ? 1 : 2))
  }

  @Test(arguments: [[], [AssetResource.Kind.audio], [.adjustmentData], [.photoProxy]])
  func anAssetWithoutPhotoOrVideoIsATypedError(_ kinds: [AssetResource.Kind]) {
    #expect(throws: Importer.Error.self) {
      try AssetResourcePlan(
        resources: kinds.map { Self.resource($0) }, version: .current, livePhotos: .keepPair)
    }
  }

  /// One RAW policy (``RepresentationChoice/rawPolicy``): a RAW+JPEG pair imports its RAW from the library, as
  /// the picker path loads the RAW its provider offers; the rendering of an edit still wins under `.current`.
  @Test(arguments: [
    ("com.adobe.raw-image", AssetVersion.original, AssetResource.Kind.alternatePhoto),
    ("com.adobe.raw-image", .current, .alternatePhoto),
    ("com.canon.cr3-raw-image", .original, .alternatePhoto),
    ("public.jpeg", .original, .photo),
  ])
  func theRAWPolicyIsTheSameOnBothPaths(
    _ alternateType: String, _ version: AssetVersion, _ expected: AssetResource.Kind
  ) throws {
    let pair = [Self.resource(.photo, "public.jpeg"), Self.resource(.alternatePhoto, alternateType)]
    let plan = try AssetResourcePlan(resources: pair, version: version, livePhotos: .keepPair)
    #expect(plan.primary.kind == expected)
    let picked = RepresentationChoice.preferredTypeIdentifier(among: ["public.jpeg", alternateType])
    #expect(picked == plan.primary.uniformTypeIdentifier)

    let edited = pair + [Self.resource(.fullSizePhoto, "public.jpeg"), Self.resource(.adjustmentData)]
    let current = try AssetResourcePlan(resources: edited, version: .current, livePhotos: .keepPair)
    #expect(current.primary.kind == .fullSizePhoto)
  }

  @Test func renderingsTakeTheOriginalsName() {
    let rendering = AssetResource(
      kind: .fullSizePhoto, uniformTypeIdentifier: "public.jpeg", originalFilename: "FullSizeRender.jpg")
    #expect(AssetResourcePlan.displayName(of: rendering, original: "IMG_0001.HEIC") == "IMG_0001.jpg")
    #expect(AssetResourcePlan.displayName(of: rendering, original: nil) == "FullSizeRender.jpg")
    let photo = AssetResource(
      kind: .photo, uniformTypeIdentifier: "public.heic", originalFilename: "IMG_0001.HEIC")
    #expect(AssetResourcePlan.displayName(of: photo, original: "IMG_0001.HEIC") == "IMG_0001.HEIC")
  }

  @Test func kindsKeepPhotoKitsRawValues() {
    // PhotosTypes.h: PHAssetResourceType.
    #expect(AssetResource.Kind.photo.rawValue == 1)
    #expect(AssetResource.Kind.fullSizePhoto.rawValue == 5)
    #expect(AssetResource.Kind.pairedVideo.rawValue == 9)
    #expect(AssetResource.Kind.fullSizePairedVideo.rawValue == 10)
    #expect(AssetResource.Kind.photoProxy.rawValue == 19)
    #expect(AssetResource.Kind(rawValue: 13) == nil)
  }

  @Test(arguments: [
    (3201, Importer.Error.assetDeleted), (3303, .assetDeleted), (3164, .networkRequired),
    (3169, .networkRequired), (3072, .cancelled), (3305, .diskFull), (3311, .photoLibraryAccessDenied),
  ])
  func photoKitErrorsMapToErrorsAUserCanActOn(_ code: Int, _ expected: Importer.Error) {
    let mapped = Importer.Error(
      assetResourceErrorChain: [(Importer.Error.ProviderDomain.photos, code)], reason: "x")
    #expect(mapped == expected)
    // Wrapped by another error, the PhotoKit cause still decides.
    let wrapped = Importer.Error(
      assetResourceErrorChain: [
        (Importer.Error.ProviderDomain.itemProvider, -1000), (Importer.Error.ProviderDomain.photos, code),
      ],
      reason: "x")
    #expect(wrapped == expected)
  }

  @Test func nsErrorsAreWalkedToTheirUnderlyingCause() {
    let underlying = NSError(domain: "PHPhotosErrorDomain", code: 3201)
    let outer = NSError(
      domain: "NSItemProviderErrorDomain", code: -1000, userInfo: [NSUnderlyingErrorKey: underlying])
    #expect(Importer.Error(assetResourceError: outer) == .assetDeleted)
    #expect(Importer.Error(assetResourceError: Importer.Error.diskFull) == .diskFull)
  }
}

/// PhotoKit's download progress as the import's.
@Suite struct AssetDownloadProgressTests {
  @Test func onlyGrowsAndEndsAtOne() {
    let seen = Protected<[Double]>([])
    let progress = AssetDownloadProgress { value in seen.withLock { $0.append(value) } }
    // Repeats, a value going back (a retried download), a NaN and out-of-range values, as handlers may send.
    for fraction in [0, 0.25, 0.25, 0.1, .nan, 0.6, 2, -1, 1] { progress.download(fraction) }
    progress.finish()
    progress.finish()
    let values = seen.current
    #expect(values == values.sorted())
    #expect(Set(values).count == values.count, "no repeats: \(values)")
    #expect(values.first == 0)
    #expect(values.last == 1)
    #expect(values.dropLast().allSatisfy { $0 <= AssetDownloadProgress.downloadShare })
  }
}
