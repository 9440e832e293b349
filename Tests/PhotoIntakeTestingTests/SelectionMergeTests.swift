import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

// A broken simulator or scenario would wait forever for a prompt, a change or a download: fail instead.
@Suite(.timeLimit(.minutes(1)))
struct SelectionMergeTests {
  /// A selection of assets "A", "B"… whose asset IDs are "asset-A"…
  static func selection(_ identifiers: [String?]) -> PhotoSelection {
    PhotoSelection(
      items: identifiers.enumerated().map { index, identifier in
        PhotoSelection.Item(
          assetIdentifier: identifier, asset: AssetID(rawValue: "asset-\(identifier ?? "nil\(index)")"))
      })
  }

  /// Results: "A" has a provider, "a" is "A" without one.
  static func results(_ text: String) -> [PickedItem] {
    text.map { PickedItem(assetIdentifier: $0.uppercased(), hasItemProvider: $0.isUppercase) }
  }

  static func describe(_ merge: SelectionMerge, _ results: [PickedItem]) -> String {
    merge.steps.map { step in
      switch step {
      case .reuse(let item): "reuse \(item.assetIdentifier!)"
      case .importNew(let index): "import \(results[index].assetIdentifier ?? "?")"
      case .unavailable(let index, _): "unavailable \(results[index].assetIdentifier ?? "?")"
      }
    }.joined(separator: ", ")
  }

  @Test(arguments: [
    // previous, results, plan, dropped
    ("", "ABC", "import A, import B, import C", ""),
    ("ABC", "acED", "reuse A, reuse C, import E, import D", "B"),
    ("ABC", "abc", "reuse A, reuse B, reuse C", ""),  // Cancel
    ("ABC", "", "", "ABC"),  // everything deselected
    ("ABC", "cba", "reuse C, reuse B, reuse A", ""),  // reordered
    ("ABC", "aA", "reuse A", "BC"),  // the same asset twice counts once
    ("AB", "ax", "reuse A, unavailable X", "B"),  // a preselected identifier the app has no asset for
    ("AB", "Ab", "reuse A, reuse B", ""),  // kept with a provider after all: still reused, not re-imported
  ])
  func plans(_ previous: String, _ results: String, _ plan: String, _ dropped: String) {
    let items = Self.results(results)
    let merge = SelectionMerge(previous: Self.selection(previous.map { String($0) }), results: items)
    #expect(Self.describe(merge, items) == plan)
    #expect(merge.dropped.compactMap(\.assetIdentifier).joined() == dropped)
  }

  /// The user's order across several picker sessions, each re-opened with the last selection preselected.
  ///
  /// Each round is the picker's result list (in the notation of ``results(_:)``); each expectation is the
  /// selection after that round as "identifier + round its asset was imported in", so a kept item must
  /// keep the asset of the round that first imported it. Expectations follow the documented contract: the
  /// results' order is the user's order, kept items are reused, deselected items leave the selection, the
  /// first occurrence of a repeated asset decides its place, and a result that is neither earlier nor
  /// loadable is left out.
  @Test(arguments: [
    // New picks go after the kept ones when the user adds them at the end.
    (["ABC", "abcD", "abcdE"], ["A1 B1 C1", "A1 B1 C1 D2", "A1 B1 C1 D2 E3"]),
    // Deselecting from the middle closes the gap without moving the others.
    (["ABCDE", "abde", "ae"], ["A1 B1 C1 D1 E1", "A1 B1 D1 E1", "A1 E1"]),
    // The user reorders in the picker: the selection follows, assets stay those of round 1.
    (["ABC", "cab", "bca"], ["A1 B1 C1", "C1 A1 B1", "B1 C1 A1"]),
    // Preselected items come back in another order than they were preselected in, with a new pick between
    // them: the results' order wins over the previous selection's.
    (["ABC", "bDca"], ["A1 B1 C1", "B1 D2 C1 A1"]),
    // A new pick placed first, before every kept item.
    (["AB", "Cab"], ["A1 B1", "C2 A1 B1"]),
    // Repeats: the first occurrence decides the place, whether it is kept, new or either form of the same asset.
    (["AAB", "bBaAC", "CcCa"], ["A1 B1", "B1 A1 C2", "C2 A1"]),
    // Everything deselected, then picked again in another order: imported afresh, in the new order.
    (["AB", "", "BA"], ["A1 B1", "", "B3 A3"]),
    // Cancel after a reorder returns the preselection as it is: nothing moves.
    (["ABC", "cab", "cab"], ["A1 B1 C1", "C1 A1 B1", "C1 A1 B1"]),
    // A preselected identifier the app never had (no provider) is left out, and the order around it kept.
    (["AB", "axbC"], ["A1 B1", "A1 B1 C2"]),
  ])
  func orderAcrossMerges(_ rounds: [String], _ expected: [String]) {
    var selection = PhotoSelection()
    var after: [String] = []
    for (round, text) in zip(1..., rounds) {
      let items = Self.results(text)
      let merge = SelectionMerge(previous: selection, results: items)
      var imported: [Int: AssetID] = [:]
      for index in merge.resultIndexesToImport {
        imported[index] = AssetID(rawValue: "\(round)")
      }
      selection = merge.selection(imported: imported, results: items)
      after.append(
        selection.items.map { "\($0.assetIdentifier ?? "?")\($0.asset.rawValue)" }
          .joined(separator: " "))
      // The identifiers to preselect next time are the selection's, in the same order.
      #expect(selection.preselectedAssetIdentifiers == selection.items.compactMap(\.assetIdentifier))
    }
    #expect(after == expected)
  }

