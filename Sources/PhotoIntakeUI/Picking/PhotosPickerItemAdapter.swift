#if canImport(PhotosUI) && canImport(SwiftUI)
  import Foundation
  import PhotoIntake
  import PhotosUI
  import SwiftUI
  import UniformTypeIdentifiers

  /// A `PhotosPickerItem` as the portable provider ``PickImport`` loads from.
  ///
  /// `loadTransferable(type:completionHandler:)` (not the `async` form, which gives no `Progress`) loads one of
  /// ``ReceivedImageFile``, ``ReceivedMovieFile`` or ``ReceivedLivePhotoBundle``, chosen from the type the import
  /// asked for; their import closures park the file, and ``ParkedFileProvider`` lends it to the import and
  /// releases it.
  public enum PhotosPickerItemAdapter {
    /// The result for `item`, with its identifier when the picker was given a photo library.
    public static func pickedResult(for item: PhotosPickerItem) -> PickedResult {
      PickedResult(assetIdentifier: item.itemIdentifier, provider: provider(for: item))
    }

    /// The provider for `item`. Its registered types are `supportedContentTypes`, which is empty for a
    /// preselected item that stayed selected (``SelectionMerge`` reuses those).
    public static func provider(for item: PhotosPickerItem) -> ParkedFileProvider {
      let box = ItemBox(item: item)
      return ParkedFileProvider(
        registeredTypeIdentifiers: item.supportedContentTypes.map(\.identifier), suggestedName: nil,
        handOver: .shared
      ) { typeIdentifier, progress, completion in
        let loading: Progress
        if LivePhotoBundle.isBundleType(typeIdentifier) {
          loading = box.item.loadTransferable(type: ReceivedLivePhotoBundle.self) { result in
            completion(parked(result.map { $0?.parkedPath }))
          }
        } else if UTType(typeIdentifier)?.conforms(to: .movie) == true {
          loading = box.item.loadTransferable(type: ReceivedMovieFile.self) { result in
            completion(parked(result.map { $0?.parkedPath }))
          }
        } else {
          loading = box.item.loadTransferable(type: ReceivedImageFile.self) { result in
            completion(parked(result.map { $0?.parkedPath }))
          }
        }
        return ProgressLoad(loading, progress: progress)
      }
    }

    /// `loadTransferable` gives nil when the item has no representation of the type.
    private static func parked(_ result: Result<String?, any Error>) -> Result<String, any Error> {
      result.flatMap { path in
        path.map { .success($0) }
          ?? .failure(
            Importer.Error.conversionFailed(reason: "the picker could not provide it as a file of this kind"))
      }
    }

    /// Carries the item into the `@Sendable` lending closure.
    private struct ItemBox: @unchecked Sendable {
      // @unchecked: PhotosPickerItem is an immutable value (an identifier and a list of types) that the SDK
      // does not mark Sendable; only `loadTransferable(type:completionHandler:)` is called on it, which starts
      // work on the system's queues and calls back on them.
      let item: PhotosPickerItem
    }
  }
#endif
