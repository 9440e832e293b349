import Foundation

/// A picker result's item provider as an ``ItemSource``: the adapter behind both the UIKit and the SwiftUI
/// pickers of `PhotoIntakeUI`.
///
/// It loads the least-derived registered representation (``RepresentationChoice``), so a HEIC stays HEIC and a
/// RAW stays RAW; hands the file to the staging sink **inside** the completion handler with
/// ``StagingSink/adoptFile(atPath:)`` (a hard link, so a 4 GB video is not copied, and no hashing, which the
/// importer does after the handler returned, so the provider's temporary folder is not held for seconds);
/// forwards the load's progress
/// (iCloud downloads) to the sink; cancels the load when the import is cancelled; and maps provider errors with
/// ``Importer/Error/init(providerError:)``.
///
/// ```swift
/// let sources = results.map { ProviderItemSource(provider: ItemProviderAdapter($0.itemProvider)) }
/// let summary = await importer.importItems(sources)
/// ```
public struct ProviderItemSource: ItemSource {
  /// The provider the file is loaded from.
  public let provider: any FileRepresentationProviding
  /// The type to load; nil lets ``RepresentationChoice`` choose among the registered types.
  public let typeIdentifier: String?

  /// A source that loads `typeIdentifier` (or the best registered type) from `provider`.
  public init(provider: any FileRepresentationProviding, typeIdentifier: String? = nil) {
    self.provider = provider
    self.typeIdentifier = typeIdentifier
  }

  public var suggestedName: String? { provider.suggestedName }

  /// The type that will be loaded: compared with the bytes afterwards, never trusted.
  public var typeHints: [String] { chosenType.map { [$0] } ?? [] }

  /// The type ``deliver(to:)`` asks for.
  public var chosenType: String? {
    typeIdentifier ?? RepresentationChoice.preferredTypeIdentifier(among: provider.registeredTypeIdentifiers)
  }

  public func deliver(to sink: StagingSink) async throws(Importer.Error) {
    guard let type = chosenType else {
      // PHPickerConfiguration.preselectedAssetIdentifiers: "Returned item providers for preselected assets are
      // always empty." SelectionMerge reuses those; one reaching here has nothing to load.
      throw .itemUnavailable(reason: "the picker returned this item without anything to load")
    }
    try await ScopedFileLoad.perform(provider, typeIdentifier: type, progress: { sink.reportProgress($0) }) {
      url throws(Importer.Error) in
      try sink.adoptFile(atPath: url.path)
    }
  }
}
