/// How an app configures the system photo picker for importing, in portable terms; `PhotoIntakeUI` turns it
/// into a `PHPickerConfiguration` or `PhotosPicker` arguments.
///
/// The defaults are the ones an importing app wants, not PhotoKit's: any number of items, in the order the user
/// tapped them (`.ordered`), the current representation so that HEIC and HDR are not transcoded
/// (`preferredAssetRepresentationMode = .current`, `preferredItemEncoding: .current`), with the photo library so
/// that results carry asset identifiers and a later session can show them as preselected.
public struct PickerOptions: Sendable, Hashable {
  /// Which assets the picker shows (`PHPickerFilter`).
  public indirect enum Filter: Sendable, Hashable {
    /// Images, videos or Live Photos (`PHPickerFilter.images`, `.videos`, `.livePhotos`).
    case images, videos, livePhotos
    /// iOS 15+.
    case screenshots, screenRecordings, panoramas, slomoVideos, timelapseVideos
    /// iOS 16+.
    case bursts, depthEffectPhotos, cinematicVideos
    /// Assets matching any of the filters.
    case any(of: [Filter])
    /// Assets matching all of the filters (iOS 15+).
    case all(of: [Filter])
    /// Assets not matching the filter (iOS 15+).
    case not(Filter)
  }

  /// Which representation item providers offer (`PHPickerConfiguration.AssetRepresentationMode`,
  /// `PhotosPickerItem.EncodingDisambiguationPolicy`).
  public enum Encoding: String, Sendable, Hashable, Codable, CaseIterable {
    /// The stored representation, without transcoding: HEIC stays HEIC, HEVC stays HEVC.
    case current
    /// The most compatible representation: HEIC is transcoded to JPEG, HEVC to H.264.
    case compatible
    /// The system decides; it may transcode.
    case automatic
  }

  /// The iOS 17 presentation of `PhotosPicker` (`PhotosPickerStyle`) and `PHPickerViewController`
  /// (`PHPickerConfiguration.mode`).
  public enum Style: String, Sendable, Hashable, Codable, CaseIterable {
    /// A sheet (all versions).
    case presentation
    /// Embedded in the app's own view (iOS 17).
    case inline
    /// Embedded as a single row (iOS 17).
    case compact
  }

  /// Parts of the picker's own interface that can be hidden (`PHPickerCapabilities`, iOS 17).
  public struct Capabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The search field.
    public static let search = Capabilities(rawValue: 1 << 0)
    /// The staging area that shows the selection.
    public static let stagingArea = Capabilities(rawValue: 1 << 1)
    /// Navigation between collections (albums).
    public static let collectionNavigation = Capabilities(rawValue: 1 << 2)
    /// Selection actions such as Select All.
    public static let selectionActions = Capabilities(rawValue: 1 << 3)
    /// The Sensitive Content Analysis intervention.
    public static let sensitivityAnalysisIntervention = Capabilities(rawValue: 1 << 4)
  }

  /// nil shows every asset.
  public var filter: Filter?
  /// The most items the user may pick; 0 means no limit (PhotoKit's own default is 1).
  public var selectionLimit = 0
  /// Results in the order the user tapped them, shown as numbered badges.
  public var ordered = true
  /// Deliver the selection as it changes rather than when the user taps Add (iOS 17; for inline and compact
  /// styles).
  public var continuous = false
  /// Which representation the picker delivers; `.current` avoids transcoding.
  public var encoding = Encoding.current
  /// How the picker is shown.
  public var style = Style.presentation
  /// Capabilities to disable (iOS 17).
  public var disabledCapabilities: Capabilities = []
  /// Hide the picker's navigation and tool bars (iOS 17, `photosPickerAccessoryVisibility(.hidden)`), for an
  /// inline picker that the app frames itself.
  public var hidesAccessories = false
  /// Give the picker the shared photo library, so that results carry asset identifiers (no permission is
  /// needed or asked for). Without it, nothing can be preselected.
  public var usesPhotoLibrary = true
  /// What becomes of Live Photos.
  public var livePhotos = LivePhotoPolicy.keepPair

  /// The defaults: no limit, ordered, current encoding, presented as a sheet, with the photo library.
  public init() {}

  /// The identifiers to preselect for `selection`, in its order; empty when PhotoKit would refuse them.
  ///
  /// `preselectedAssetIdentifiers` "should be an empty array if `selectionLimit` is 1 or `photoLibrary` is not
  /// specified" (PHPicker.h). A selection larger than the limit is not preselected either: the picker would
  /// open with Add disabled until the user deselects. When this is empty, merge the session into an empty
  /// selection (the results are then additions), not into `selection`, or its items would count as
  /// deselected.
  public func preselectedAssetIdentifiers(for selection: PhotoSelection) -> [String] {
    guard usesPhotoLibrary, selectionLimit != 1 else { return [] }
    let identifiers = selection.preselectedAssetIdentifiers
    guard selectionLimit == 0 || identifiers.count <= selectionLimit else { return [] }
    return identifiers
  }

  /// The selection a session's results are merged into: `selection` when its items were preselected, else none
  /// (see ``preselectedAssetIdentifiers(for:)``).
  public func mergeBase(for selection: PhotoSelection) -> PhotoSelection {
    preselectedAssetIdentifiers(for: selection).isEmpty && !selection.preselectedAssetIdentifiers.isEmpty
      ? PhotoSelection() : selection
  }

  /// The selection after a session whose results were merged into ``mergeBase(for:)``.
  ///
  /// When `previous` was preselected, the picker returned the whole new selection, so the outcome is it. When it
  /// could not be (no photo library, a limit of 1, more items than the limit), the session's picks are
  /// additions: appended to `previous`, or replacing it under a limit of 1 (a profile photo); a session that
  /// picked nothing (Cancel) leaves `previous` as it was.
  public func selection(after outcome: PhotoSelection, previous: PhotoSelection) -> PhotoSelection {
    guard mergeBase(for: previous) != previous else { return outcome }
    if outcome.items.isEmpty { return previous }
    if selectionLimit == 1 { return outcome }
    return PhotoSelection(items: previous.items + outcome.items)
  }

  /// The selection after a session that started from `previous`, when the app replaced the selection with
  /// `current` while the session's import ran (it removed or reordered items, or restored a saved selection).
  ///
  /// The app's edits are not undone: what it removed stays removed and what it has keeps its order (and what it
  /// added stays). The session's own changes still apply: items the user deselected in the picker go, and newly
  /// picked items follow in the picker's order. When the app changed nothing, this is
  /// ``selection(after:previous:)``; under a limit of 1, a session that picked an item replaces the selection.
  public func selection(
    after outcome: PhotoSelection, previous: PhotoSelection, current: PhotoSelection
  ) -> PhotoSelection {
    let merged = selection(after: outcome, previous: previous)
    guard current != previous else { return merged }
    if selectionLimit == 1 { return outcome.items.isEmpty ? current : merged }
    let before = Set(previous.items)
    let after = Set(merged.items)
    var items = current.items.filter { after.contains($0) || !before.contains($0) }
    let kept = Set(items)
    items += merged.items.filter { !before.contains($0) && !kept.contains($0) }
    return PhotoSelection(items: items)
  }

  /// The newest iOS version the options need, when they need more than iOS 16 (the package's minimum), so an
  /// app can tell why a setting had no effect on an older system.
  public var requiredIOSVersion: Int {
    var version = 16
    if continuous || style != .presentation || !disabledCapabilities.isEmpty || hidesAccessories {
      version = 17
    }
    return version
  }
}
