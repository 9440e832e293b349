import Foundation
import PhotoIntake

/// A photo library that behaves like PhotoKit's, for tests that run anywhere.
///
/// One instance is one device's library. It holds assets with per-device local identifiers, an authorization
/// state that changes only through scripted user actions (``user``), a limited selection, albums, iCloud-only
/// assets that download with progress, latency and injectable failures, and change notifications with change
/// details. Join several devices to one ``SimulatedICloud`` to get cloud identifiers that find the same photo
/// everywhere.
///
/// ```swift
/// let library = SimulatedPhotoLibrary()
/// let photo = library.add(.photo("IMG_0001", format: .heic))
/// library.user.willAnswerNextPrompt(.selectPhotos([photo]))
/// let status = await library.requestAuthorization(for: .readWrite)    // .limited
/// ```
///
/// Everything the simulator copies from PhotoKit, and the documentation or WWDC session it copies it from, is
/// listed in the PhotoIntakeTesting documentation catalog.
public final class SimulatedPhotoLibrary: Sendable {
  /// How the device behaves.
  public struct Configuration: Sendable {
    /// Names the device in identifiers and timelines.
    public var deviceName = "iPhone"
    /// The number in this device's local identifiers (`0000000A-…`); distinct devices should differ.
    public var deviceNumber: Int = Int.random(in: 1...0xFFFF)
    /// Where item providers write the temporary files they hand to completion handlers.
    public var temporaryDirectory: String =
      NSTemporaryDirectory() + "PhotoIntakeSimulator-" + UUID().uuidString
    /// Bytes free on the device for iCloud downloads.
    public var freeSpace: Int64 = 64 << 30
    /// How iCloud downloads and transcoding take time.
    public var timing = Timing()

    /// The defaults described on each property.
    public init() {}
  }

  /// Simulated durations, on ``clock``.
  public struct Timing: Sendable {
    /// Before the first byte of an iCloud download arrives.
    public var downloadLatency: Duration = .milliseconds(120)
    /// How many progress steps a download reports.
    public var downloadSteps = 4
    /// The time each step takes.
    public var stepDuration: Duration = .milliseconds(80)
    /// Transcoding to a compatible format (HEIC → JPEG, HEVC → H.264).
    public var transcoding: Duration = .milliseconds(60)

    /// The default timings described on each property.
    public init() {}
  }

  /// Why a library operation failed, as PhotoKit would refuse it.
  public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
    /// The app's access does not allow this (`PHPhotosError.accessUserDenied`, 3311).
    case accessDenied
    /// Access is restricted on the device (`PHPhotosError.accessRestricted`, 3310).
    case accessRestricted
    /// No asset or album has this identifier, or the app may not see it (`identifierNotFound`, 3201).
    case notFound(String)

