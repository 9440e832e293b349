import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

/// The grid's requests, keyed by local identifier, following the simulator's change details while cells are
/// on screen: inserts, removals, moves and edits.
@Suite(.timeLimit(.minutes(1)))
struct ThumbnailGridTests {
  /// A full-access device with twelve photos a day apart, fetched newest first as the grid does.
  static func device(_ directory: TemporaryDirectory) -> (SimulatedPhotoLibrary, SimulatedFetchResult) {
    let device = directory.device()
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    for day in 0..<12 { device.add(.photo(date: start.addingTimeInterval(Double(day) * 86_400))) }
    device.user.setAccessInSettings(.full)
    return (device, device.fetchAssets(.init(sort: .creationDate(ascending: false))))
  }

  /// Shows the first `count` cells and records a request token for each, as the Apple model does.
  static func show(_ count: Int, in grid: inout ThumbnailGrid<Int>) -> [String: Int] {
    var tokens: [String: Int] = [:]
    for index in 0..<count {
      let identifier = grid.identifier(at: index)!
      let actions = grid.cellAppeared(identifier)
      #expect(actions.request == [identifier])
      tokens[identifier] = 100 + index
      grid.requested(identifier, token: 100 + index)
    }
    return tokens
  }

  @Test func anInsertAboveTheVisibleCellsKeepsTheirRequestsAndTheirAssets() async {
    let directory = TemporaryDirectory(inMemory: true)
    let (device, fetch) = Self.device(directory)
    var grid = ThumbnailGrid<Int>(identifiers: fetch.localIdentifiers, preheatMargin: 2)
    let tokens = Self.show(6, in: &grid)
    let shown = Array(fetch.localIdentifiers.prefix(6))
    var changes = device.changes().makeAsyncIterator()

    let screenshot = device.user.takePhoto(.photo(date: Date(timeIntervalSince1970: 1_800_000_000)))
    let details = await changes.next()!.changeDetails(for: fetch)!
    #expect(details.insertedIndexes == [0])
    let actions = grid.apply(details, id: \.localIdentifier)

    #expect(actions.cancel.isEmpty)
    #expect(actions.request.isEmpty)
    for identifier in shown { #expect(grid.token(for: identifier) == tokens[identifier]) }
    // Every index shifted by one: the cell that showed the newest photo still stands for it, and the screenshot
    // is at index 0, where an index-keyed grid would have imported it for a tap on the old first cell.
    #expect(grid.identifiers == device.refetch(fetch).localIdentifiers)
    #expect(grid.index(of: shown[0]) == 1)
    #expect(grid.identifier(at: 0) == screenshot)
    // The band moved with the cells: the asset that slid into the margin is cached, nothing visible is stopped.
    #expect(actions.startCaching == [screenshot])
    #expect(actions.stopCaching.isEmpty)
  }

  @Test func aRemovedVisibleAssetIsCancelledAndNoOtherIs() async {
    let directory = TemporaryDirectory(inMemory: true)
    let (device, fetch) = Self.device(directory)
    var grid = ThumbnailGrid<Int>(identifiers: fetch.localIdentifiers, preheatMargin: 2)
    let tokens = Self.show(6, in: &grid)
    let shown = Array(fetch.localIdentifiers.prefix(6))
    var changes = device.changes().makeAsyncIterator()

    device.user.delete([shown[2]])
    let details = await changes.next()!.changeDetails(for: fetch)!
    let actions = grid.apply(details, id: \.localIdentifier)

    #expect(actions.cancel == [tokens[shown[2]]!])
    #expect(actions.request.isEmpty)
    #expect(!grid.visible.contains(shown[2]))
    #expect(grid.token(for: shown[2]) == nil)
    for identifier in shown where identifier != shown[2] {
      #expect(grid.token(for: identifier) == tokens[identifier])
    }
    #expect(grid.identifiers == device.refetch(fetch).localIdentifiers)
  }

  @Test func aMoveRequestsOnlyTheChangedAssetAgain() async {
    let directory = TemporaryDirectory(inMemory: true)
    let (device, fetch) = Self.device(directory)
    var grid = ThumbnailGrid<Int>(identifiers: fetch.localIdentifiers, preheatMargin: 2)
    let tokens = Self.show(6, in: &grid)
    let shown = Array(fetch.localIdentifiers.prefix(6))
    var changes = device.changes().makeAsyncIterator()

    // "Adjust Date & Time" on the fifth cell makes it the newest: it moves to the top, the four above shift
    // down, and its date change is reported as a change of the asset.
    device.user.adjustDate(shown[4], to: Date(timeIntervalSince1970: 1_900_000_000))
    let details = await changes.next()!.changeDetails(for: fetch)!
    #expect(details.hasMoves)
    let actions = grid.apply(details, id: \.localIdentifier)

    #expect(actions.cancel == [tokens[shown[4]]!])
    #expect(actions.request == [shown[4]])
    for identifier in shown where identifier != shown[4] {
      #expect(grid.token(for: identifier) == tokens[identifier])
    }
    #expect(grid.identifier(at: 0) == shown[4])
    #expect(grid.index(of: shown[0]) == 1)
    #expect(grid.identifiers == device.refetch(fetch).localIdentifiers)
  }

  @Test func anEditOffScreenStopsItsStaleCacheAndAnEditOnScreenIsRequestedAgain() async {
    let directory = TemporaryDirectory(inMemory: true)
    let (device, fetch) = Self.device(directory)
    var grid = ThumbnailGrid<Int>(identifiers: fetch.localIdentifiers, preheatMargin: 2)
    let tokens = Self.show(4, in: &grid)
    let ids = fetch.localIdentifiers
    var changes = device.changes().makeAsyncIterator()

    device.user.edit(ids[5])  // in the preheated margin (4 and 5), not on screen
    var details = await changes.next()!.changeDetails(for: fetch)!
    var actions = grid.apply(details, id: \.localIdentifier)
    #expect(actions.cancel.isEmpty && actions.request.isEmpty)
    #expect(actions.stopCaching == [ids[5]])
    #expect(actions.startCaching == [ids[5]])

    let refetched = device.refetch(fetch)
    device.user.edit(ids[1])
    details = await changes.next()!.changeDetails(for: refetched)!
    actions = grid.apply(details, id: \.localIdentifier)
    #expect(actions.cancel == [tokens[ids[1]]!])
    #expect(actions.request == [ids[1]])
  }

  @Test func aStaleOrDegradedLateImageIsNotShown() {
    var grid = ThumbnailGrid<Int>(identifiers: ["A", "B"], preheatMargin: 0)
    _ = grid.cellAppeared("A")
    grid.requested("A", token: 1)
    let shown1 = grid.accepts(1, for: "A", isDegraded: true)
    #expect(shown1)
    let shown2 = grid.accepts(1, for: "A", isDegraded: false)
    #expect(shown2)
    // PhotoKit may hand the opportunistic degraded image after the final one: it never replaces it.
    let shown3 = grid.accepts(1, for: "A", isDegraded: true)
    #expect(!shown3)
    // A request that was replaced (a new size) or whose cell left delivers into nothing.
    _ = grid.sizeChanged()
    grid.requested("A", token: 2)
    let shown4 = grid.accepts(1, for: "A", isDegraded: false)
    #expect(!shown4)
    let shown5 = grid.accepts(2, for: "A", isDegraded: false)
    #expect(shown5)
    _ = grid.cellDisappeared("A")
    let shown6 = grid.accepts(2, for: "A", isDegraded: false)
    #expect(!shown6)
    let shown7 = grid.accepts(3, for: "B", isDegraded: false)
    #expect(!shown7)
  }

  @Test func aNewSizeCancelsEverythingAndRequestsTheVisibleAgain() {
    var grid = ThumbnailGrid<Int>(identifiers: (0..<10).map { "\($0)" }, preheatMargin: 1)
    for (token, identifier) in ["3", "4"].enumerated() {
      _ = grid.cellAppeared(identifier)
      grid.requested(identifier, token: token)
    }
    let actions = grid.sizeChanged()
    #expect(Set(actions.cancel) == [0, 1])
    #expect(actions.stopCachingAll)
    #expect(actions.request == ["3", "4"])
    #expect(actions.startCaching == ["2", "3", "4", "5"])
  }

  @Test func scrollingStartsAndStopsOnlyTheDifference() {
    var grid = ThumbnailGrid<Int>(identifiers: (0..<20).map { "\($0)" }, preheatMargin: 2)
    var actions = grid.cellAppeared("5")
    #expect(actions.startCaching == ["3", "4", "5", "6", "7"])
    actions = grid.cellAppeared("6")
    #expect(actions.startCaching == ["8"])
    actions = grid.cellDisappeared("5")
    #expect(actions.stopCaching == ["3"])
    #expect(actions.startCaching.isEmpty)
  }
}
