import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

/// The decisions the Apple layer's pickers only call: how to load a result, how picks own import items, how
/// their progress counts, what may be preselected.
struct PickDecisionTests {
  @Test(arguments: [
    // The real picker lists the bundle first (NSItemProvider registration order); the simulator last.
    (
      ["com.apple.live-photo-bundle", "public.heic", "public.jpeg"], LivePhotoPolicy.keepPair,
      PickLoad.livePhoto(bundleTypeIdentifier: "com.apple.live-photo-bundle", keepsMovie: true)
    ),
    (
      ["public.heic", "public.jpeg", "com.apple.live-photo-bundle"], .keepPair,
      .livePhoto(bundleTypeIdentifier: "com.apple.live-photo-bundle", keepsMovie: true)
    ),
    (
      ["com.apple.live-photo-bundle", "public.heic", "public.jpeg"], .stillOnly,
      .file(typeIdentifier: "public.heic")
    ),
    (
      ["com.apple.live-photo-bundle"], .stillOnly,
      .livePhoto(bundleTypeIdentifier: "com.apple.live-photo-bundle", keepsMovie: false)
    ),
    (
      ["com.apple.live-photo", "public.jpeg"], .keepPair,
      .livePhoto(bundleTypeIdentifier: "com.apple.live-photo", keepsMovie: true)
    ),
    (["public.jpeg", "public.heic"], .keepPair, .file(typeIdentifier: "public.heic")),
    (
      ["com.apple.quicktime-movie", "public.mpeg-4"], .keepPair,
      .file(typeIdentifier: "com.apple.quicktime-movie")
    ),
    (["com.adobe.raw-image", "public.jpeg"], .keepPair, .file(typeIdentifier: "com.adobe.raw-image")),
    (["com.example.unknown"], .keepPair, .file(typeIdentifier: "com.example.unknown")),
    ([], .keepPair, .nothing),
  ])
  func loadDecision(_ registered: [String], _ policy: LivePhotoPolicy, _ expected: PickLoad) {
    #expect(PickLoad.decide(registered: registered, livePhotos: policy) == expected)
  }

  @Test func aPlanGivesEachPickItsItemsInOrder() {
    let folder = NSTemporaryDirectory()
    func provider(_ types: [String]) -> PickedResult {
      PickedResult(
        assetIdentifier: UUID().uuidString,
        provider: ScriptedProvider(
          registeredTypeIdentifiers: types, suggestedName: nil, behaviour: .silent, temporaryFolder: folder))
    }
    let results = [
      provider(["public.heic"]), provider([LivePhotoBundle.typeIdentifier, "public.heic"]), provider([]),
      provider(["public.mpeg-4"]),
    ]
    let plan = PickPlan(results: results, previous: PhotoSelection(), livePhotos: .keepPair)
    #expect(plan.picks.map(\.items) == [0..<1, 1..<3, 3..<3, 3..<4])
    #expect(plan.itemCount == 4)
    #expect(plan.owner(ofItem: 2) == (1, 1))
    #expect(plan.owner(ofItem: 3) == (3, 0))
    #expect(plan.progressWeights == [[1], [1, 0], [], [1]])
    // The empty provider, never picked before, cannot be imported.
    #expect(plan.picks[2].load == nil)
    #expect(plan.picks[2].step == .unavailable(resultIndex: 2, assetIdentifier: results[2].assetIdentifier))
  }

