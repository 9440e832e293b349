import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Identity that changes after import — a batch re-ordered by the user or by sync applying another device's
/// edit, a name changed by sync — survives the loss of the manifest: the identity journal records it in the
/// transaction that makes it (`order` and `rename` records), and `repair` restores it.
///
/// Each library is read back after the repair without sync running, so nothing fetched from the (simulated)
/// server can put the order or the name back.
@Suite(.timeLimit(.minutes(5))) struct SyncIdentityJournalTests {
  /// Closes the device, deletes its manifest, repairs the library and returns what it then holds, by batch, with
  /// each asset's name.
  func afterLosingTheManifest(_ device: SimulatedSyncDevice) async throws -> (SyncSnapshot, [String: String])
  {
    await device.kill()
    let root = device.folder + "/library"
    for suffix in ["", "-wal", "-shm"] { unlink(root + "/manifest.sqlite" + suffix) }
    let report = try await Library.repair(at: root)
    #expect(report.adopted.isEmpty, "every object should be restored from the journal, not adopted")
    let library = try await Library.open(at: root)
    var snapshot = SyncSnapshot()
    var names: [String: String] = [:]
    for asset in try await library.all(order: .batch) {
      snapshot.assets.insert(asset.sha256.hex)
      snapshot.batches[asset.batch.rawValue, default: []].append(asset.sha256.hex)
      names[asset.sha256.hex] = asset.name ?? ""
    }
    await library.close()
    return (snapshot, names)
  }

  func names(_ device: SimulatedSyncDevice) async throws -> [String: String] {
    var names: [String: String] = [:]
    for asset in try await device.library?.all(order: .batch) ?? [] {
      names[asset.sha256.hex] = asset.name ?? ""
    }
    return names
  }

  @Test func aReorderHereAndOneFromAnotherDeviceSurviveTheLossOfTheManifest() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    let bytes = (0..<5).map { photo("j\($0)") }
    await phone.importPhotos(bytes)
    await world.syncAll([phone, pad])
    let batch = try #require(try await phone.asset(bytes[0])).batch
    let order = [bytes[4], bytes[2], bytes[0], bytes[3], bytes[1]].map(sha)
    try await phone.reorder(batch: batch, to: order)
    await world.syncAll([phone, pad])
    #expect(try await pad.snapshot().batches[batch.rawValue] == order)
    let (phoneAfter, _) = try await afterLosingTheManifest(phone)
    #expect(phoneAfter.batches[batch.rawValue] == order, "the user's re-order")
    let (padAfter, _) = try await afterLosingTheManifest(pad)
    #expect(padAfter.batches[batch.rawValue] == order, "the re-order sync applied")
  }

  @Test func aNameSyncChangedSurvivesTheLossOfTheManifest() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    let bytes = [photo("same")]
    // The same bytes imported under two names: sync settles on one, and one device renames its asset.
    await phone.importPhotos(bytes, names: ["FROM-PHONE.JPG"])
    await pad.importPhotos(bytes, names: ["FROM-PAD.JPG"])
    await world.syncAll([phone, pad], rounds: 3)
    let settled = try await names(phone)
    #expect(settled == (try await names(pad)))
    #expect(settled.count == 1)
    let (_, phoneNames) = try await afterLosingTheManifest(phone)
    let (_, padNames) = try await afterLosingTheManifest(pad)
    #expect(phoneNames == settled)
    #expect(padNames == settled)
  }
}