    public var description: String {
      switch self {
      case .accessDenied:
        "The app's photo library access does not allow this. Ask for the access the feature needs."
      case .accessRestricted:
        "Photo library access is restricted on this device; the user cannot grant it."
      case .notFound(let identifier):
        "No photo or album with the identifier \(identifier) is visible to the app."
      }
    }
  }

  /// The clock downloads and transcoding sleep on.
  public let clock: SimulatedClock
  /// The device's configuration.
  public let configuration: Configuration
  /// The iCloud account the device is signed in to, if any.
  public let account: SimulatedICloud?

  let state: Protected<State>

  /// A device, optionally signed in to `account` (its assets are then uploaded and get cloud identifiers).
  public init(
    configuration: Configuration = Configuration(), account: SimulatedICloud? = nil,
    clock: SimulatedClock = SimulatedClock()
  ) {
    self.configuration = configuration
    self.account = account
    self.clock = clock
    var initial = State()
    initial.freeSpace = configuration.freeSpace
    state = Protected(initial)
    try? FileManager.default.createDirectory(
      atPath: configuration.temporaryDirectory, withIntermediateDirectories: true)
    account?.join(self)
  }

  /// The scripted user of this device: answers prompts, changes Settings, edits the limited selection.
  public var user: SimulatedUser { SimulatedUser(library: self) }

  // MARK: Adding assets

  /// Where an added asset's original is.
  public enum Storage: Sendable, Hashable {
    /// On the device.
    case local
    /// In iCloud only ("Optimize iPhone Storage"): reading it downloads it first.
    case iCloudOnly
  }

  /// Adds an asset as if the Camera app had saved it (not created by the app: in limited mode the app does not
  /// see it until the user selects it).
  ///
  /// - Parameters:
  ///   - uploaded: whether iCloud Photos has uploaded it yet (only then has it a cloud identifier).
  /// - Returns: its local identifier.
  @discardableResult
  public func add(_ fixture: AssetFixture, storage: Storage = .local, uploaded: Bool = true) -> String {
    let identifier = insert(fixture, storage: storage, createdByApp: false, cloudIdentifier: nil)
    if uploaded { account?.upload(from: self, localIdentifier: identifier) }
    return identifier
  }

  /// Adds several assets; returns their local identifiers in order.
  @discardableResult
  public func add(_ fixtures: [AssetFixture], storage: Storage = .local) -> [String] {
    fixtures.map { add($0, storage: storage) }
  }

  func insert(
    _ fixture: AssetFixture, storage: Storage, createdByApp: Bool, cloudIdentifier: CloudIdentifier?
  ) -> String {
    let number = configuration.deviceNumber
    return mutate { state in
      state.counter += 1
      let identifier = String(format: "%08X-0000-4000-8000-%012X/L0/001", number, state.counter)
      let stem = fixture.name ?? String(format: "IMG_%04d", state.counter)
      let date = fixture.creationDate ?? state.lastDate.addingTimeInterval(60)
      state.lastDate = max(state.lastDate, date)
      func named(_ resource: SimulatedResource?) -> SimulatedResource? {
        guard var resource else { return nil }
        if resource.filename.isEmpty {
          resource.filename = stem + "." + Self.fileExtension(resource.typeIdentifier)
        }
        return resource
      }
      let original = named(fixture.original)!
      let asset = SimulatedAsset(
        localIdentifier: identifier, kind: fixture.kind, filename: original.filename, creationDate: date,
        isFavorite: fixture.isFavorite, isLocallyAvailable: storage == .local, revision: 0)
      state.assets[identifier] = StoredAsset(
        asset: asset, original: original, compatible: named(fixture.compatible),
        pairedVideo: named(fixture.pairedVideo), cloudIdentifier: cloudIdentifier, createdByApp: createdByApp)
      state.order.append(identifier)
      if createdByApp, state.readWrite == .limited { state.limitedSelection.append(identifier) }
      return identifier
    }
  }

  static func fileExtension(_ typeIdentifier: String) -> String {
    switch typeIdentifier {
    case "public.heic": "HEIC"
    case "public.jpeg": "JPG"
    case "public.png": "PNG"
    case "com.apple.quicktime-movie": "MOV"
    case "public.mpeg-4": "MP4"
    default: "DAT"
    }
  }

  // MARK: Reading what the app may see

  /// The assets the app may read now, in the query's order (`PHAsset.fetchAssets`).
  ///
  /// Read-write `.authorized` sees everything; `.limited` sees the user's selection (which includes what the
  /// app itself created); any other status, and add-only access, sees nothing, as PhotoKit returns empty
  /// fetch results then.
  public func fetchAssets(_ query: SimulatedFetchResult.Query = .init()) -> SimulatedFetchResult {
    let world = state.withLock { $0.world }
    return SimulatedFetchResult(query: query, assets: world.evaluate(query))
  }

  /// The same query on the library as it is now: what `PHFetchResultChangeDetails.fetchResultAfterChanges`
  /// holds after the latest change.
  public func refetch(_ result: SimulatedFetchResult) -> SimulatedFetchResult { fetchAssets(result.query) }

  /// Every asset on the device, whatever the app may see: what the system picker shows.
  public var allAssets: [SimulatedAsset] {
    state.withLock { state in state.order.compactMap { state.assets[$0]?.asset } }
  }

  /// The asset with this identifier, whatever the app may see (for test assertions).
  public func inspect(_ localIdentifier: String) -> SimulatedAsset? {
    state.withLock { $0.assets[localIdentifier]?.asset }
  }

  /// The user's limited selection, in the order it was made.
  public var limitedSelection: [String] { state.withLock { $0.limitedSelection } }

  /// The paths of temporary files item providers handed out and deleted when their completion handlers
  /// returned: what an app that kept those URLs would try, and fail, to open.
  public var expiredTemporaryFiles: [String] { state.withLock { $0.expiredFiles } }

  // MARK: Mutation

  /// Applies a change and notifies observers with the library as it is afterwards.
  @discardableResult
  func mutate<Result>(_ body: (inout State) -> Result) -> Result {
    let (result, change, observers) = state.withLock { state in
      let result = body(&state)
      state.changeCount += 1
      let change = SimulatedLibraryChange(sequence: state.changeCount, world: state.world)
      return (result, change, Array(state.observers.values))
    }
    // Delivered outside the lock: an observer may read the library at once.
    for observer in observers { observer.yield(change) }
    return result
  }
}
