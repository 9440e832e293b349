import Foundation
import PhotoIntake

/// An asset with everything the device stores for it.
struct StoredAsset: Sendable {
  var asset: SimulatedAsset
  var original: SimulatedResource
  var compatible: SimulatedResource?
  var pairedVideo: SimulatedResource?
  var cloudIdentifier: CloudIdentifier?
  var createdByApp: Bool
  /// The rendering of the latest edit (`.fullSizePhoto` / `.fullSizeVideo`); nil until edited.
  var rendered: SimulatedResource?
  /// A Live Photo's edited movie (`.fullSizePairedVideo`).
  var renderedPairedVideo: SimulatedResource?
  /// Saved from a camera's deferred proxy: `original` is the proxy until Photos finishes processing.
  var deferred: DeferredProcessing?
}

/// Where Photos is with an asset saved from a deferred proxy.
enum DeferredProcessing: Sendable {
  /// Processing; this is the photo it will become.
  case processing(final: SimulatedResource)
  /// Processing ended without a readable photo: the asset lists its `.photo`, whose read fails.
  case failed
}

/// An album (`PHAssetCollection` of type `.album`).
struct StoredAlbum: Sendable {
  var localIdentifier: String
  var title: String
  var createdByApp: Bool
  var assets: [String]
}

/// A queued download failure (see ``SimulatedPhotoLibrary/failDownloads(_:of:atFraction:times:)``).
struct DownloadFailureRule: Sendable {
  var failure: SimulatedPhotoLibrary.DownloadFailure
  var localIdentifier: String?
  var atFraction: Double
  var remaining: Int?
}

extension SimulatedPhotoLibrary {
  /// Everything a device holds, behind one lock.
  struct State: Sendable {
    var assets: [String: StoredAsset] = [:]
    var order: [String] = []
    var albums: [String: StoredAlbum] = [:]
    var albumOrder: [String] = []
    var counter = 0
    var lastDate = Date(timeIntervalSince1970: 1_700_000_000)

    var readWrite: AuthorizationStatus = .notDetermined
    var addOnly: AuthorizationStatus = .notDetermined
    var restricted = false
    var limitedSelection: [String] = []
    var promptAnswers: [SimulatedUser.PromptAnswer] = []
    var pendingPrompts: [CheckedContinuation<SimulatedUser.PromptAnswer, Never>] = []
    var limitedPickerAnswers: [SimulatedUser.LimitedPickerAnswer] = []
    var pendingLimitedPickers: [CheckedContinuation<SimulatedUser.LimitedPickerAnswer, Never>] = []

    var isOnline = true
    var iCloud: SimulatedPhotoLibrary.ICloudStatus = .available
    var freeSpace: Int64 = 0
    var downloadFailures: [DownloadFailureRule] = []
    var downloadObservers: [@Sendable (String, Double) -> Void] = []
    var expiredFiles: [String] = []
    var temporaryCounter = 0

    var observers: [UUID: AsyncStream<SimulatedLibraryChange>.Continuation] = [:]
    var changeCount = 0

    /// The status PhotoKit reports for a level. Read-write access implies add-only access.
    func status(for level: PhotoAccessLevel) -> AuthorizationStatus {
      if restricted { return .restricted }
      switch level {
      case .none: return .authorized
      case .addOnly: return readWrite.isGranted ? .authorized : addOnly
      case .readWrite: return readWrite
      }
    }

    /// Whether the app may read this asset through the library.
    func canRead(_ identifier: String) -> Bool {
      guard !restricted, assets[identifier] != nil else { return false }
      switch readWrite {
      case .authorized: return true
      case .limited: return limitedSelection.contains(identifier)
      default: return false
      }
    }

    /// What the app can see, frozen.
    var world: SimulatedWorld {
      let readable = order.filter(canRead)
      var visible: [String: SimulatedAsset] = [:]
      for identifier in readable { visible[identifier] = assets[identifier]!.asset }
      let albumsVisible = albumOrder.compactMap { albums[$0] }.filter { album in
        guard !restricted else { return false }
        switch readWrite {
        case .authorized: return true
        // Limited access sees only the albums the app created (WWDC21 "Improve access to Photos in your app").
        case .limited: return album.createdByApp
        default: return false
        }
      }
      var albumMembers: [String: [String]] = [:]
      for album in albumsVisible {
        albumMembers[album.localIdentifier] = album.assets.filter { visible[$0] != nil }
      }
      return SimulatedWorld(order: readable, assets: visible, albums: albumMembers)
    }
  }
}

