import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

struct OrderedChangesTests {
  @Test(arguments: [
    // before, after, removed, inserted, moves
    ("ABCDE", "ABCDE", [Int](), [Int](), [String]()),
    ("ABCDE", "ACE", [1, 3], [], []),
    ("ACE", "ABCDE", [], [1, 3], []),
    ("ABCDE", "EABCD", [], [], ["4→0"]),
    ("ABCDE", "BCDEA", [], [], ["0→4"]),
    ("ABCDE", "AXDCE", [1], [1], ["3→2"]),
    ("ABC", "CBA", [], [], ["2→0", "1→1"]),
  ])
  func detailsFollowPhotoKitsIndexConventions(
    _ before: String, _ after: String, _ removed: [Int], _ inserted: [Int], _ moves: [String]
  ) {
    let details = OrderedChanges(from: Array(before), to: Array(after), id: { $0 })
    #expect(details.removedIndexes == removed)
    #expect(details.insertedIndexes == inserted)
    #expect(details.moves.map { "\($0.from)→\($0.to)" } == moves)
    #expect(details.hasMoves == !moves.isEmpty)
    #expect(details.applying(to: Array(before)) == Array(after))
  }

  @Test func changedIndexesAreInTheAfterList() {
    let details = OrderedChanges(from: Array("ABCD"), to: Array("BXCD"), id: { $0 }, changed: ["C", "A"])
    #expect(details.changedIndexes == [2])
  }

  /// Random edits of random lists: applying the details always gives the new list, and the moves are fewest.
  @Test(arguments: 0..<40)
  func applyingTheDetailsAlwaysGivesTheNewList(_ seed: Int) {
    // SplitMix64 started one step past the seed: the lists this test has always drawn for seeds 0..<40.
    var random = SeededGenerator(seed: UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15)
    let before = (0..<Int(random.next() % 30)).map { $0 }
    var after = before.filter { _ in random.next() % 4 != 0 }
    for _ in 0..<Int(random.next() % 5) {
      guard !after.isEmpty else { break }
      let element = after.remove(at: Int(random.next() % UInt64(after.count)))
      after.insert(element, at: Int(random.next() % UInt64(after.count + 1)))
    }
    for new in 100..<(100 + Int(random.next() % 4)) {
      after.insert(new, at: Int(random.next() % UInt64(after.count + 1)))
    }
    let details = OrderedChanges(from: before, to: after, id: { $0 })
    #expect(details.applying(to: before) == after)
    let kept = after.filter { before.contains($0) }
    #expect(details.moves.count == kept.count - longestIncreasing(kept))
  }

  /// O(n²) longest increasing subsequence, to check the O(n log n) one.
  private func longestIncreasing(_ values: [Int]) -> Int {
    var best = [Int](repeating: 1, count: values.count)
    for i in values.indices {
      for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
    }
    return best.max() ?? 0
  }
}

// A broken simulator or scenario would wait forever for a prompt, a change or a download: fail instead.
@Suite(.timeLimit(.minutes(1)))
struct SimulatedChangeTests {
  /// A full-access device with four photos a day apart, observed from a date-sorted fetch.
  static func device(_ directory: TemporaryDirectory) -> (SimulatedPhotoLibrary, [String]) {
    let device = directory.device()
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let photos = (0..<4).map { device.add(.photo(date: start.addingTimeInterval(Double($0) * 86_400))) }
    device.user.setAccessInSettings(.full)
    return (device, photos)
  }

  @Test func adjustingADateMovesTheAsset() async {
    let directory = TemporaryDirectory(inMemory: true)
    let (device, photos) = Self.device(directory)
    let fetch = device.fetchAssets()
    var changes = device.changes().makeAsyncIterator()
    device.user.adjustDate(photos[0], to: Date(timeIntervalSince1970: 1_800_000_000))
    let details = await changes.next()?.changeDetails(for: fetch)
    #expect(details?.moves == [OrderedChanges<SimulatedAsset>.Move(from: 0, to: 3)])
    #expect(details?.changedIndexes == [3])
    #expect(details?.after.map(\.localIdentifier) == [photos[1], photos[2], photos[3], photos[0]])
    #expect(device.refetch(fetch).localIdentifiers == details?.after.map(\.localIdentifier))
  }

