import PhotoIntake

/// The system photo picker of a simulated device, like `PHPickerViewController`.
///
/// It needs no photo-library authorization and shows every asset on the device, whatever the app's access
/// (WWDC20 "Meet the new Photos picker"). A test presents it with a configuration, taps through the returned
/// ``SimulatedPickerSession`` as the user would, and gets results that behave like `PHPickerResult`s.
///
/// ```swift
/// let picker = SimulatedPicker(device: library)
/// var configuration = SimulatedPickerConfiguration(photoLibrary: library)
/// configuration.selectionLimit = 0
/// configuration.selection = .ordered
/// let results = try picker.present(configuration).pick([second, first])
/// ```
public struct SimulatedPicker: Sendable {
  /// Why the picker refused what the test asked of it.
  public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
    /// Preselection needs a configuration made with a photo library; PhotoKit reports an error otherwise.
    case preselectionRequiresPhotoLibrary
    /// The configuration's library is another device's.
    case libraryMismatch
    /// No asset on the device has this identifier.
    case noSuchAsset(String)
    /// The filter hides this asset, so the user cannot tap it.
    case filteredOut(String)
    /// The selection is at the limit.
    case selectionLimitReached(Int)
    /// More assets are selected than the limit (possible through preselection): Done is disabled.
    case doneDisabled(selected: Int, limit: Int)
    /// The session already ended.
    case sessionEnded

    public var description: String {
      switch self {
      case .preselectionRequiresPhotoLibrary:
        "Preselected identifiers need a configuration made with a photo library; use init(photoLibrary:)."
      case .libraryMismatch:
        "The configuration's photo library is not the one this picker shows."
      case .noSuchAsset(let identifier):
        "No asset with the identifier \(identifier) is on the device."
      case .filteredOut(let identifier):
        "The picker's filter hides the asset \(identifier), so the user cannot select it."
      case .selectionLimitReached(let limit):
        "The selection limit (\(limit)) is reached; deselect an asset first."
      case .doneDisabled(let selected, let limit):
        "\(selected) assets are selected, more than the limit of \(limit): Done is disabled until some are deselected."
      case .sessionEnded:
        "The picker was already dismissed."
      }
    }
  }

  /// The device whose library the picker shows.
  public let device: SimulatedPhotoLibrary

  /// The picker of `device`.
  public init(device: SimulatedPhotoLibrary) { self.device = device }

  /// Presents the picker.
  ///
  /// - Throws: ``Error/preselectionRequiresPhotoLibrary`` when the configuration preselects assets but was made
  ///   without a library.
  public func present(_ configuration: SimulatedPickerConfiguration) throws(Error) -> SimulatedPickerSession {
    if let library = configuration.photoLibrary, library !== device { throw .libraryMismatch }
    if !configuration.preselectedAssetIdentifiers.isEmpty, configuration.photoLibrary == nil {
      throw .preselectionRequiresPhotoLibrary
    }
    return SimulatedPickerSession(device: device, configuration: configuration)
  }
}
