/// What to hand `PHAssetCreationRequest` to add one asset to Photos: resources in order, each a file of ours.
///
/// Made by ``PhotoSavePlanner``; `PhotoIntakeUI`'s saver only copies it into a `performChanges` block, with
/// `addResource(with:fileURL:options:)` per resource (`shouldMoveFile` left false: the files stay ours).
public struct PhotoSaveRequest: Sendable, Hashable {
  /// `PHAssetResourceType`, for the cases saving uses.
  public enum Role: Int, Sendable, Hashable, Codable {
    /// `.photo` (1): a photo, or a Live Photo's still.
    case photo = 1
    /// `.video` (2): a video.
    case video = 2
    /// `.pairedVideo` (9): a Live Photo's movie.
    case pairedVideo = 9
  }

  /// One resource.
  public struct Resource: Sendable, Hashable {
    /// What the resource is to Photos.
    public var role: Role
    /// The prepared file (``PreparedFile``).
    public var path: String
    /// `PHAssetResourceCreationOptions.uniformTypeIdentifier`: what the bytes are.
    public var uniformTypeIdentifier: String
    /// `PHAssetResourceCreationOptions.originalFilename`.
    public var originalFilename: String
    /// What was removed to take the location out.
    public var removedLocation: [String]
  }

  /// In the order to add them: the photo (or video) first.
  public var resources: [Resource]
  /// An album of the app's to add the new asset to, created if missing; nil adds to the library only.
  public var albumName: String?
  /// The access the request needs: add-only, or read-write when it uses an album (albums must be fetched).
  public var requiredAccess: PhotoAccessLevel
  /// Set when a pair was saved as its still only, and why: Photos pairs a Live Photo by content identifier.
  public var droppedMotion: LivePhotoPairing?

  /// Deletes the prepared files; call it once `performChanges` has finished, whatever its outcome.
  public func release() {
    for resource in resources { PreparedFile(path: resource.path, removedLocation: []).release() }
  }
}
