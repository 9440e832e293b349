#if canImport(Photos)
  import Foundation
  import Photos
  import PhotoIntake

  /// Saves library assets to Photos with the least access: add-only, or read-write only when an album is asked
  /// for. Carries out a ``PhotoSaveRequest``; every decision (resources, Live Photo pairing, location removal,
  /// access level) is ``PhotoSavePlanner``'s.
  ///
  /// The resources are added from our stored files with `PHAssetCreationRequest.addResource(with:fileURL:options:)`
  /// — the bytes as they are, metadata kept, nothing re-encoded (`UIImageWriteToSavedPhotosAlbum` and
  /// `creationRequestForAsset(from: UIImage)` re-encode) — and `shouldMoveFile` stays false, so the files remain
  /// ours.
  ///
  /// ```swift
  /// let identifier = try await PhotoLibrarySaver().save(asset, pairedVideo: movie, from: library,
  ///                                                     options: .init(withoutLocation: true))
  /// ```
  public struct PhotoLibrarySaver: Sendable {
    public init() {}

    /// Plans, saves and cleans up: the one call an app needs.
    ///
    /// - Returns: the new asset's local identifier, when PhotoKit reports one.
    /// - Throws: ``PhotoSaveError``.
    @discardableResult
    public func save(
      _ asset: Asset, pairedVideo: Asset? = nil, from library: Library,
      options: PhotoSavePlanner.Options = .init()
    ) async throws(PhotoSaveError) -> String? {
      let request = try PhotoSavePlanner(library: library).plan(
        asset, pairedVideo: pairedVideo, options: options)
      defer { request.release() }
      return try await save(request)
    }

    /// Saves a planned request, asking for its access level first if the user was never asked.
    ///
    /// - Returns: the new asset's local identifier, when PhotoKit reports one.
    /// - Throws: ``PhotoSaveError``: refused access, a full device, files Photos does not accept.
    @discardableResult
    public func save(_ request: PhotoSaveRequest) async throws(PhotoSaveError) -> String? {
      guard let rawLevel = request.requiredAccess.photoKitRawValue,
        let level = PHAccessLevel(rawValue: rawLevel)
      else { throw .failed(reason: "the request needs no photo-library access, which saving always does") }
      var status = PHPhotoLibrary.authorizationStatus(for: level)
      if status == .notDetermined { status = await PHPhotoLibrary.requestAuthorization(for: level) }
      if let refused = PhotoSaveError(status: AuthorizationStatus(systemRawValue: status.rawValue) ?? .denied)
      {
        throw refused
      }
      // Albums are fetched outside the change block; with add-only access nothing can be fetched.
      let album = request.albumName.flatMap(Self.existingAlbum(named:))
      let created = CreatedIdentifier()
      do {
        try await PHPhotoLibrary.shared().performChanges {
          let creation = PHAssetCreationRequest.forAsset()
          for resource in request.resources {
            let options = PHAssetResourceCreationOptions()
            options.originalFilename = resource.originalFilename
            options.uniformTypeIdentifier = resource.uniformTypeIdentifier
            options.shouldMoveFile = false
            guard let type = PHAssetResourceType(rawValue: resource.role.rawValue) else { continue }
            creation.addResource(with: type, fileURL: URL(fileURLWithPath: resource.path), options: options)
          }
          guard let placeholder = creation.placeholderForCreatedAsset else { return }
          created.set(placeholder.localIdentifier)
          if let name = request.albumName {
            let albumRequest =
              album.flatMap { PHAssetCollectionChangeRequest(for: $0) }
              ?? PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: name)
            albumRequest.addAssets([placeholder] as NSArray)
          }
        }
      } catch {
        throw PhotoSaveError(photoKitError: error)
      }
      return created.value
    }

    /// The user album with this title, if the app may see it.
    private static func existingAlbum(named name: String) -> PHAssetCollection? {
      let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil)
      var found: PHAssetCollection?
      albums.enumerateObjects { collection, _, stop in
        if collection.localizedTitle == name {
          found = collection
          stop.pointee = true
        }
      }
      return found
    }
  }

  /// The placeholder identifier, written inside the change block and read after it.
  private final class CreatedIdentifier: @unchecked Sendable {
    // @unchecked: written once inside `performChanges`' block and read only after `performChanges` returned,
    // which orders the two; the lock makes that independent of PhotoKit's queues.
    private let lock = NSLock()
    private var identifier: String?

    func set(_ value: String) { lock.withLock { identifier = value } }
    var value: String? { lock.withLock { identifier } }
  }
#endif
