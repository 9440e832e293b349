/// Something an app does with photos, for deciding the least access and the Info.plist keys it needs.
///
/// ```swift
/// let level = PhotoFeature.leastAccess(for: [.pick, .save])   // .addOnly
/// let keys = PhotoFeature.usageDescriptionKeys(for: [.pick, .save])   // [.photoLibraryAdd]
/// ```
public enum PhotoFeature: String, Sendable, Hashable, Codable, CaseIterable {
  /// Let the user pick photos with the system picker (`PHPickerViewController`, `PhotosPicker`).
  case pick
  /// Save new photos or videos to the user's library.
  case save
  /// Save into an album the app creates. PhotoKit lets only read-write access create and fetch albums.
  case saveToAlbum
  /// Show the user's library (or their limited selection) in the app's own grid.
  case browse
  /// Take photos with the camera.
  case capturePhoto
  /// Record videos with sound.
  case captureVideo

  /// The least photo-library access the feature needs.
  ///
  /// Picking needs none: the picker is out of process and returns only what the user chose (WWDC20 "Meet the
  /// new Photos picker"). Saving needs add-only (WWDC20 "Handle the Limited Photos Library in your app").
  /// Capturing needs the camera, not the library; saving the capture is a separate ``save``.
  public var leastAccess: PhotoAccessLevel {
    switch self {
    case .pick, .capturePhoto, .captureVideo: .none
    case .save: .addOnly
    case .saveToAlbum, .browse: .readWrite
    }
  }

  /// The Info.plist usage descriptions the feature needs; without one, iOS terminates the app when it asks.
  public var usageDescriptionKeys: [UsageDescriptionKey] {
    switch self {
    case .pick: []
    case .save: [.photoLibraryAdd]
    case .saveToAlbum, .browse: [.photoLibrary]
    case .capturePhoto: [.camera]
    case .captureVideo: [.camera, .microphone]
    }
  }

  /// The least access for a set of features: the most any one of them needs.
  public static func leastAccess(for features: some Sequence<PhotoFeature>) -> PhotoAccessLevel {
    features.map(\.leastAccess).max() ?? .none
  }

  /// Every usage description key the features need, each once, in ``UsageDescriptionKey`` order.
  public static func usageDescriptionKeys(for features: some Sequence<PhotoFeature>) -> [UsageDescriptionKey]
  {
    let needed = Set(features.flatMap(\.usageDescriptionKeys))
    return UsageDescriptionKey.allCases.filter(needed.contains)
  }
}
