/// Which assets the picker shows, like `PHPickerFilter`: basic filters combined with ``any(of:)``,
/// ``all(of:)`` and ``not(_:)``.
///
/// ```swift
/// let filter = SimulatedPickerFilter.all(of: [.images, .not(.screenshots)])
/// ```
public indirect enum SimulatedPickerFilter: Sendable, Hashable {
  /// Still images (`.images`); the simulator counts Live Photos as images, as the picker shows them.
  case images
  /// Videos (`.videos`).
  case videos
  /// Live Photos (`.livePhotos`).
  case livePhotos
  /// Screenshots (`.screenshots`).
  case screenshots
  /// Bursts (`.bursts`).
  case bursts
  /// Panoramas (`.panoramas`).
  case panoramas
  /// Portrait photos (`.depthEffectPhotos`).
  case depthEffectPhotos
  /// Slow-motion videos (`.slomoVideos`).
  case slomoVideos
  /// Time-lapse videos (`.timelapseVideos`).
  case timelapseVideos
  /// Cinematic videos (`.cinematicVideos`).
  case cinematicVideos
  /// Screen recordings (`.screenRecordings`).
  case screenRecordings
  /// Assets that match at least one filter.
  case any(of: [SimulatedPickerFilter])
  /// Assets that match every filter.
  case all(of: [SimulatedPickerFilter])
  /// Assets that do not match the filter.
  case not(SimulatedPickerFilter)

  /// Whether the picker shows the asset.
  public func matches(_ asset: SimulatedAsset) -> Bool {
    switch self {
    case .images: asset.kind.isImage
    case .videos: !asset.kind.isImage
    case .livePhotos: asset.kind == .livePhoto
    case .screenshots: asset.kind == .screenshot
    case .bursts: asset.kind == .burst
    case .panoramas: asset.kind == .panorama
    case .depthEffectPhotos: asset.kind == .depthEffect
    case .slomoVideos: asset.kind == .slomo
    case .timelapseVideos: asset.kind == .timelapse
    case .cinematicVideos: asset.kind == .cinematic
    case .screenRecordings: asset.kind == .screenRecording
    case .any(let filters): filters.contains { $0.matches(asset) }
    case .all(let filters): filters.allSatisfy { $0.matches(asset) }
    case .not(let filter): !filter.matches(asset)
    }
  }
}
