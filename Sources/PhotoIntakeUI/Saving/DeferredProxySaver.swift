#if canImport(Photos)
  import Foundation
  import Photos
  import PhotoIntake

  /// Saves a camera's deferred photo proxy to Photos, which then finishes the photo in the background.
  ///
  /// "The in-memory proxy fileDataRepresentation should be added to the photo library as quickly as possible
  /// after receipt to ensure that the photo library can begin background processing and also so that the
  /// intermediates are not removed by a periodic clean-up job" (AVCapturePhotoOutput.h): one
  /// `PHAssetCreationRequest` with the data as its `.photoProxy` resource (PhotosTypes.h, iOS 17). Saving needs
  /// add-only access; following the processing to replace the app's proxy with the final photo
  /// (``PhotoIntake/DeferredPhotoIntake``) needs read access to the new asset.
  @available(iOS 17, macOS 14, *)
  public enum DeferredProxySaver {
    /// Saves the proxy's `fileDataRepresentation()` as a new asset.
    ///
    /// - Returns: the new asset's local identifier.
    /// - Throws: ``PhotoIntake/PhotoSaveError``: refused access, a full device, data Photos does not accept.
    public static func save(_ proxy: Data) async throws(PhotoSaveError) -> String {
      var status = PHPhotoLibrary.authorizationStatus(for: .addOnly)
      if status == .notDetermined { status = await PHPhotoLibrary.requestAuthorization(for: .addOnly) }
      if let refused = PhotoSaveError(status: AuthorizationStatus(systemRawValue: status.rawValue) ?? .denied)
      {
        throw refused
      }
      let created = ProxyIdentifier()
      do {
        try await PHPhotoLibrary.shared().performChanges {
          let request = PHAssetCreationRequest.forAsset()
          request.addResource(with: .photoProxy, data: proxy, options: nil)
          created.set(request.placeholderForCreatedAsset?.localIdentifier)
        }
      } catch {
        throw PhotoSaveError(photoKitError: error)
      }
      guard let identifier = created.value else {
        throw .failed(reason: "Photos saved the photo without reporting its identifier")
      }
      return identifier
    }
  }

  /// The placeholder's identifier, written inside the change block and read after it.
  private final class ProxyIdentifier: @unchecked Sendable {
    // @unchecked: written once inside `performChanges`' block and read only after it returned; the lock makes
    // that independent of PhotoKit's queues.
    private let lock = NSLock()
    private var identifier: String?

    func set(_ value: String?) { lock.withLock { identifier = value } }
    var value: String? { lock.withLock { identifier } }
  }
#endif