  @Test func pickProgressIsWeightedAndReachesOneOnlyWhenEveryPartFinished() {
    var progress = PickProgress(weights: [[1], [1, 0], []])
    #expect(progress.overall.completed == 1)
    let u1 = progress.update(pick: 0, part: 0, fraction: 0.5)
    #expect(u1 == 0.5)
    let u2 = progress.update(pick: 1, part: 0, fraction: 1)
    #expect(u2 == PickProgress.unfinishedCeiling)
    let stillDone = progress.finish(pick: 1, part: 0)
    #expect(!stillDone)
    #expect(progress.fraction(ofPick: 1) == PickProgress.unfinishedCeiling)
    let movieDone = progress.finish(pick: 1, part: 1)
    #expect(movieDone)
    #expect(progress.fraction(ofPick: 1) == 1)
    // Never backwards, clamped, NaN ignored.
    let u3 = progress.update(pick: 0, part: 0, fraction: 0.2)
    #expect(u3 == 0.5)
    let u4 = progress.update(pick: 0, part: 0, fraction: .nan)
    #expect(u4 == 0.5)
    let u5 = progress.update(pick: 0, part: 0, fraction: 7)
    #expect(u5 == PickProgress.unfinishedCeiling)
    let overall = progress.overall
    #expect(overall.completed == 2 && overall.total == 3)
    #expect(abs(overall.fraction - (0.99 + 1 + 1) / 3) < 1e-9)
  }

  @Test func zeroWeightsCountPartsEqually() {
    var progress = PickProgress(weights: [[0, 0]])
    let u6 = progress.update(pick: 0, part: 0, fraction: 1)
    #expect(u6 == 0.5)
    #expect(PickProgress(weights: []).overall.fraction == 1)
  }

  @Test func preselectionFollowsPhotoKitsRules() {
    let selection = PhotoSelection(items: [
      .init(assetIdentifier: "A", asset: AssetID(rawValue: "1")),
      .init(assetIdentifier: "B", asset: AssetID(rawValue: "2")),
      .init(assetIdentifier: nil, asset: AssetID(rawValue: "3")),
    ])
    var options = PickerOptions()
    #expect(options.selectionLimit == 0 && options.ordered && options.encoding == .current)
    #expect(options.preselectedAssetIdentifiers(for: selection) == ["A", "B"])
    #expect(options.mergeBase(for: selection) == selection)
    options.selectionLimit = 1
    #expect(options.preselectedAssetIdentifiers(for: selection).isEmpty)
    #expect(options.mergeBase(for: selection).items.isEmpty)
    options.selectionLimit = 2
    #expect(options.preselectedAssetIdentifiers(for: selection) == ["A", "B"])
    let three = PhotoSelection(
      items: selection.items + [.init(assetIdentifier: "C", asset: AssetID(rawValue: "4"))])
    #expect(options.preselectedAssetIdentifiers(for: three).isEmpty)
    options.selectionLimit = 0
    options.usesPhotoLibrary = false
    #expect(options.preselectedAssetIdentifiers(for: selection).isEmpty)
  }

