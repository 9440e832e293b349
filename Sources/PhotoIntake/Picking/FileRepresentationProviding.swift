import Foundation

/// What the import needs from an item provider: its registered types, a name, and a scoped file load.
///
/// `NSItemProvider` (the provider of a `PHPickerResult`), a `PhotosPickerItem` and the simulator's
/// `SimulatedItemProvider` are all adapted to this one shape, so that ``ProviderItemSource`` — which chooses the
/// type, hands the file over inside the completion handler, forwards progress and maps errors — is the same
/// code on a phone and in the Linux tests.
///
/// The contract is `NSItemProvider.loadFileRepresentation(forTypeIdentifier:completionHandler:)`'s: the
/// completion handler is called once, with a file URL or an error, and **the file is deleted when the handler
/// returns** ("Your program should copy or move the file within the completion handler", NSItemProvider.h).
public protocol FileRepresentationProviding: Sendable {
  /// The type identifiers the provider can load, in the order it registered them (best first, by convention).
  /// Empty for a preselected picker result that stayed selected.
  var registeredTypeIdentifiers: [String] { get }

  /// A name the user would recognise ("IMG_0001.HEIC"), if the provider has one.
  var suggestedName: String? { get }

  /// Starts loading the representation conforming to `typeIdentifier` into a temporary file.
  ///
  /// - Parameters:
  ///   - progress: called with 0…1 as the load advances (an iCloud download), from any thread.
  ///   - completionHandler: called once, from any thread, with the file (valid only until the handler
  ///     returns) or the error.
  /// - Returns: the running load, to cancel it.
  func loadFileRepresentation(
    forTypeIdentifier typeIdentifier: String,
    progress: @escaping @Sendable (Double) -> Void,
    completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void
  ) -> any FileRepresentationLoad
}

/// A load started by ``FileRepresentationProviding/loadFileRepresentation(forTypeIdentifier:progress:completionHandler:)``.
public protocol FileRepresentationLoad: Sendable {
  /// Stops the load (an iCloud download); its completion handler then reports an error, or is not called.
  func cancel()
}
