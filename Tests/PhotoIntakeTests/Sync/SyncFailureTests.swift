import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

/// Every failure CloudKit returns that the issue names, one by one: each maps to a state the app can show, and
/// loses nothing. Each test fails when its handling in `LibrarySync` is removed (checked by removing it).
/// The time limit catches a hang, not slowness (each takes about a second alone; beside the whole suite on two
/// shared cores, over a minute was seen).
@Suite(.timeLimit(.minutes(5))) struct SyncFailureTests {
  @Test func offlineKeepsChangesAndSaysSo() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let bytes = [photo("o1"), photo("o2")]
    await phone.importPhotos(bytes)
    world.cloud.setOnline("iphone", false)
    await phone.sync()
    #expect(await phone.condition() == .offline)
    #expect(try await phone.syncState(bytes[0]) == .uploading)
    #expect(await phone.status()?.pendingUploads == 3)
    #expect(world.cloud.assetsWithBytes("alice").isEmpty)
    world.cloud.setOnline("iphone", true)
    await phone.sync()
    #expect(await phone.condition() == .idle)
    #expect(world.cloud.assetsWithBytes("alice") == bytes.map(sha).sorted())
    #expect(try await phone.syncState(bytes[1]) == .synced)
  }

  @Test func aNetworkFailureDuringAFetchKeepsEverything() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    await phone.importPhotos([photo("f1")])
    await phone.sync()
    world.cloud.fail("ipad", .fetch, with: SyncError(.networkFailure))
    await pad.sync()
    #expect(await pad.condition() == .offline)
    #expect(try await pad.snapshot().assets.isEmpty)
    await pad.sync()
    #expect(try await pad.snapshot() == phone.snapshot())
  }

  @Test func quotaExceededStopsUploadsKeepsEverythingAndTellsTheApp() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    // The iPad's photo is in iCloud before the storage fills up; downloads go on.
    let theirs = photo("q0")
    await pad.importPhotos([theirs])
    await pad.sync()
    world.cloud.setQuota(bytes: world.cloud.usedBytes("alice") + 10, for: "alice")
    let bytes = [photo("q1"), photo("q2"), photo("q3")]
    await phone.importPhotos(bytes)
    await phone.sync()
    #expect(await phone.condition() == .quotaExceeded)
    #expect(try await phone.syncState(bytes[0]) == .localOnly(.quotaExceeded))
    #expect(try await phone.asset(theirs) != nil)
    #expect(try await phone.snapshot().assets.count == 4)
    #expect(try await phone.verifies())
    // Stopped: the next passes do not try the uploads again.
    let refused = world.cloud.quotaRejections("alice")
    await phone.sync()
    await phone.sync()
    #expect(world.cloud.quotaRejections("alice") == refused)
    // The user frees space; the app resumes.
    world.cloud.setQuota(bytes: nil, for: "alice")
    await phone.sync?.resumeUploads()
    await phone.sync()
    #expect(await phone.condition() == .idle)
    #expect(Set(world.cloud.assetsWithBytes("alice")) == Set((bytes + [theirs]).map(sha)))
  }

  @Test(arguments: [SyncError.Code.requestRateLimited, .zoneBusy, .serviceUnavailable])
  func aRequestedWaitIsRespected(_ code: SyncError.Code) async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    await phone.importPhotos([photo("w1")])
    world.cloud.fail("iphone", .send, with: SyncError(code, retryAfter: .seconds(30)))
    await phone.sync()
    #expect(await phone.condition() == .waiting(retryAfter: .seconds(30), reason: code))
    // Not before the wait is over: no request at all.
    let requests = world.cloud.requestCount("iphone")
    world.clock.advance(by: .seconds(20))
    await phone.sync()
    #expect(world.cloud.requestCount("iphone") == requests)
    #expect(world.cloud.assetsWithBytes("alice").isEmpty)
    world.clock.advance(by: .seconds(11))
    await phone.sync()
    #expect(world.cloud.assetsWithBytes("alice") == [sha(photo("w1"))])
    #expect(await phone.condition() == .idle)
  }

  @Test func serverRecordChangedOnABatchMergesBothEdits() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    let bytes = (0..<5).map { photo("c\($0)") }
    await phone.importPhotos(bytes)
    await world.syncAll([phone, pad])
    let batch = try #require(try await phone.asset(bytes[0])).batch
    // The iPhone moves the last photo to the front; the iPad, not knowing, moves the first to the end.
    try await phone.reorder(batch: batch, to: [4, 0, 1, 2, 3].map { sha(bytes[$0]) })
    world.clock.advance(by: .seconds(1))
    try await pad.reorder(batch: batch, to: [1, 2, 3, 4, 0].map { sha(bytes[$0]) })
    await phone.sync()
    // The iPad sends before it fetches (a fetch first would merge the iPhone's version before any save): its
    // save meets serverRecordChanged, and the same send merges both edits and saves them on the server's version.
    try await pad.sendWithoutFetching()
    #expect(world.cloud.changeConflicts("alice") == 1)
    let merged = [4, 1, 2, 3, 0].map { sha(bytes[$0]) }
    let members = {
      BatchMembership(
        encoded: world.cloud.field(SyncRecord.FieldKey.members, of: "batch-\(batch)", in: "alice")?
          .stringValue ?? "")
    }
    #expect(members().order == merged)
    #expect(try await pad.snapshot().batches[batch.rawValue] == merged)
    #expect(await pad.status()?.pendingUploads == 0)
    await phone.sync()
    await pad.sync()
    #expect(try await phone.snapshot().batches[batch.rawValue] == merged)
    #expect(try await pad.snapshot().batches[batch.rawValue] == merged)
    #expect(members().order == merged)
    #expect(await pad.status()?.pendingUploads == 0)
  }

  @Test func serverRecordChangedOnAnAssetKeepsOneRecord() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    // The same picture imported on two devices before either synced: one record, no conflict left.
    let bytes = photo("same")
    await phone.importPhotos([bytes], names: ["Phone.JPG"])
    await pad.importPhotos([bytes], names: ["Pad.JPG"])
    await phone.sync()
    // The iPad sends before it fetches: its save of the same record meets the iPhone's (serverRecordChanged),
    // and takes it, within that send.
    try await pad.sendWithoutFetching()
    #expect(world.cloud.changeConflicts("alice") == 1)
    #expect(try await pad.asset(bytes)?.name == "Phone.JPG")
    #expect(try await pad.syncState(bytes) == .synced)
    #expect(await pad.status()?.pendingUploads == 0)
    await pad.sync()
    await phone.sync()
    #expect(world.cloud.assetsWithBytes("alice") == [sha(bytes)])
    #expect(try await pad.syncState(bytes) == .synced)
    #expect(await pad.status()?.pendingUploads == 0)
    // The first upload's name is every device's.
    #expect(try await pad.asset(bytes)?.name == "Phone.JPG")
  }

  @Test func theUserDeletingTheZoneStopsSyncKeepsEverythingAndUploadsOnlyWhenAsked() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let bytes = [photo("z1"), photo("z2")]
    await phone.importPhotos(bytes)
    await phone.sync()
    world.cloud.userDeletesZone(of: "alice")
    await phone.importPhotos([photo("z3")])
    await phone.sync()
    #expect(await phone.condition() == .zoneDeleted)
    #expect(try await phone.snapshot().assets.count == 3)
    #expect(try await phone.verifies())
    #expect(try await phone.syncState(bytes[0]) == .localOnly(.zoneDeleted))
    // Nothing goes back up on its own, even across a relaunch.
    try await phone.relaunch()
    await phone.sync()
    #expect(!world.cloud.hasZone(in: "alice"))
    #expect(await phone.condition() == .zoneDeleted)
    await phone.sync?.uploadAgainAfterZoneDeletion()
    await phone.sync()
    #expect(world.cloud.assetsWithBytes("alice").count == 3)
    #expect(await phone.condition() == .idle)
  }

  /// A device with nothing to send learns of the deletion only from the fetch's database changes (with
  /// something to send, the save's `userDeletedZone` or `zoneNotFound` would tell it too). `.deleted` is another
  /// client deleting the zone through the API: handled as the user's deletion.
  @Test(arguments: [SyncEvent.FetchedDatabaseChanges.ZoneDeletion.Reason.purged, .deleted])
  func theUserDeletingTheZoneIsLearnedFromAFetchAlone(
    _ reason: SyncEvent.FetchedDatabaseChanges.ZoneDeletion.Reason
  ) async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    let bytes = [photo("p1"), photo("p2")]
    await phone.importPhotos(bytes)
    await world.syncAll([phone, pad])
    #expect(try await pad.snapshot().assets.count == 2)
    if reason == .purged {
      world.cloud.userDeletesZone(of: "alice")
    } else {
      world.cloud.deleteZone(of: "alice")
    }
    await pad.sync()
    #expect(await pad.condition() == .zoneDeleted)
    #expect(try await pad.syncState(bytes[0]) == .localOnly(.zoneDeleted))
    #expect(try await pad.snapshot() == phone.snapshot())
    #expect(try await pad.verifies())
    // Nothing goes back up on its own, even across a relaunch and a new photo.
    try await pad.relaunch()
    await pad.importPhotos([photo("p3")])
    await pad.sync()
    #expect(!world.cloud.hasZone(in: "alice"))
    #expect(await pad.condition() == .zoneDeleted)
    #expect(try await pad.snapshot().assets.count == 3)
  }

  @Test func userDeletedZoneOnASaveStopsSyncToo() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    await phone.importPhotos([photo("u1")])
    await phone.sync()
    await phone.importPhotos([photo("u2")])
    world.cloud.fail("iphone", .send, with: SyncError(.userDeletedZone))
    await phone.sync()
    #expect(await phone.condition() == .zoneDeleted)
    await phone.sync()
    #expect(world.cloud.assetsWithBytes("alice") == [sha(photo("u1"))])
    #expect(try await phone.snapshot().assets.count == 2)
  }

  @Test func zoneNotFoundForAZoneThatExistedStopsSync() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    await phone.importPhotos([photo("n1")])
    await phone.sync()
    await phone.importPhotos([photo("n2")])
    world.cloud.fail("iphone", .send, with: SyncError(.zoneNotFound))
    await phone.sync()
    #expect(await phone.condition() == .zoneDeleted)
    #expect(try await phone.snapshot().assets.count == 2)
  }

  @Test func zoneNotFoundForAZoneNeverMadeMakesIt() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    await phone.importPhotos([photo("m1")])
    // A first pass that gets no further than the account (the network is down): the zone was never made.
    world.cloud.setOnline("iphone", false)
    await phone.sync()
    world.cloud.setOnline("iphone", true)
    let engine = try #require(phone.engine)
    let sync = try #require(await phone.sync)
    #expect(await sync.currentStatus.account == "alice")
    #expect(!world.cloud.hasZone(in: "alice"))
    // A save into a zone this library never made (the engine lost its pending zone creation): the zone is
    // asked for again, the record sent again, and nothing stops.
    let record = SyncRecord(type: SyncRecord.RecordType.asset, id: SyncRecordID(name: sha(photo("m1"))))
    await sync.handleEvent(
      .sentRecordZoneChanges(
        .init(failedRecordSaves: [.init(record: record, error: SyncError(.zoneNotFound))])),
      engine: engine)
    #expect(await phone.condition() != .zoneDeleted)
    await phone.sync()
    #expect(world.cloud.assetsWithBytes("alice") == [sha(photo("m1"))])
    #expect(await phone.condition() == .idle)
  }

  @Test func aZoneCreationThatFailsIsTriedAgain() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    await phone.importPhotos([photo("k1")])
    world.cloud.fail("iphone", .zoneSave, with: SyncError(.networkFailure))
    await phone.sync()
    #expect(!world.cloud.hasZone(in: "alice"))
    #expect(await phone.condition() == .offline)
    await phone.sync()
    #expect(world.cloud.assetsWithBytes("alice") == [sha(photo("k1"))])
  }

  @Test func anExpiredChangeTokenRefetchesEverything() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    let bytes = (0..<4).map { photo("t\($0)") }
    await phone.importPhotos(bytes)
    await world.syncAll([phone, pad])
    let batch = try #require(try await phone.asset(bytes[0])).batch
    try await phone.remove(sha256: sha(bytes[0]))
    try await phone.reorder(batch: batch, to: [3, 2, 1].map { sha(bytes[$0]) })
    await phone.importPhotos([photo("t9")])
    await phone.sync()
    world.cloud.expireChangeTokens(of: "alice")
    await pad.sync()
    #expect(try await pad.snapshot() == phone.snapshot())
    #expect(try await pad.asset(bytes[0]) == nil)
    #expect(try await pad.verifies())
  }

  @Test func aRecordDeletedOutrightIsSavedAgainNotLost() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let bytes = [photo("d1"), photo("d2")]
    await phone.importPhotos(bytes)
    // The second pass fetches the zone the first made: the device then holds a change token for it.
    await phone.sync()
    await phone.sync()
    // Something else deletes a record, and the token that would say so expires: the re-fetch from the start
    // brings the records there are, not the deletion, so only what it does not bring tells.
    world.cloud.deleteRecordOutright(sha(bytes[0]), of: "alice")
    world.cloud.expireChangeTokens(of: "alice")
    await phone.sync()
    await phone.sync()
    #expect(try await phone.asset(bytes[0]) != nil)
    #expect(world.cloud.assetsWithBytes("alice") == bytes.map(sha).sorted())
  }

  @Test func signingOutKeepsEverythingAndTheNextSignInAdoptsWhatWasImportedMeanwhile() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    await phone.importPhotos([photo("s1"), photo("s2")])
    await phone.sync()
    world.cloud.signOut("iphone")
    await phone.importPhotos([photo("s3")])
    await phone.sync()
    #expect(await phone.condition() == .signedOut)
    #expect(try await phone.snapshot().assets.count == 3)
    #expect(try await phone.syncState(photo("s3")) == .localOnly(.notSyncing))
    #expect(world.cloud.assetsWithBytes("alice").count == 2)
    world.cloud.signIn("iphone", account: "alice")
    await phone.sync()
    await phone.sync()
    #expect(world.cloud.assetsWithBytes("alice").count == 3)
    #expect(await phone.condition() == .idle)
  }

  @Test func signingOutIsRememberedAcrossARelaunchAndTheNextAccountAdoptsWhatWasImportedMeanwhile()
    async throws
  {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let alices = [photo("r1"), photo("r2")]
    await phone.importPhotos(alices)
    await phone.sync()
    world.cloud.signOut("iphone")
    await phone.sync()
    #expect(await phone.condition() == .signedOut)
    let meanwhile = photo("r3")
    await phone.importPhotos([meanwhile])
    // Relaunched while signed out: still signed out, and the new photo belongs to no account yet.
    try await phone.relaunch()
    #expect(await phone.condition() == .signedOut)
    #expect(try await phone.syncState(meanwhile) == .localOnly(.notSyncing))
    // Bob signs in: the photo imported meanwhile goes to his iCloud; Alice's stay in hers.
    world.cloud.signIn("iphone", account: "bob")
    await phone.sync()
    await phone.sync()
    #expect(await phone.condition() == .idle)
    #expect(world.cloud.assetsWithBytes("bob") == [sha(meanwhile)])
    #expect(world.cloud.assetsWithBytes("alice") == alices.map(sha).sorted())
    #expect(try await phone.syncState(meanwhile) == .synced)
    #expect(try await phone.syncState(alices[0]) == .localOnly(.otherAccount))
  }

  @Test func anAccountSwitchNeverUploadsOneAccountsPhotosIntoAnother() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad", account: "bob")
    let alices = [photo("a1"), photo("a2")]
    await phone.importPhotos(alices)
    await phone.sync()
    let bobs = photo("b1")
    await pad.importPhotos([bobs])
    await pad.sync()
    // The iPhone's user switches to Bob's account.
    world.cloud.signIn("iphone", account: "bob")
    await phone.sync()
    await phone.sync()
    #expect(try await phone.asset(bobs) != nil)
    #expect(try await phone.snapshot().assets.count == 3)
    #expect(try await phone.syncState(alices[0]) == .localOnly(.otherAccount))
    #expect(world.cloud.assetsWithBytes("bob") == [sha(bobs)])
    let imported = photo("b2")
    await phone.importPhotos([imported])
    await phone.sync()
    #expect(Set(world.cloud.assetsWithBytes("bob")) == [sha(bobs), sha(imported)])
    // Back to Alice: her ledger resumes where it was; Bob's photos stay out of her iCloud.
    world.cloud.signIn("iphone", account: "alice")
    await phone.sync()
    await phone.sync()
    #expect(world.cloud.assetsWithBytes("alice") == alices.map(sha).sorted())
    #expect(try await phone.syncState(alices[0]) == .synced)
    #expect(try await phone.syncState(imported) == .localOnly(.otherAccount))
    #expect(try await phone.snapshot().assets.count == 4)
  }

  @Test func anAssetTooLargeForARecordStaysOnTheDevice() async throws {
    let world = SyncWorld()
    var configuration = LibrarySync.Configuration()
    configuration.maximumAssetSize = 1000
    let phone = try await world.device("iphone", configuration: configuration)
    let small = photo("l1")
    let large = photo("l2", padding: 2000)
    #expect(small.count < 1000 && large.count > 1000)
    await phone.importPhotos([small, large])
    await phone.sync()
    #expect(world.cloud.assetsWithBytes("alice") == [sha(small)])
    #expect(try await phone.syncState(large) == .localOnly(.tooLarge))
    #expect(await phone.status()?.tooLarge == 1)
    #expect(await phone.status()?.pendingUploads == 0)
  }

  @Test func limitExceededFromTheServerSplitsThenKeepsTheTooLargeAssetHere() async throws {
    let world = SyncWorld(maximumAssetSize: 1000)
    let phone = try await world.device("iphone")
    let small = [photo("x1"), photo("x2")]
    let large = photo("x3", padding: 2000)
    await phone.importPhotos(small + [large])
    await phone.sync()
    await phone.sync()
    #expect(world.cloud.assetsWithBytes("alice") == small.map(sha).sorted())
    #expect(try await phone.syncState(large) == .localOnly(.tooLarge))
    #expect(await phone.status()?.pendingUploads == 0)
  }

  @Test func bytesThatDoNotHashToTheRecordNameAreRefused() async throws {
    let world = SyncWorld()
    let phone = try await world.device("iphone")
    let pad = try await world.device("ipad")
    let bytes = photo("h1")
    await phone.importPhotos([bytes])
    await phone.sync()
    // Two damaged transfers: the fetch's and the retry's in the same pass.
    world.cloud.corruptNextDownload(of: sha(bytes), times: 2)
    await pad.sync()
    #expect(try await pad.snapshot().assets.isEmpty)
    #expect(await pad.status()?.refusedDownloads == 2)
    #expect(await pad.status()?.pendingDownloads == 1)
    #expect(try await pad.verifies())
    // The next pass fetches the record again and gets good bytes.
    await pad.sync()
    #expect(try await pad.snapshot() == phone.snapshot())
    #expect(try await pad.verifies())
  }
}
