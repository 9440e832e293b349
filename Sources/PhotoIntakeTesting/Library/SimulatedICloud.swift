import Foundation
import PhotoIntake

/// One iCloud account with iCloud Photos on: the place where assets get their cloud identifiers and from
/// which they reach the account's other devices, each under a local identifier of its own.
///
/// ```swift
/// let account = SimulatedICloud()
/// let phone = SimulatedPhotoLibrary(account: account)
/// let pad = SimulatedPhotoLibrary(account: account)
/// let photo = phone.add(.photo("IMG_0001"))
/// account.sync()                      // the photo now exists on the pad, with another local identifier
/// ```
public final class SimulatedICloud: Sendable {
  struct Record: Sendable {
    var identifier: CloudIdentifier
    var fixture: AssetFixture
    var creationDate: Date
  }

  struct State: Sendable {
    var records: [Record] = []
    var devices: [WeakDevice] = []
    var counter = 0
  }

  /// A device the account knows, without keeping it alive (devices keep their account).
  final class WeakDevice: Sendable {
    weak let device: SimulatedPhotoLibrary?
    init(_ device: SimulatedPhotoLibrary) { self.device = device }
  }

  let state = Protected(State())

  /// An account with no devices and no photos.
  public init() {}

  /// How many assets the account holds.
  public var assetCount: Int { state.withLock { $0.records.count } }

  func join(_ device: SimulatedPhotoLibrary) {
    state.withLock { $0.devices.append(WeakDevice(device)) }
  }

  /// Uploads a device's asset: it gets a cloud identifier (iCloud Photos does this in the background).
  func upload(from device: SimulatedPhotoLibrary, localIdentifier: String) {
    guard let stored = device.state.withLock({ $0.assets[localIdentifier] }), stored.cloudIdentifier == nil
    else {
      return
    }
    let identifier = state.withLock { state -> CloudIdentifier in
      state.counter += 1
      // PHCloudIdentifier's string form is opaque; this one is shaped like it (an id, a version, a checksum).
      let text =
        String(format: "%08X-C10D-4000-8000-%012X:001:", state.counter, state.counter)
        + SHA256Digest.of(stored.original.bytes).hex.prefix(20)
      let id = CloudIdentifier(rawValue: text)
      var fixture = AssetFixture(
        kind: stored.asset.kind, name: nil, creationDate: stored.asset.creationDate,
        original: stored.original,
        compatible: stored.compatible, pairedVideo: stored.pairedVideo)
      fixture.isFavorite = stored.asset.isFavorite
      state.records.append(Record(identifier: id, fixture: fixture, creationDate: stored.asset.creationDate))
      return id
    }
    device.state.withLock { $0.assets[localIdentifier]?.cloudIdentifier = identifier }
  }

  /// Uploads a device's asset that was added with `uploaded: false`.
  public func finishUpload(from device: SimulatedPhotoLibrary, localIdentifier: String) {
    upload(from: device, localIdentifier: localIdentifier)
  }

  /// Brings every device up to date: each asset of the account that a device lacks is added to it, in iCloud
  /// only ("Optimize iPhone Storage"), under a new local identifier.
  public func sync() {
    let (records, devices) = state.withLock { ($0.records, $0.devices.compactMap(\.device)) }
    for device in devices {
      let present = device.state.withLock { Set($0.assets.values.compactMap(\.cloudIdentifier)) }
      for record in records where !present.contains(record.identifier) {
        _ = device.insert(
          record.fixture, storage: .iCloudOnly, createdByApp: false, cloudIdentifier: record.identifier)
      }
    }
  }
}

extension SimulatedPhotoLibrary: CloudIdentifierResolving {
  /// `PHPhotoLibrary.cloudIdentifierMappings(forLocalIdentifiers:)`: `notFound` for assets the device does
  /// not have or that are not uploaded yet; `multipleFound` when several local assets claim one cloud asset.
  public func cloudIdentifierMappings(forLocalIdentifiers identifiers: [String]) async
    -> [String: IdentifierLookup<CloudIdentifier>]
  {
    state.withLock { state in
      var result: [String: IdentifierLookup<CloudIdentifier>] = [:]
      for identifier in identifiers {
        guard let cloud = state.assets[identifier]?.cloudIdentifier else {
          result[identifier] = .notFound
          continue
        }
        result[identifier] = .found(cloud)
      }
      return result
    }
  }

  /// `PHPhotoLibrary.localIdentifierMappings(for:)`.
  public func localIdentifierMappings(for identifiers: [CloudIdentifier]) async
    -> [CloudIdentifier: IdentifierLookup<String>]
  {
    state.withLock { state in
      var byCloud: [CloudIdentifier: [String]] = [:]
      for identifier in state.order {
        if let cloud = state.assets[identifier]?.cloudIdentifier {
          byCloud[cloud, default: []].append(identifier)
        }
      }
      var result: [CloudIdentifier: IdentifierLookup<String>] = [:]
      for identifier in identifiers {
        let matches = byCloud[identifier] ?? []
        switch matches.count {
        case 0: result[identifier] = .notFound
        case 1: result[identifier] = .found(matches[0])
        default: result[identifier] = .multipleFound(candidates: matches)
        }
      }
      return result
    }
  }

  /// Adds a second local asset for the same cloud asset, as a restore or a failed merge can leave behind, so
  /// that looking the cloud identifier up finds several local identifiers.
  ///
  /// - Returns: the new local identifier.
  @discardableResult
  public func addDuplicate(of localIdentifier: String) -> String? {
    guard let stored = state.withLock({ $0.assets[localIdentifier] }) else { return nil }
    let fixture = AssetFixture(
      kind: stored.asset.kind, name: nil, creationDate: stored.asset.creationDate, original: stored.original,
      compatible: stored.compatible, pairedVideo: stored.pairedVideo)
    return insert(fixture, storage: .local, createdByApp: false, cloudIdentifier: stored.cloudIdentifier)
  }
}
