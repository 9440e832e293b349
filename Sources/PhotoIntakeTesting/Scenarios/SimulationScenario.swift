import Foundation
import PhotoIntake

/// Runnable demonstrations of the simulator and of PhotoIntake's portable logic, behind
/// `intake simulate SCENARIO`.
///
/// Each scenario uses a real `PhotoIntake.Library` (files and SQLite) in the folder it is given, a
/// simulated device, and a simulated clock, so it runs in milliseconds and prints the same timeline every time.
public enum SimulationScenario: String, Sendable, Hashable, CaseIterable {
  /// Pick 3 photos, narrow the limited selection, restart: a naive app that kept identifiers and temporary URLs
  /// loses photos; PhotoIntake opens all 3.
  case restartAfterNarrowing = "restart-after-narrowing"
  /// iCloud-only photos while offline fail, then succeed on retry; nothing is ever half-imported.
  case icloudOffline = "icloud-offline"
  /// Pick, re-open with preselection, deselect one, add two: order and reuse are right; Cancel changes nothing.
  case preselection
  /// `.limited` access shows the gallery with a banner, and the "add more photos" flow widens it.
  case limitedAccess = "limited-access"
  /// Cloud identifiers find the same photos on a second device; local identifiers find none.
  case twoDevices = "two-devices"
  /// Import library assets: a naive full-size `requestImage` vs a streamed resource write; offline, then retry.
  case assetImport = "asset-import"
  /// Three devices import, remove and re-order through iCloud while the iPad is offline and the Mac's iCloud
  /// storage is full; afterwards every device holds the same photos in the same order.
  case sync

  /// One line for help text.
  public var summary: String {
    switch self {
    case .restartAfterNarrowing:
      "Pick 3 photos, narrow the limited selection, restart: naive app vs PhotoIntake."
    case .icloudOffline:
      "iCloud-only photos offline fail, then import on retry; nothing half-imported."
    case .preselection:
      "Re-open the picker with preselection, deselect one, add two; then Cancel."
    case .limitedAccess:
      "Limited access: gallery with banner, then \"add more photos\"."
    case .twoDevices:
      "Cloud identifiers find the same photos on a second device."
    case .assetImport:
      "Import a 48 MP library photo: naive requestImage vs streamed write; offline, retry."
    case .sync:
      "Three devices sync through iCloud; one goes offline, one's storage is full."
    }
  }

  /// Runs the scenario with its libraries and temporary files under `directory`, which must exist.
  ///
  /// - Throws: `PhotoIntake.Library.Error` when a library cannot be opened there.
  public func run(in directory: String) async throws -> ScenarioReport {
    let clock = SimulatedClock()
    let timeline = Timeline(clock: clock)
    let context = ScenarioContext(directory: directory, clock: clock, timeline: timeline)
    let (outcome, succeeded): (ScenarioValue, Bool)
    switch self {
    case .restartAfterNarrowing: (outcome, succeeded) = try await context.restartAfterNarrowing()
    case .icloudOffline: (outcome, succeeded) = try await context.icloudOffline()
    case .preselection: (outcome, succeeded) = try await context.preselection()
    case .limitedAccess: (outcome, succeeded) = try await context.limitedAccess()
    case .twoDevices: (outcome, succeeded) = try await context.twoDevices()
    case .assetImport: (outcome, succeeded) = try await context.assetImport()
    case .sync: (outcome, succeeded) = try await context.sync()
    }
    return ScenarioReport(scenario: self, timeline: timeline.all, outcome: outcome, succeeded: succeeded)
  }
}

/// What every scenario needs: a folder, a clock, a timeline, and helpers over them.
struct ScenarioContext: Sendable {
  let directory: String
  let clock: SimulatedClock
  let timeline: Timeline

  func log(_ actor: String, _ text: String) { timeline.log(actor, text) }

  /// A device whose temporary files live under the scenario's folder.
  func device(_ name: String, number: Int, account: SimulatedICloud? = nil) -> SimulatedPhotoLibrary {
    var configuration = SimulatedPhotoLibrary.Configuration()
    configuration.deviceName = name
    configuration.deviceNumber = number
    configuration.temporaryDirectory = "\(directory)/\(name)-tmp"
    return SimulatedPhotoLibrary(configuration: configuration, account: account, clock: clock)
  }

  /// Opens (or reopens) the app's library in `name` under the scenario's folder.
  func library(_ name: String) async throws -> Library {
    try await Library.open(at: "\(directory)/\(name)")
  }

  /// An importer that takes one item at a time, so the timeline reads the same on every run.
  func importer(_ library: Library) -> Importer {
    var configuration = Importer.Configuration()
    configuration.maximumConcurrentItems = 1
    return Importer(library: library, configuration: configuration)
  }

  /// The file names of local identifiers on a device, for timelines and outcomes.
  func names(_ identifiers: [String], on device: SimulatedPhotoLibrary) -> [String] {
    identifiers.map { device.inspect($0)?.filename ?? $0 }
  }

  /// Whether the library has the asset and its bytes still hash to what was recorded.
  func opens(_ asset: AssetID, in library: Library) async -> Bool {
    guard let found = try? await library.asset(asset), found.damage == nil else { return false }
    guard let data = FileManager.default.contents(atPath: library.objectPath(for: found)) else {
      return false
    }
    return SHA256Digest.of([UInt8](data)) == found.sha256
  }

  /// The number of files in a library's staging folder (parts of unfinished imports).
  func stagingFileCount(_ library: Library) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: library.root + "/staging").count) ?? 0
  }
}
