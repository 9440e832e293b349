import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

/// The sync core against the simulated CloudKit, device to device: imports, removals and order edits reach
/// every device; downloads go through the import path; bytes are named by their hash.
/// The time limit catches a hang, not slowness (beside the whole suite on two shared cores, over a minute was
/// seen).
@Suite(.timeLimit(.minutes(5))) struct SyncTests {
  @Test func anImportReachesTheOtherDeviceThroughTheImportPath() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    let bytes = [photo("a"), photo("b"), photo("c")]
    let summary = try #require(await phone.importPhotos(bytes, names: ["A.JPG", "B.JPG", "C.JPG"]))
    #expect(summary.importedCount == 3)
    await world.syncAll([phone, pad])
    #expect(world.cloud.recordNames("alice", type: SyncRecord.RecordType.asset) == bytes.map(sha).sorted())
    let mine = try await phone.snapshot()
    let theirs = try await pad.snapshot()
    #expect(mine == theirs)
    #expect(mine.assets.count == 3)
    #expect(try await pad.verifies())
    // The downloaded asset keeps its id, name and place.
    let original = try #require(try await phone.asset(bytes[1]))
    let copy = try #require(try await pad.asset(bytes[1]))
    #expect(copy.id == original.id)
    #expect(copy.name == "B.JPG")
    #expect(copy.batch == original.batch)
    #expect(try await phone.syncState(bytes[0]) == .synced)
    #expect(try await pad.syncState(bytes[0]) == .synced)
    #expect(await pad.condition() == .idle)
  }

  @Test func aRemovalReachesTheOtherDeviceAsATombstone() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    let bytes = [photo("a"), photo("b")]
    await phone.importPhotos(bytes)
    await world.syncAll([phone, pad])
    try await pad.remove(sha256: sha(bytes[0]))
    await world.syncAll([pad, phone])
    #expect(try await phone.asset(bytes[0]) == nil)
    #expect(try await phone.asset(bytes[1]) != nil)
    // The record stays as a tombstone, without its bytes.
    #expect(world.cloud.assetsWithBytes("alice") == [sha(bytes[1])])
    #expect(world.cloud.recordNames("alice", type: SyncRecord.RecordType.asset) == bytes.map(sha).sorted())
    #expect(try await phone.snapshot() == pad.snapshot())
    #expect(try await phone.verifies())
  }

  @Test func aPhotoImportedAgainAfterItsRemovalElsewhereStaysEverywhere() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    let bytes = [photo("i1"), photo("i2")]
    await phone.importPhotos(bytes)
    await world.syncAll([phone, pad])
    // The iPad removes a photo and syncs; later, before it fetches that, the iPhone's user removes the photo too
    // and imports it again. The fetched tombstone is older than that import: the import wins.
    world.clock.advance(by: .seconds(1))
    try await pad.remove(sha256: sha(bytes[0]))
    await pad.sync()
    world.clock.advance(by: .seconds(1))
    try await phone.remove(sha256: sha(bytes[0]))
    world.clock.advance(by: .seconds(1))
    await phone.importPhotos([bytes[0]])
    await world.syncAll([phone, pad])
    #expect(try await phone.asset(bytes[0]) != nil)
    #expect(try await pad.asset(bytes[0]) != nil)
    #expect(world.cloud.assetsWithBytes("alice") == bytes.map(sha).sorted())
    #expect(try await phone.snapshot().assets == pad.snapshot().assets)
    #expect(try await pad.verifies())
  }

  @Test func aReorderReachesTheOtherDevice() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    let bytes = (0..<4).map { photo("r\($0)") }
    await phone.importPhotos(bytes)
    await world.syncAll([phone, pad])
    let batch = try #require(try await phone.asset(bytes[0])).batch
    let order = [bytes[3], bytes[0], bytes[2], bytes[1]].map(sha)
    try await phone.reorder(batch: batch, to: order)
    await world.syncAll([phone, pad])
    #expect(try await pad.snapshot().batches[batch.rawValue] == order)
    #expect(try await phone.snapshot() == pad.snapshot())
  }

  @Test func concurrentMovesOfDifferentPhotosBothSurvive() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    let bytes = (0..<4).map { photo("m\($0)") }
    await phone.importPhotos(bytes)
    await world.syncAll([phone, pad])
    let batch = try #require(try await phone.asset(bytes[0])).batch
    // Both edit the same batch record before either syncs: the second device's fetch merges the first's edit
    // before it sends (a send that meets serverRecordChanged instead: SyncFailureTests).
    try await phone.reorder(batch: batch, to: [bytes[3], bytes[0], bytes[1], bytes[2]].map(sha))
    try await pad.reorder(batch: batch, to: [bytes[1], bytes[2], bytes[3], bytes[0]].map(sha))
    await world.syncAll([phone, pad], rounds: 3)
    let expected = [bytes[3], bytes[1], bytes[2], bytes[0]].map(sha)
    #expect(try await phone.snapshot().batches[batch.rawValue] == expected)
    #expect(try await pad.snapshot().batches[batch.rawValue] == expected)
  }
}