  @Test func insertsRemovalsAndEditsAreReported() async {
    let directory = TemporaryDirectory(inMemory: true)
    let (device, photos) = Self.device(directory)
    var fetch = device.fetchAssets()
    var changes = device.changes().makeAsyncIterator()

    let taken = device.user.takePhoto()
    var details = await changes.next()?.changeDetails(for: fetch)
    #expect(details?.insertedIndexes == [4])
    fetch = device.refetch(fetch)
    #expect(fetch.localIdentifiers.last == taken)

    device.user.delete([photos[1]])
    details = await changes.next()?.changeDetails(for: fetch)
    #expect(details?.removedIndexes == [1])
    fetch = device.refetch(fetch)

    device.user.setFavorite(photos[2])
    details = await changes.next()?.changeDetails(for: fetch)
    #expect(details?.changedIndexes == [1])
    fetch = device.refetch(fetch)

    device.user.edit(photos[3])
    details = await changes.next()?.changeDetails(for: fetch)
    #expect(details?.changedIndexes == [2])
  }

  @Test func unrelatedChangesHaveNoDetailsForAFetch() async {
    let directory = TemporaryDirectory(inMemory: true)
    let (device, photos) = Self.device(directory)
    let album = try! device.createAlbum(title: "Empty")
    let albumFetch = device.fetchAssets(.init(album: album))
    var changes = device.changes().makeAsyncIterator()
    device.user.setFavorite(photos[0])
    #expect(await changes.next()?.changeDetails(for: albumFetch) == nil)
  }

  @Test func narrowingAndWideningTheLimitedSelectionAreChanges() async {
    let directory = TemporaryDirectory(inMemory: true)
    let (device, photos) = Self.device(directory)
    device.user.setAccessInSettings(.limited([photos[0], photos[2]]))
    var fetch = device.fetchAssets()
    var changes = device.changes().makeAsyncIterator()
    device.user.editSelectedPhotos(adding: [photos[1]])
    var details = await changes.next()?.changeDetails(for: fetch)
    #expect(details?.insertedIndexes == [1])
    fetch = device.refetch(fetch)
    device.user.editSelectedPhotos(removing: [photos[0], photos[2]])
    details = await changes.next()?.changeDetails(for: fetch)
    #expect(details?.removedIndexes == [0, 2])
    #expect(details?.after.map(\.localIdentifier) == [photos[1]])
  }
}

// A broken simulator or scenario would wait forever for a prompt, a change or a download: fail instead.
@Suite(.timeLimit(.minutes(1)))
struct LibraryChangeSequenceTests {
  @Test func importsAndRemovalsArriveAsChangeDetails() async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let device = directory.device()
    let photos = device.add([.photo(), .photo(), .photo()])
    let library = try await directory.library()
    let observation = try await library.observe(order: .batch)
    #expect(observation.initial.isEmpty)
    var changes = observation.changes.makeAsyncIterator()

    let results = try SimulatedPicker(device: device).present(orderedConfiguration(device)).pick([
      photos[0], photos[1],
    ])
    let summary = await serialImporter(library).importItems(results.map { SimulatedPickerItemSource($0) })
    var seen: [Asset] = []
    while seen.count < 2, let details = try await changes.next() {
      #expect(details.removedIndexes.isEmpty)
      #expect(details.applying(to: seen).map(\.id) == details.after.map(\.id))
      seen = details.after
    }
    #expect(seen.map(\.id) == summary.items.compactMap { $0.result.asset?.id })

    try await library.remove(seen[0].id)
    let removal = try #require(try await changes.next())
    #expect(removal.removedIndexes == [0])
    #expect(removal.after.map(\.id) == [seen[1].id])
    await library.close()
    #expect(try await changes.next() == nil)
  }

  @Test func aDuplicateImportMovesNothingAndShowsOnce() async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let device = directory.device()
    let photo = device.add(.photo())
    let library = try await directory.library()
    let picked = try SimulatedPicker(device: device).present(.init()).pick([photo])
    _ = await Importer(library: library).importItems([SimulatedPickerItemSource(picked[0])])
    let observation = try await library.observe(order: .batch)
    #expect(observation.initial.count == 1)
    let again = try SimulatedPicker(device: device).present(.init()).pick([photo])
    let summary = await Importer(library: library).importItems([SimulatedPickerItemSource(again[0])])
    #expect(summary.duplicateCount == 1)
    #expect(try await library.orderedSnapshotCount(order: .batch) == 1)
    await library.close()
  }
}

extension Library {
  /// How many assets an observation lists (each once).
  fileprivate func orderedSnapshotCount(order: ListOrder) async throws -> Int {
    try await observe(order: order).initial.count
  }
}
