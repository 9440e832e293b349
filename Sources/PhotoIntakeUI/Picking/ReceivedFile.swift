#if canImport(CoreTransferable) && canImport(UniformTypeIdentifiers)
  import CoreTransferable
  import Foundation
  import PhotoIntake
  import UniformTypeIdentifiers

  /// A photo received from `PhotosPicker` as a file, never as `Data` or `Image`.
  ///
  /// `Image`'s own `Transferable` conformance imports PNG only, and `Data` holds a whole file (a 4 GB video) in
  /// memory. A `FileRepresentation(importedContentType:)` is handed the file itself, which "may be deleted
  /// after the closure returns" (CoreTransferable `ReceivedTransferredFile`); the closure is static and cannot
  /// reach the import's staging sink, so it parks the file with ``ReceivedFileHandOver`` (a hard link into a
  /// folder of ours, before it returns) and carries the parked path. ``PhotosPickerItemAdapter`` then lends
  /// that path to the import with `loadFileRepresentation`'s contract.
  ///
  /// Any image type is accepted (`public.image`: JPEG, HEIF/HEIC, PNG, RAW…): the bytes decide the type later.
  public struct ReceivedImageFile: Transferable, Sendable {
    /// The parked file.
    public let parkedPath: String

    public static var transferRepresentation: some TransferRepresentation {
      FileRepresentation(importedContentType: .image) { received in
        ReceivedImageFile(parkedPath: try ReceivedFileHandOver.shared.park(itemAt: received.file.path))
      }
    }
  }

  /// A movie received from `PhotosPicker` as a file (`public.movie`: QuickTime, MPEG-4), parked like
  /// ``ReceivedImageFile``.
  public struct ReceivedMovieFile: Transferable, Sendable {
    public let parkedPath: String

    public static var transferRepresentation: some TransferRepresentation {
      FileRepresentation(importedContentType: .movie) { received in
        ReceivedMovieFile(parkedPath: try ReceivedFileHandOver.shared.park(itemAt: received.file.path))
      }
    }
  }

  /// A Live Photo received from `PhotosPicker` as its bundle (a folder holding the still and the movie), parked
  /// as a folder of links; ``LivePhotoLoad`` finds the two files in it by their bytes.
  public struct ReceivedLivePhotoBundle: Transferable, Sendable {
    public let parkedPath: String

    /// `com.apple.live-photo-bundle`, conforming to `UTType.livePhoto`.
    public static let contentType = UTType(
      importedAs: LivePhotoBundle.typeIdentifier, conformingTo: .livePhoto)

    /// `com.apple.private.live-photo-bundle`, which some items list instead of ``contentType``.
    public static let privateContentType = UTType(
      importedAs: LivePhotoBundle.privateTypeIdentifier, conformingTo: .livePhoto)

    public static var transferRepresentation: some TransferRepresentation {
      FileRepresentation(importedContentType: contentType) { received in
        ReceivedLivePhotoBundle(parkedPath: try ReceivedFileHandOver.shared.park(itemAt: received.file.path))
      }
      FileRepresentation(importedContentType: privateContentType) { received in
        ReceivedLivePhotoBundle(parkedPath: try ReceivedFileHandOver.shared.park(itemAt: received.file.path))
      }
    }
  }
#endif
