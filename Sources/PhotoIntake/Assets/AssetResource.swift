/// One stored file of a Photos asset, as `PHAssetResource` describes it: its role, its type and its name.
///
/// A photo asset has a `.photo` resource (the original, as the camera wrote it); once edited, also a
/// `.fullSizePhoto` (the current rendering) and `.adjustmentData` (the edit's recipe). A Live Photo adds a
/// `.pairedVideo` (and `.fullSizePairedVideo` once edited); a RAW+JPEG pair adds an `.alternatePhoto`.
/// ``AssetResourcePlan`` decides which of them an import copies.
public struct AssetResource: Sendable, Hashable, Codable {
  /// The role of a resource in its asset (`PHAssetResourceType`, with its raw values, PhotosTypes.h).
  public enum Kind: Int, Sendable, Hashable, Codable, CaseIterable {
    /// The original photo data.
    case photo = 1
    /// The original video data.
    case video = 2
    /// The original audio data (an audio asset).
    case audio = 3
    /// Photo data that is not the asset's primary form (the RAW of a RAW+JPEG pair).
    case alternatePhoto = 4
    /// The photo as it looks now: the rendering of the latest edit.
    case fullSizePhoto = 5
    /// The video as it looks now: the rendering of the latest edit.
    case fullSizeVideo = 6
    /// The recipe of the latest edit (`PHAdjustmentData`); not a photo.
    case adjustmentData = 7
    /// The input of the latest edit, when it was not the original.
    case adjustmentBasePhoto = 8
    /// A Live Photo's original movie.
    case pairedVideo = 9
    /// A Live Photo's movie as it looks now, after an edit.
    case fullSizePairedVideo = 10
    /// The input of the latest edit of a Live Photo's movie.
    case adjustmentBasePairedVideo = 11
    /// The input of the latest edit of a video.
    case adjustmentBaseVideo = 12
    /// A proxy photo the camera saved while it finished processing the final one (iOS 17 deferred photos).
    case photoProxy = 19
  }

  /// The resource's role.
  public var kind: Kind
  /// Its Uniform Type Identifier (`PHAssetResource.contentType` on iOS 26 and macOS 26,
  /// `uniformTypeIdentifier` before): a hint, compared with the bytes.
  public var uniformTypeIdentifier: String
  /// The name the file had when it was added to Photos (`PHAssetResource.originalFilename`), e.g. `IMG_0001.HEIC`.
  public var originalFilename: String

  /// A resource of the given role, type and name.
  public init(kind: Kind, uniformTypeIdentifier: String, originalFilename: String) {
    self.kind = kind
    self.uniformTypeIdentifier = uniformTypeIdentifier
    self.originalFilename = originalFilename
  }
}

/// Which version of an edited asset to import.
public enum AssetVersion: String, Sendable, Hashable, Codable, CaseIterable {
  /// The file as it was taken or added, without later edits: byte-exact, with every edit left in Photos.
  case original
  /// The asset as it looks now: the rendering of the latest edit when there is one, else the original.
  case current
}