  @Test func theNewSelectionFollowsTheUsersOrderAndSkipsFailures() {
    let items = Self.results("acED")
    let merge = SelectionMerge(previous: Self.selection(["A", "B", "C"]), results: items)
    #expect(merge.resultIndexesToImport == [2, 3])
    let selection = merge.selection(imported: [3: AssetID(rawValue: "asset-D")], results: items)
    #expect(selection.assets.map(\.rawValue) == ["asset-A", "asset-C", "asset-D"])
    #expect(selection.preselectedAssetIdentifiers == ["A", "C", "D"])
  }

  @Test func itemsWithoutIdentifiersAreKeptAfterThePickersItems() {
    let previous = Self.selection(["A", nil])
    let items = [PickedItem(assetIdentifier: nil, hasItemProvider: true)] + Self.results("a")
    let merge = SelectionMerge(previous: previous, results: items)
    #expect(merge.resultIndexesToImport == [0])
    #expect(merge.unmatchable.count == 1)
    let selection = merge.selection(imported: [0: AssetID(rawValue: "new")], results: items)
    #expect(selection.assets.map(\.rawValue) == ["new", "asset-A", "asset-nil1"])
  }

  @Test func aSelectionRoundTripsThroughJSON() throws {
    let selection = Self.selection(["A", nil, "C"])
    let data = try JSONEncoder().encode(selection)
    #expect(try JSONDecoder().decode(PhotoSelection.self, from: data) == selection)
  }

  /// The whole flow against the simulator and a real library: pick, re-open with preselection, change it.
  @Test func pickReopenDeselectAddAndCancel() async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let device = directory.device()
    let photos = (1...5).map { device.add(.photo(String(format: "IMG_%04d", $0))) }
    let picker = SimulatedPicker(device: device)
    let library = try await directory.library()
    let importer = serialImporter(library)

    func merge(_ selection: PhotoSelection, _ results: [SimulatedPickerResult]) async
      -> SelectionMerge.Outcome
    {
      let items = results.map(\.pickedItem)
      return await SelectionMerge(previous: selection, results: items).run(importer: importer, results: items)
      {
        SimulatedPickerItemSource(results[$0])
      }
    }

    let first = await merge(
      PhotoSelection(), try picker.present(orderedConfiguration(device)).pick(Array(photos.prefix(3))))
    #expect(first.summary?.importedCount == 3)
    let firstAssets = first.selection.assets

    var configuration = orderedConfiguration(device)
    configuration.preselectedAssetIdentifiers = first.selection.preselectedAssetIdentifiers
    let session = try picker.present(configuration)
    session.deselect(photos[1])
    try session.select(photos[4])
    try session.select(photos[3])
    let second = await merge(first.selection, try session.done())
    #expect(second.reusedCount == 2)
    #expect(second.summary?.importedCount == 2)
    #expect(second.dropped.map(\.asset) == [firstAssets[1]])
    #expect(second.selection.preselectedAssetIdentifiers == [photos[0], photos[2], photos[4], photos[3]])
    // Kept items reuse the very assets imported the first time.
    #expect(Array(second.selection.assets.prefix(2)) == [firstAssets[0], firstAssets[2]])
    var names: [String?] = []
    for asset in second.selection.assets { names.append(try await library.asset(asset)?.name) }
    #expect(names == ["IMG_0001.HEIC", "IMG_0003.HEIC", "IMG_0005.HEIC", "IMG_0004.HEIC"])

    configuration.preselectedAssetIdentifiers = second.selection.preselectedAssetIdentifiers
    let cancelled = await merge(second.selection, try picker.present(configuration).cancel())
    #expect(cancelled.summary == nil)
    #expect(cancelled.selection == second.selection)
    // The deselected photo's asset stays in the library: only the selection forgot it.
    #expect(try await library.count() == 5)
    await library.close()
  }

  @Test func failedImportsAreReportedAndLeftOut() async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let device = directory.device()
    let photos = [device.add(.photo()), device.add(.photo(), storage: .iCloudOnly)]
    device.user.setOnline(false)
    let results = try SimulatedPicker(device: device).present(orderedConfiguration(device)).pick(photos)
    let library = try await directory.library()
    let items = results.map(\.pickedItem)
    let outcome = await SelectionMerge(previous: PhotoSelection(), results: items).run(
      importer: Importer(library: library), results: items
    ) { SimulatedPickerItemSource(results[$0]) }
    #expect(outcome.selection.preselectedAssetIdentifiers == [photos[0]])
    #expect(outcome.failed.map(\.resultIndex) == [1])
    #expect(outcome.failed.map(\.error) == [.networkRequired])
    await library.close()
  }
}
