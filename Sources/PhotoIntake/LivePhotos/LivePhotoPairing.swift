import PhotoMetadata

/// Whether a still and a movie belong together as one Live Photo, by the content identifier each carries.
///
/// Photos pairs a Live Photo's resources by one identifier written in both files: the Apple MakerNote's
/// content identifier (key 17) in the still and `com.apple.quicktime.content.identifier` in the movie
/// (Apple's "Live Photos" notes for iOS 9.1; PhotoMetadata reads both as `MediaMetadata.livePhotoID`). A
/// pair whose identifiers are missing or differ is not a Live Photo to Photos: a creation request with both
/// as `.photo` + `.pairedVideo` fails validation (`PHPhotosError.invalidResource`, 3302), losing the still
/// too. The pick keeps such a pair together in the app; saving keeps the still only (``PhotoSavePlanner``).
public enum LivePhotoPairing: Sendable, Hashable {
  /// Both files carry the same identifier.
  case matching(contentIdentifier: String)
  /// The still, the movie or both carry no identifier (or their metadata could not be read).
  case missingIdentifier
  /// Both carry identifiers, and they differ: not the same Live Photo.
  case mismatched(still: String, movie: String)

  /// The verdict for a still and a movie, from the metadata read at import.
  public init(still: MediaMetadata?, movie: MediaMetadata?) {
    guard let stillID = still?.livePhotoID, !stillID.isEmpty, let movieID = movie?.livePhotoID,
      !movieID.isEmpty
    else {
      self = .missingIdentifier
      return
    }
    // Identifiers are UUID strings; Photos compares them as written, apart from letter case.
    self =
      stillID.uppercased() == movieID.uppercased()
      ? .matching(contentIdentifier: stillID) : .mismatched(still: stillID, movie: movieID)
  }

  /// Whether Photos will accept the pair as one Live Photo.
  public var isLivePhoto: Bool {
    if case .matching = self { true } else { false }
  }
}
