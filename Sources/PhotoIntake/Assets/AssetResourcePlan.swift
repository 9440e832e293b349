/// Which resources of one Photos asset an import copies: the photo or video to keep, and a Live Photo's movie.
///
/// The choice follows `PHAssetResourceType`'s documentation: `.photo`, `.video` and `.pairedVideo` hold the
/// original data; `.fullSizePhoto`, `.fullSizeVideo` and `.fullSizePairedVideo` hold "the current rendered output,
/// if any, for an edited asset". So ``AssetVersion/current`` takes a full-size rendering when the asset has one
/// and the original otherwise, and ``AssetVersion/original`` always takes the original. Adjustment data, bases
/// and proxies are never imported: they are not the photo.
///
/// RAW follows the one policy of both import paths (``RepresentationChoice/rawPolicy``): the RAW is kept. A
/// RAW+JPEG pair imports its RAW (`.alternatePhoto`, when its type is a RAW type) rather than the JPEG `.photo`,
/// as the picker path loads the RAW a provider offers; an edited pair under ``AssetVersion/current`` imports
/// the rendering of the edit, as any edited photo does.
///
/// ```swift
/// let plan = try AssetResourcePlan(resources: resources, version: .original, livePhotos: .keepPair)
/// plan.primary        // .photo IMG_0001.HEIC
/// plan.pairedVideo    // .pairedVideo IMG_0001.MOV
/// ```
public struct AssetResourcePlan: Sendable, Hashable {
  /// The photo or video to import.
  public var primary: AssetResource
  /// A Live Photo's movie, imported as a second asset linked to the photo; nil for photos and videos, and under
  /// ``LivePhotoPolicy/stillOnly``.
  public var pairedVideo: AssetResource?

  /// A plan with the given resources.
  public init(primary: AssetResource, pairedVideo: AssetResource?) {
    self.primary = primary
    self.pairedVideo = pairedVideo
  }

  /// Chooses among an asset's resources (`PHAssetResource.assetResources(for:)`, in any order).
  ///
  /// - Throws: ``Importer/Error/itemUnavailable(reason:)`` when the asset has no photo or video resource (an
  ///   audio asset, or a list emptied because the asset was deleted).
  public init(resources: [AssetResource], version: AssetVersion, livePhotos: LivePhotoPolicy)
    throws(Importer.Error)
  {
    func first(_ kinds: [AssetResource.Kind]) -> AssetResource? {
      for kind in kinds { if let found = resources.first(where: { $0.kind == kind }) { return found } }
      return nil
    }
    let current = version == .current
    // The RAW of a RAW+JPEG pair, which the RAW policy keeps over the JPEG.
    let raw = resources.first {
      $0.kind == .alternatePhoto && RepresentationChoice.isRAW($0.uniformTypeIdentifier)
    }
    let edited = current ? first([.fullSizePhoto]) : nil
    // A Live Photo has a photo and a paired video; a video asset has a `.video` and no photo.
    if let photo = edited ?? raw ?? first([.photo, .alternatePhoto]) {
      primary = photo
      // An edited still goes with the edited movie only: an edit that turned the motion off renders no
      // `.fullSizePairedVideo`, and the original movie would bring back what the user removed.
      let movies: [AssetResource.Kind] =
        photo.kind == .fullSizePhoto ? [.fullSizePairedVideo] : [.pairedVideo]
      pairedVideo = livePhotos == .keepPair ? first(movies) : nil
    } else if let video = first(current ? [.fullSizeVideo, .video] : [.video]) {
      primary = video
      pairedVideo = nil
    } else {
      throw .itemUnavailable(reason: "the asset has no photo or video to import")
    }
  }

  /// The resources to import, the photo or video first.
  public var resources: [AssetResource] { [primary] + (pairedVideo.map { [$0] } ?? []) }

  /// The name to show for `resource`: a rendering of an edit is named `FullSizeRender.jpg` by Photos, so it
  /// takes the original's name with its own extension (`IMG_0001.HEIC` edited → `IMG_0001.jpg`).
  ///
  /// - Parameter original: the asset's original file name (its `.photo` or `.video` resource's).
  public static func displayName(of resource: AssetResource, original: String?) -> String? {
    let rendered: Set<AssetResource.Kind> = [.fullSizePhoto, .fullSizeVideo, .fullSizePairedVideo]
    guard rendered.contains(resource.kind), let original, let dot = original.lastIndex(of: "."),
      let ownDot = resource.originalFilename.lastIndex(of: ".")
    else { return resource.originalFilename.isEmpty ? nil : resource.originalFilename }
    return String(original[..<dot]) + String(resource.originalFilename[ownDot...])
  }
}
