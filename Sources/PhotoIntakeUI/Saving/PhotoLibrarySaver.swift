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
  ///
  /// The app's album (``PhotoSavePlanner/Options/albumName``) is found by the local identifier it was created
  /// with (``AppAlbumResolver``), never by its title: a user album of the same name never receives the app's
  /// photos, and saves that run at once create one album, not one each.
  public struct PhotoLibrarySaver: Sendable {
    private let albums: AppAlbumResolver

    /// A saver that records the app's albums in `UserDefaults.standard`; all such savers share one resolver.
    public init() { albums = Self.sharedAlbums }

    /// A saver that records the app's albums in `albumStore` (for example a suite shared with extensions).
    /// Savers made with the same store should share one saver, so that their album creations are serialized.
    public init(albumStore: any AppAlbumStore) { albums = AppAlbumResolver(store: albumStore) }

    private static let sharedAlbums = AppAlbumResolver(store: UserDefaultsAlbumStore())

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
      // The album is found or made before the asset's change block; with add-only access there is none.
      var album: PHAssetCollection?
      if let name = request.albumName {
        album = try await appAlbum(named: name)
      }
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
          if let album, let albumRequest = PHAssetCollectionChangeRequest(for: album) {
            albumRequest.addAssets([placeholder] as NSArray)
          }
        }
      } catch {
        throw PhotoSaveError(photoKitError: error)
      }
      return created.value
    }

    /// The app's album `name`, by its recorded local identifier, made (and recorded) when there is none.
    private func appAlbum(named name: String) async throws(PhotoSaveError) -> PHAssetCollection? {
      let identifier: String
      do {
        identifier = try await albums.album(
          named: name, exists: { Self.album(withIdentifier: $0) != nil },
          create: { name in
            let created = CreatedIdentifier()
            try await PHPhotoLibrary.shared().performChanges {
              let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: name)
              created.set(request.placeholderForCreatedAssetCollection.localIdentifier)
            }
            guard let identifier = created.value else { throw CocoaError(.fileWriteUnknown) }
            return identifier
          })
      } catch {
        throw PhotoSaveError(photoKitError: error)
      }
      return Self.album(withIdentifier: identifier)
    }

    private static func album(withIdentifier identifier: String) -> PHAssetCollection? {
      PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: nil).firstObject
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
