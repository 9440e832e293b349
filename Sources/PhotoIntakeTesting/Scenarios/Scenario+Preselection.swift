import PhotoIntake

extension ScenarioContext {
  /// Re-opening the picker with preselection: kept photos come back without item providers.
  ///
  /// The naive app loads every result from its provider, so it loses every photo the user kept (and, after
  /// Cancel, everything). PhotoIntake's ``SelectionMerge`` reuses the earlier assets.
  func preselection() async throws -> (ScenarioValue, Bool) {
    let phone = device("iPhone", number: 1)
    let photos = (1...6).map { phone.add(.photo(String(format: "IMG_%04d", $0))) }
    let picker = SimulatedPicker(device: phone)
    let library = try await library("library")
    let importer = importer(library)
    var selection = PhotoSelection()
    var naive: [String] = []

    func session(
      _ label: String, preselect: Bool, userDoes: String,
      user: (SimulatedPickerSession) throws -> [SimulatedPickerResult]
    ) async throws -> (imported: Int, reused: Int, dropped: [String]) {
      var configuration = SimulatedPickerConfiguration(photoLibrary: phone)
      configuration.selectionLimit = 0
      configuration.selection = .ordered
      if preselect { configuration.preselectedAssetIdentifiers = selection.preselectedAssetIdentifiers }
      let results = try user(try picker.present(configuration))
      log("user", userDoes)
      let withProviders = results.filter { !$0.itemProvider.registeredTypeIdentifiers.isEmpty }
      log(
        "system",
        "\(label): \(results.count) results, \(results.count - withProviders.count) without item providers")

      // The naive app: one photo per result, loaded from its provider.
      naive = results.compactMap { result in
        result.itemProvider.registeredTypeIdentifiers.isEmpty ? nil : result.itemProvider.suggestedName
      }
      log("naive app", "now shows \(naive.isEmpty ? "nothing" : naive.joined(separator: ", "))")

      let items = results.map(\.pickedItem)
      let merge = SelectionMerge(previous: selection, results: items)
      let outcome = await merge.run(importer: importer, results: items) {
        SimulatedPickerItemSource(results[$0])
      }
      selection = outcome.selection
      let shown = await names(of: selection, in: library)
      log(
        "PhotoIntake",
        "reuses \(outcome.reusedCount), imports \(outcome.summary?.importedCount ?? 0), drops \(outcome.dropped.count): "
          + (shown.isEmpty ? "nothing" : shown.joined(separator: ", ")))
      return (
        outcome.summary?.importedCount ?? 0, outcome.reusedCount,
        names(outcome.dropped.compactMap(\.assetIdentifier), on: phone)
      )
    }

    let first = try await session(
      "first pick", preselect: false, userDoes: "picks IMG_0001, IMG_0002, IMG_0003 (ordered selection)"
    ) { try $0.pick(Array(photos.prefix(3))) }
    let second = try await session(
      "second pick", preselect: true,
      userDoes:
        "reopens the picker: keeps IMG_0001 and IMG_0003, deselects IMG_0002, adds IMG_0005 then IMG_0004"
    ) { session in
      session.deselect(photos[1])
      try session.select(photos[4])
      try session.select(photos[3])
      return try session.done()
    }
    let afterSecond = await names(of: selection, in: library)
    let naiveAfterSecond = naive
    let third = try await session(
      "third session", preselect: true, userDoes: "reopens the picker and taps Cancel"
    ) { $0.cancel() }
    let afterCancel = await names(of: selection, in: library)
    let assets = (try? await library.count()) ?? 0
    await library.close()

    let expected = ["IMG_0001.HEIC", "IMG_0003.HEIC", "IMG_0005.HEIC", "IMG_0004.HEIC"]
    let value = ScenarioValue.fields([
      "naive": .fields([
        "afterSecondPick": .strings(naiveAfterSecond), "afterCancel": .strings(naive),
      ]),
      "photoIntake": .fields([
        "firstPick": .fields(["imported": .int(first.imported)]),
        "secondPick": .fields([
          "imported": .int(second.imported), "reused": .int(second.reused),
          "dropped": .strings(second.dropped),
        ]),
        "afterSecondPick": .strings(afterSecond),
        "cancel": .fields(["imported": .int(third.imported), "reused": .int(third.reused)]),
        "afterCancel": .strings(afterCancel),
        "assetsInLibrary": .int(assets),
      ]),
    ])
    return (value, afterSecond == expected && afterCancel == expected && third.imported == 0)
  }

  /// The display names of a selection's assets, in order.
  func names(of selection: PhotoSelection, in library: Library) async -> [String] {
    var result: [String] = []
    for asset in selection.assets {
      result.append((try? await library.asset(asset))?.name ?? asset.rawValue)
    }
    return result
  }
}