  @Test func theNewSelectionDependsOnWhetherTheOldOneWasPreselected() {
    func item(_ identifier: String?, _ asset: String) -> PhotoSelection.Item {
      .init(assetIdentifier: identifier, asset: AssetID(rawValue: asset))
    }
    let previous = PhotoSelection(items: [item("A", "1"), item("B", "2")])
    let picked = PhotoSelection(items: [item("C", "3")])
    var options = PickerOptions()
    // Preselected: the outcome is the whole selection (the user deselected A and B).
    #expect(options.selection(after: picked, previous: previous) == picked)
    #expect(options.selection(after: PhotoSelection(), previous: previous) == PhotoSelection())
    // Not preselectable: additions, or a replacement under a limit of 1; Cancel keeps what was there.
    options.usesPhotoLibrary = false
    #expect(
      options.selection(after: picked, previous: previous).items.map(\.asset.rawValue) == ["1", "2", "3"])
    #expect(options.selection(after: PhotoSelection(), previous: previous) == previous)
    options.usesPhotoLibrary = true
    options.selectionLimit = 1
    #expect(options.selection(after: picked, previous: previous) == picked)
    #expect(options.selection(after: PhotoSelection(), previous: previous) == previous)
  }

  /// The app removed or reordered items while an import ran: the import's end must not bring them back.
  @Test func editsTheAppMadeDuringAnImportSurviveIt() {
    func item(_ identifier: String?, _ asset: String) -> PhotoSelection.Item {
      .init(assetIdentifier: identifier, asset: AssetID(rawValue: asset))
    }
    func assets(_ selection: PhotoSelection) -> [String] { selection.items.map(\.asset.rawValue) }
    let a = item("A", "1")
    let b = item("B", "2")
    let c = item("C", "3")
    let d = item("D", "4")
    let e = item("E", "5")
    let previous = PhotoSelection(items: [a, b, c])
    var options = PickerOptions()

    // Preselected: the picker returned A, B, C and a new D while the app removed B and moved C first.
    let outcome = PhotoSelection(items: [a, b, c, d])
    let current = PhotoSelection(items: [c, a])
    #expect(
      assets(options.selection(after: outcome, previous: previous, current: current)) == ["3", "1", "4"])
    // Unchanged by the app: the two-argument rule.
    #expect(
      options.selection(after: outcome, previous: previous, current: previous)
        == options.selection(after: outcome, previous: previous))
    // The user deselected A in the picker, the app added E meanwhile: A goes, E stays.
    let withoutA = PhotoSelection(items: [b, c])
    let added = PhotoSelection(items: [a, b, c, e])
    #expect(
      assets(options.selection(after: withoutA, previous: previous, current: added)) == ["2", "3", "5"])

    // Additions (not preselectable): Cancel keeps the app's edit; picks are appended to it.
    options.usesPhotoLibrary = false
    #expect(options.selection(after: PhotoSelection(), previous: previous, current: current) == current)
    #expect(
      assets(options.selection(after: PhotoSelection(items: [d]), previous: previous, current: current))
        == ["3", "1", "4"])
    // A limit of 1: a pick replaces, Cancel keeps the app's.
    options.usesPhotoLibrary = true
    options.selectionLimit = 1
    #expect(
      options.selection(after: PhotoSelection(items: [d]), previous: previous, current: current).items == [d])
    #expect(options.selection(after: PhotoSelection(), previous: previous, current: current) == current)
  }

  @Test func iOS17OnlySettingsAreNamed() {
    var options = PickerOptions()
    #expect(options.requiredIOSVersion == 16)
    options.style = .inline
    #expect(options.requiredIOSVersion == 17)
    options = PickerOptions()
    options.disabledCapabilities = [.search, .stagingArea]
    #expect(options.requiredIOSVersion == 17)
  }

  @Test(arguments: [
    (0, AuthorizationStatus.notDetermined), (1, .restricted), (2, .denied), (3, .authorized), (4, .limited),
  ])
  func systemStatusValues(_ raw: Int, _ status: AuthorizationStatus) {
    #expect(AuthorizationStatus(systemRawValue: raw) == status)
  }

  @Test func unknownSystemStatusValuesAreNotGuessed() {
    #expect(AuthorizationStatus(systemRawValue: 5) == nil)
    #expect(PhotoAccessLevel.none.photoKitRawValue == nil)
    #expect(PhotoAccessLevel.addOnly.photoKitRawValue == 1)
    #expect(PhotoAccessLevel.readWrite.photoKitRawValue == 2)
  }

  @Test func selectionItemsWithoutAPairedVideoDecodeFromTheEarlierFormat() throws {
    let old = Data(#"{"items":[{"assetIdentifier":"A","asset":"1"}]}"#.utf8)
    let decoded = try JSONDecoder().decode(PhotoSelection.self, from: old)
    #expect(decoded.items[0].pairedVideo == nil)
    let paired = PhotoSelection(items: [
      .init(assetIdentifier: "A", asset: AssetID(rawValue: "1"), pairedVideo: AssetID(rawValue: "2"))
    ])
    let roundTrip = try JSONDecoder().decode(PhotoSelection.self, from: JSONEncoder().encode(paired))
    #expect(roundTrip == paired)
  }
}
