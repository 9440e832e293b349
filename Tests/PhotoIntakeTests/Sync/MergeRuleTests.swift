import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

/// The order-merge rules: position keys always leave room, and the membership merge is a deterministic
/// last-writer-wins map whatever the order edits arrive in.
@Suite struct MergeRuleTests {
  @Test func initialKeysAreOrderedAndLeaveRoom() {
    var previous: PositionKey?
    for index in [0, 1, 2, 9, 10, 61, 62, 63, 3843, 3844, 100_000] {
      let key = PositionKey.initial(index)
      if let previous { #expect(previous < key) }
      #expect(!key.rawValue.hasSuffix("0"))
      previous = key
    }
  }

  @Test func aKeyBetweenTwoKeysIsStrictlyBetweenAndNeverEndsInZero() {
    var generator = SeededGenerator(seed: 28)
    var keys: [PositionKey] = (0..<8).map(PositionKey.initial)
    for _ in 0..<3000 {
      let slot = Int.random(in: 0...keys.count, using: &generator)
      let lower = slot > 0 ? keys[slot - 1] : nil
      let upper = slot < keys.count ? keys[slot] : nil
      let key = PositionKey.between(lower, upper)
      if let lower { #expect(lower < key, "\(lower) < \(key)") }
      if let upper { #expect(key < upper, "\(key) < \(upper)") }
      #expect(!key.rawValue.hasSuffix("0"))
      keys.insert(key, at: slot)
    }
    #expect(keys == keys.sorted())
    // Thousands of inserts at random places stay short.
    #expect(keys.map(\.rawValue.count).max()! < 40)
  }

  @Test func keysForARunAreInOrderBetweenTheirNeighbours() {
    let lower = PositionKey.initial(3)
    let upper = PositionKey.initial(4)
    let run = PositionKey.sequence(5, between: lower, upper)
    #expect(run == run.sorted())
    #expect(run.allSatisfy { lower < $0 && $0 < upper })
    #expect(Set(run).count == 5)
  }

  static func sha(_ index: Int) -> String { SHA256Digest.of(Array("member \(index)".utf8)).hex }

  static func randomMembership(_ generator: inout SeededGenerator, devices: [String]) -> BatchMembership {
    var membership = BatchMembership()
    for index in 0..<6 where Bool.random(using: &generator) {
      membership.entries[sha(index)] = BatchMembership.Entry(
        key: PositionKey.initial(Int.random(in: 0..<5, using: &generator)),
        removed: Int.random(in: 0..<4, using: &generator) == 0,
        stamp: Int64.random(in: 1...4, using: &generator),
        device: devices.randomElement(using: &generator)!)
    }
    return membership
  }

  @Test func theMergeIsCommutativeAssociativeAndIdempotent() {
    var generator = SeededGenerator(seed: 2028)
    let devices = ["ipad", "iphone", "mac"]
    for _ in 0..<500 {
      let a = Self.randomMembership(&generator, devices: devices)
      let b = Self.randomMembership(&generator, devices: devices)
      let c = Self.randomMembership(&generator, devices: devices)
      #expect(a.merged(with: b) == b.merged(with: a))
      #expect(a.merged(with: b).merged(with: c) == a.merged(with: b.merged(with: c)))
      #expect(a.merged(with: a) == a)
      #expect(a.merged(with: b).order == b.merged(with: a).order)
    }
  }

  @Test func presenceTakesTheLaterOfEachMarkWhateverTheOrder() {
    var generator = SeededGenerator(seed: 2029)
    let devices = ["ipad", "iphone", "mac"]
    func mark() -> AssetPresence.Mark {
      guard Int.random(in: 0..<4, using: &generator) > 0 else { return .none }
      let stamp = Int64.random(in: 1...6, using: &generator)
      return AssetPresence.Mark(stamp: stamp, device: devices.randomElement(using: &generator)!)
    }
    for _ in 0..<500 {
      let a = AssetPresence(added: mark(), removed: mark())
      let b = AssetPresence(added: mark(), removed: mark())
      let c = AssetPresence(added: mark(), removed: mark())
      #expect(a.merged(with: b) == b.merged(with: a))
      #expect(a.merged(with: b).merged(with: c) == a.merged(with: b.merged(with: c)))
      #expect(a.merged(with: a) == a)
      #expect(
        a.merged(with: b) == AssetPresence(added: max(a.added, b.added), removed: max(a.removed, b.removed)))
    }
    // Imported again here after a removal there: the later import wins on both sides.
    let here = AssetPresence(
      added: .init(stamp: 5, device: "iphone"), removed: .init(stamp: 3, device: "iphone"))
    let there = AssetPresence(
      added: .init(stamp: 1, device: "ipad"), removed: .init(stamp: 4, device: "ipad"))
    #expect(here.merged(with: there).isPresent)
    #expect(there.merged(with: here).isPresent)
  }

  @Test func movesOfDifferentPhotosOnTwoDevicesBothSurvive() {
    // One batch of four, A B C D; the iPhone moves D to the front, the iPad moves A to the end, at once.
    var base = BatchMembership()
    for index in 0..<4 {
      base.entries[Self.sha(index)] = .init(key: .initial(index), stamp: 1, device: "mac")
    }
    var phone = base
    phone.entries[Self.sha(3)] = .init(key: .between(nil, .initial(0)), stamp: 10, device: "iphone")
    var pad = base
    pad.entries[Self.sha(0)] = .init(key: .between(.initial(3), nil), stamp: 11, device: "ipad")
    let merged = phone.merged(with: pad)
    #expect(merged.order == [Self.sha(3), Self.sha(1), Self.sha(2), Self.sha(0)])
    #expect(merged == pad.merged(with: phone))
  }

  @Test func theLaterMoveOfOnePhotoWinsAndEqualStampsGoToTheGreaterDevice() {
    var base = BatchMembership()
    for index in 0..<3 {
      base.entries[Self.sha(index)] = .init(key: .initial(index), stamp: 1, device: "mac")
    }
    var early = base
    early.entries[Self.sha(0)] = .init(key: .between(.initial(2), nil), stamp: 5, device: "iphone")
    var late = base
    late.entries[Self.sha(0)] = .init(key: .between(.initial(1), .initial(2)), stamp: 6, device: "ipad")
    #expect(early.merged(with: late).order == [Self.sha(1), Self.sha(0), Self.sha(2)])
    var tie = late
    tie.entries[Self.sha(0)]!.stamp = 5
    // Same stamp: "iphone" > "ipad", so the iPhone's move wins on every device.
    #expect(early.merged(with: tie).order == [Self.sha(1), Self.sha(2), Self.sha(0)])
    #expect(tie.merged(with: early).order == [Self.sha(1), Self.sha(2), Self.sha(0)])
  }

  @Test func aRemovalBeatsAnEarlierMoveAndALaterImportBeatsTheRemoval() {
    var base = BatchMembership()
    base.entries[Self.sha(0)] = .init(key: .initial(0), stamp: 1, device: "mac")
    var moved = base
    moved.entries[Self.sha(0)] = .init(key: .initial(5), stamp: 3, device: "iphone")
    var removed = base
    removed.entries[Self.sha(0)] = .init(key: .initial(0), removed: true, stamp: 4, device: "ipad")
    #expect(moved.merged(with: removed).order.isEmpty)
    var again = base
    again.entries[Self.sha(0)] = .init(key: .initial(1), stamp: 9, device: "mac")
    #expect(removed.merged(with: again).order == [Self.sha(0)])
  }

  @Test func membershipRoundTripsThroughItsFieldAndSkipsMalformedLines() {
    var generator = SeededGenerator(seed: 7)
    let membership = Self.randomMembership(&generator, devices: ["a-1", "b"])
    let text = membership.encoded + "\nnot a line\n" + String(repeating: "z", count: 64) + " K 1 x 0"
    #expect(BatchMembership(encoded: text) == membership)
  }

  @Test func onlyMovedPhotosGetNewKeys() {
    let keys: [PositionKey?] = [.initial(3), .initial(0), .initial(1), .initial(2), nil]
    // Moving the last of four to the front: the other three keep their keys.
    #expect(SyncLedger.longestIncreasingRun(keys) == [1, 2, 3])
    #expect(SyncLedger.longestIncreasingRun([]) == [])
  }
}
