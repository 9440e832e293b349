import Foundation
import PhotoIntake

/// A photo or video in a ``SimulatedPhotoLibrary``, as the app sees it through a fetch (`PHAsset`).
///
/// A value: fetch results hold snapshots, and a change produces new values (`OrderedChanges` compares them).
public struct SimulatedAsset: Sendable, Hashable, Identifiable {
  /// What kind of media, with the subtypes PhotoKit filters on (`PHAssetMediaSubtype`, `PHPickerFilter`).
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Photo kinds: a still, a Live Photo, and the subtypes PhotoKit filters on.
    case photo, livePhoto, screenshot, burst, panorama, depthEffect
    /// Video kinds: a video and its subtypes.
    case video, slomo, timelapse, cinematic, screenRecording

    /// Still images (Live Photos included); the rest are videos.
    public var isImage: Bool {
      switch self {
      case .photo, .livePhoto, .screenshot, .burst, .panorama, .depthEffect: true
      default: false
      }
    }
  }

  /// The device-specific identifier (`PHAsset.localIdentifier`), e.g. `0000000A-…-000000000003/L0/001`.
  public var localIdentifier: String
  /// What kind of media it is.
  public var kind: Kind
  /// The name shown for the asset, like `PHAssetResource.originalFilename`.
  public var filename: String
  /// When it was taken (`PHAsset.creationDate`).
  public var creationDate: Date
  /// Whether the user marked it a favourite.
  public var isFavorite: Bool
  /// Whether the full-size original is on the device; false for "Optimize iPhone Storage" assets that must be
  /// downloaded from iCloud first.
  public var isLocallyAvailable: Bool
  /// Bumped by each edit of the asset's content (PhotoKit reports edits as changes).
  public var revision: Int

  public var id: String { localIdentifier }
}

/// One stored representation of an asset: its bytes and what they are.
public struct SimulatedResource: Sendable, Hashable {
  /// The Uniform Type Identifier (`public.heic`, `com.apple.quicktime-movie`…).
  public var typeIdentifier: String
  /// The resource's file name (`PHAssetResource.originalFilename`).
  public var filename: String
  /// The resource's bytes.
  public var bytes: [UInt8]

  /// A resource of the given type, name and bytes.
  public init(typeIdentifier: String, filename: String, bytes: [UInt8]) {
    self.typeIdentifier = typeIdentifier
    self.filename = filename
    self.bytes = bytes
  }
}

/// What to put into a ``SimulatedPhotoLibrary``: the asset's kind, date, and resources.
///
/// ```swift
/// let id = library.add(.photo(format: .heic))                       // IMG_0001.HEIC, on the device
/// let inCloud = library.add(.video(), storage: .iCloudOnly)          // must be downloaded to be read
/// ```
public struct AssetFixture: Sendable {
  /// Still formats the builders make.
  public enum StillFormat: Sendable, Hashable {
    /// HEIC, JPEG or PNG.
    case heic, jpeg, png
  }

  /// What kind of media it is.
  public var kind: SimulatedAsset.Kind
  /// The name; nil lets the library number it (`IMG_0001`).
  public var name: String?
  /// nil lets the library date it a minute after its newest asset.
  public var creationDate: Date?
  /// Whether the user marked it a favourite.
  public var isFavorite = false
  /// The original: what `.current` returns.
  public var original: SimulatedResource
  /// What `.compatible` returns when it differs from the original (JPEG for HEIC, MPEG-4 for QuickTime).
  public var compatible: SimulatedResource?
  /// A Live Photo's movie.
  public var pairedVideo: SimulatedResource?

  /// A fixture of the given kind and resources.
  public init(
    kind: SimulatedAsset.Kind, name: String? = nil, creationDate: Date? = nil, original: SimulatedResource,
    compatible: SimulatedResource? = nil, pairedVideo: SimulatedResource? = nil
  ) {
    self.kind = kind
    self.name = name
    self.creationDate = creationDate
    self.original = original
    self.compatible = compatible
    self.pairedVideo = pairedVideo
  }

  /// A still photo. HEIC photos carry a JPEG rendition for `.compatible`.
  public static func photo(
    _ name: String? = nil, format: StillFormat = .heic, width: Int = 8, height: Int = 8, date: Date? = nil,
    kind: SimulatedAsset.Kind = .photo
  ) -> AssetFixture {
    // Named fixtures are reproducible (same name, same bytes); unnamed ones are unique.
    let seed = (name ?? UUID().uuidString) + "-\(kind.rawValue)"
    switch format {
    case .heic:
      return AssetFixture(
        kind: kind, name: name, creationDate: date,
        original: SimulatedResource(
          typeIdentifier: "public.heic", filename: "",
          bytes: Fixtures.heic(width: width, height: height, seed: seed)),
        compatible: SimulatedResource(
          typeIdentifier: "public.jpeg", filename: "",
          bytes: Fixtures.jpeg(width: width, height: height, seed: seed)))
    case .jpeg:
      return AssetFixture(
        kind: kind, name: name, creationDate: date,
        original: SimulatedResource(
          typeIdentifier: "public.jpeg", filename: "",
          bytes: Fixtures.jpeg(width: width, height: height, seed: seed)))
    case .png:
      return AssetFixture(
        kind: kind, name: name, creationDate: date,
        original: SimulatedResource(
          typeIdentifier: "public.png", filename: "",
          bytes: Fixtures.png(width: width, height: height, seed: seed)))
    }
  }

  /// A Live Photo: a HEIC still and its paired QuickTime movie.
  public static func livePhoto(_ name: String? = nil, date: Date? = nil) -> AssetFixture {
    var fixture = photo(name, format: .heic, date: date, kind: .livePhoto)
    fixture.pairedVideo = SimulatedResource(
      typeIdentifier: "com.apple.quicktime-movie", filename: "",
      bytes: Fixtures.quickTimeMovie(seed: "live-" + (name ?? UUID().uuidString)))
    return fixture
  }

  /// A screenshot (PNG).
  public static func screenshot(_ name: String? = nil, date: Date? = nil) -> AssetFixture {
    photo(name, format: .png, date: date, kind: .screenshot)
  }

  /// A video: HEVC in QuickTime, with an H.264 MPEG-4 rendition for `.compatible`.
  public static func video(
    _ name: String? = nil, date: Date? = nil, kind: SimulatedAsset.Kind = .video, seconds: Int = 3
  ) -> AssetFixture {
    let seed = (name ?? UUID().uuidString) + "-\(kind.rawValue)"
    return AssetFixture(
      kind: kind, name: name, creationDate: date,
      original: SimulatedResource(
        typeIdentifier: "com.apple.quicktime-movie", filename: "",
        bytes: Fixtures.quickTimeMovie(seed: seed, duration: seconds)),
      compatible: SimulatedResource(
        typeIdentifier: "public.mpeg-4", filename: "",
        bytes: Fixtures.mpeg4Movie(seed: seed, duration: seconds)))
  }

  /// Any kind, with the usual format for it.
  public static func of(_ kind: SimulatedAsset.Kind, _ name: String? = nil, date: Date? = nil) -> AssetFixture
  {
    switch kind {
    case .livePhoto: livePhoto(name, date: date)
    case .screenshot: screenshot(name, date: date)
    case .photo, .burst, .panorama, .depthEffect: photo(name, date: date, kind: kind)
    case .video, .slomo, .timelapse, .cinematic, .screenRecording: video(name, date: date, kind: kind)
    }
  }
}