/// The library as the app could see it at one moment: the basis of fetch results and change details.
struct SimulatedWorld: Sendable {
  var order: [String]
  var assets: [String: SimulatedAsset]
  var albums: [String: [String]]

  func evaluate(_ query: SimulatedFetchResult.Query) -> [SimulatedAsset] {
    var identifiers: [String]
    if let album = query.album {
      identifiers = albums[album] ?? []
    } else if let wanted = query.localIdentifiers {
      identifiers = wanted.filter { assets[$0] != nil }
    } else {
      identifiers = order
    }
    var result = identifiers.compactMap { assets[$0] }
    if let kinds = query.kinds { result = result.filter { kinds.contains($0.kind) } }
    switch query.sort {
    case .libraryOrder: break
    case .creationDate(let ascending):
      // Stable by identifier for equal dates, as a fetch with one sort descriptor is in practice.
      result.sort { lhs, rhs in
        lhs.creationDate == rhs.creationDate
          ? lhs.localIdentifier < rhs.localIdentifier
          : (lhs.creationDate < rhs.creationDate) == ascending
      }
    }
    return result
  }
}

/// A fetch's assets, frozen at fetch time like a `PHFetchResult`.
public struct SimulatedFetchResult: Sendable, Hashable {
  /// What to fetch.
  public struct Query: Sendable, Hashable {
    /// The order of the fetched assets.
    public enum Sort: Sendable, Hashable {
      /// The order assets were added to the device.
      case libraryOrder
      /// By `creationDate` (PhotoKit's usual sort descriptor).
      case creationDate(ascending: Bool)
    }

    /// The order of the fetched assets.
    public var sort: Sort
    /// Only these assets (`fetchAssets(withLocalIdentifiers:options:)`).
    public var localIdentifiers: [String]?
    /// Only the assets of this album (`fetchAssets(in:options:)`).
    public var album: String?
    /// Only these kinds.
    public var kinds: Set<SimulatedAsset.Kind>?

    /// A query; the defaults fetch every visible asset, oldest first.
    public init(
      sort: Sort = .creationDate(ascending: true), localIdentifiers: [String]? = nil, album: String? = nil,
      kinds: Set<SimulatedAsset.Kind>? = nil
    ) {
      self.sort = sort
      self.localIdentifiers = localIdentifiers
      self.album = album
      self.kinds = kinds
    }
  }

  /// The query that made this result.
  public let query: Query
  /// The assets found, in the query's order.
  public let assets: [SimulatedAsset]

  /// The number of assets found.
  public var count: Int { assets.count }
  /// The assets' local identifiers, in order.
  public var localIdentifiers: [String] { assets.map(\.localIdentifier) }
}

/// One change of the library (`PHChange`): ask it for the details of each fetch result the app shows.
public struct SimulatedLibraryChange: Sendable {
  /// Increases by one with each change of the device.
  public let sequence: Int
  let world: SimulatedWorld

  /// How `result` changed (`PHChange.changeDetails(for:)`); nil when the change does not affect it.
  ///
  /// Assets are matched by local identifier; one whose favourite flag, date or content changed is reported in
  /// `OrderedChanges.changedIndexes` (when it did not also leave).
  public func changeDetails(for result: SimulatedFetchResult) -> OrderedChanges<SimulatedAsset>? {
    let after = world.evaluate(result.query)
    let earlier = Dictionary(result.assets.map { ($0.localIdentifier, $0) }, uniquingKeysWith: { a, _ in a })
    var changed = Set<String>()
    for asset in after {
      guard let old = earlier[asset.localIdentifier] else { continue }
      // Downloading an asset is not a change of the asset; editing, favouriting or re-dating it is.
      if old.revision != asset.revision || old.isFavorite != asset.isFavorite
        || old.creationDate != asset.creationDate
      {
        changed.insert(asset.localIdentifier)
      }
    }
    let details = OrderedChanges(from: result.assets, to: after, id: \.localIdentifier, changed: changed)
    return details.isEmpty ? nil : details
  }
}
