/// Decides how a library asset is saved to Photos: which resources, from which files, with which access.
///
/// - A photo is one `.photo` resource, a video one `.video`, added from the stored bytes as they are: metadata
///   kept, nothing re-encoded (DESIGN.md "Avoid": a re-encoded 20 MB HEIC becomes 68 MB).
/// - A Live Photo is `.photo` + `.pairedVideo` when the two carry the same content identifier
///   (``LivePhotoPairing``); otherwise Photos would refuse the pair, so the still is saved alone and the
///   request says so (``PhotoSaveRequest/droppedMotion``).
/// - Without location, each file is a copy that ``PreparedFile`` made without GPS.
/// - Add-only access suffices unless an album is asked for: finding or creating an album needs read-write
///   (``PhotoFeature/saveToAlbum``), which a limited grant also gives.
///
/// ```swift
/// let request = try PhotoSavePlanner(library: library).plan(asset, pairedVideo: movie, options: options)
/// defer { request.release() }
/// try await saver.save(request)
/// ```
public struct PhotoSavePlanner: Sendable {
  /// What the user asked for.
  public struct Options: Sendable, Hashable {
    /// Remove the location from the saved copy.
    public var withoutLocation = false
    /// Add the asset to the app's album of this name (created if missing).
    public var albumName: String?

    /// Options for a save: with or without location, into an album or not.
    public init(withoutLocation: Bool = false, albumName: String? = nil) {
      self.withoutLocation = withoutLocation
      self.albumName = albumName
    }
  }

  /// The library whose assets are saved.
  public let library: Library
  /// Where the files for Photos are prepared.
  public let folder: String

  /// A planner for `library`'s assets, preparing files in `folder`.
  public init(library: Library, folder: String = PreparedFile.defaultFolder) {
    self.library = library
    self.folder = folder
  }

  /// Plans saving `asset` (with a Live Photo's movie as `pairedVideo`).
  ///
  /// - Throws: ``PhotoSaveError/preparation(_:)`` when a file is missing in the library or its location cannot
  ///   be removed; nothing is left behind.
  public func plan(_ asset: Asset, pairedVideo: Asset? = nil, options: Options = Options())
    throws(PhotoSaveError) -> PhotoSaveRequest
  {
    var parts: [(Role, Asset)] = [(asset.type.isImage ? .photo : .video, asset)]
    var dropped: LivePhotoPairing?
    if asset.type.isImage, let movie = pairedVideo, movie.type.isMovie {
      let pairing = LivePhotoPairing(still: asset.metadata, movie: movie.metadata)
      if pairing.isLivePhoto { parts.append((.pairedVideo, movie)) } else { dropped = pairing }
    }
    var resources: [PhotoSaveRequest.Resource] = []
    for (role, part) in parts {
      do throws(PreparedFile.Error) {
        let file = try PreparedFile.make(
          for: part, in: library, withoutLocation: options.withoutLocation, folder: folder)
        resources.append(
          PhotoSaveRequest.Resource(
            role: role, path: file.path, uniformTypeIdentifier: part.type.uniformTypeIdentifier,
            originalFilename: PreparedFile.filename(for: part), removedLocation: file.removedLocation))
      } catch {
        PhotoSaveRequest(resources: resources, requiredAccess: .addOnly).release()
        throw .preparation(error)
      }
    }
    let album = options.albumName.flatMap { $0.isEmpty ? nil : $0 }
    return PhotoSaveRequest(
      resources: resources, albumName: album,
      requiredAccess: album == nil ? PhotoFeature.save.leastAccess : PhotoFeature.saveToAlbum.leastAccess,
      droppedMotion: dropped)
  }

  private typealias Role = PhotoSaveRequest.Role
}
