import Foundation

/// A provider whose files are lent by a closure that has already parked them with ``ReceivedFileHandOver``:
/// the shape of `PhotosPickerItem.loadTransferable(type:completionHandler:)`, whose `Transferable` import
/// closure must keep the received file before it returns.
///
/// It restores `loadFileRepresentation`'s contract for ``ProviderItemSource``: the parked file is passed to the
/// completion handler and released as soon as the handler returns, so the import adopts it there, and nothing
/// is left in the hand-over folder.
public struct ParkedFileProvider: FileRepresentationProviding {
  /// Starts lending the representation of a type: calls `completion` once with the parked path (from
  /// ``ReceivedFileHandOver/park(itemAt:)``) or the error.
  public typealias Lend =
    @Sendable (
      _ typeIdentifier: String, _ progress: @escaping @Sendable (Double) -> Void,
      _ completion: @escaping @Sendable (Result<String, any Error>) -> Void
    ) -> any FileRepresentationLoad

  public let registeredTypeIdentifiers: [String]
  public let suggestedName: String?
  /// Where the lent files are parked.
  public let handOver: ReceivedFileHandOver
  private let lend: Lend

  /// A provider that offers `registeredTypeIdentifiers` and lends parked files through `lend`.
  public init(
    registeredTypeIdentifiers: [String], suggestedName: String?, handOver: ReceivedFileHandOver = .shared,
    lend: @escaping Lend
  ) {
    self.registeredTypeIdentifiers = registeredTypeIdentifiers
    self.suggestedName = suggestedName
    self.handOver = handOver
    self.lend = lend
  }

  public func loadFileRepresentation(
    forTypeIdentifier typeIdentifier: String, progress: @escaping @Sendable (Double) -> Void,
    completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void
  ) -> any FileRepresentationLoad {
    let handOver = handOver
    return lend(typeIdentifier, progress) { result in
      switch result {
      case .success(let parked):
        completionHandler(URL(fileURLWithPath: parked), nil)
        handOver.release(parked)
      case .failure(let error):
        completionHandler(nil, error)
      }
    }
  }
}
