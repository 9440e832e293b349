/// How a ``SimulatedPicker`` is configured, like `PHPickerConfiguration`.
public struct SimulatedPickerConfiguration: Sendable {
  /// How results are ordered and when they are delivered (`PHPickerConfiguration.Selection`).
  public enum Selection: Sendable, Hashable {
    /// Results in the library's order, whatever order the user tapped.
    case `default`
    /// Results in the order the user selected them, shown as numbered badges (iOS 15).
    case ordered
  }

  /// Which representation item providers offer (`PHPickerConfiguration.AssetRepresentationMode`).
  public enum AssetRepresentationMode: Sendable, Hashable {
    /// The system chooses; the simulator offers the original first, like ``current``.
    case automatic
    /// The current representation, without transcoding: a HEIC photo stays HEIC.
    case current
    /// The most compatible representation: HEIC is transcoded to JPEG, HEVC video to H.264 MPEG-4.
    case compatible
  }

  /// The library the configuration was made with (`init(photoLibrary:)`); only then do results carry asset
  /// identifiers and does preselection work.
  public let photoLibrary: SimulatedPhotoLibrary?
  /// Which assets are shown; nil shows all.
  public var filter: SimulatedPickerFilter?
  /// The most assets the user may select; 0 means no limit. Default 1, as PhotoKit's.
  public var selectionLimit = 1
  /// `.ordered` returns results in tap order; `.default` in library order.
  public var selection: Selection = .default
  /// Assets selected when the picker opens (`preselectedAssetIdentifiers`).
  public var preselectedAssetIdentifiers: [String] = []
  /// Which representation results offer: `.current` keeps the original, `.compatible` transcodes.
  public var preferredAssetRepresentationMode: AssetRepresentationMode = .automatic

  /// A configuration without a photo library (`PHPickerConfiguration()`): results have no asset identifiers.
  public init() { photoLibrary = nil }

  /// A configuration for a photo library (`PHPickerConfiguration(photoLibrary:)`).
  public init(photoLibrary: SimulatedPhotoLibrary) { self.photoLibrary = photoLibrary }
}
