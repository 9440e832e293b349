import Foundation
import PhotoIntake

extension ScenarioContext {
  /// The seed bug: photos that "go black" after a restart.
  ///
  /// A naive app keeps what the picker gave it (the temporary file URL and the asset identifier). The URL dies
  /// when the completion handler returns; the identifier only opens photos still in the limited selection. The
  /// PhotoIntake app copies each photo into its library inside the handler and keeps asset IDs.
  func restartAfterNarrowing() async throws -> (ScenarioValue, Bool) {
    let phone = device("iPhone", number: 1)
    let photos = (1...5).map { phone.add(.photo(String(format: "IMG_%04d", $0))) }
    let picked = Array(photos.prefix(3))
    log("system", "the library holds \(photos.count) photos")

    // Both apps browse, so both asked for read-write access; the user gave the 3 photos.
    phone.user.willAnswerNextPrompt(.selectPhotos(picked))
    let status = await phone.requestAuthorization(for: .readWrite)
    log(
      "user",
      "allows limited access to \(names(picked, on: phone).joined(separator: ", ")) (\(status.rawValue))")

    var configuration = SimulatedPickerConfiguration(photoLibrary: phone)
    configuration.selectionLimit = 0
    configuration.selection = .ordered
    let results = try SimulatedPicker(device: phone).present(configuration).pick(picked)
    log("user", "picks \(names(picked, on: phone).joined(separator: ", ")) in the picker")

    // The naive app: keeps the URL the provider hands out and the asset identifier.
    var naiveKept: [(url: URL?, identifier: String?)] = []
    for result in results {
      let url = try? await result.itemProvider.withFileRepresentation(forTypeIdentifier: "public.image") {
        $0
      }
      naiveKept.append((url, result.assetIdentifier))
    }
    log("naive app", "keeps \(naiveKept.count) temporary URLs and asset identifiers")

    // PhotoIntake: imports inside the callback, keeps the selection (asset IDs) in a file.
    var library = try await library("library")
    let merge = SelectionMerge(previous: PhotoSelection(), results: results.map(\.pickedItem))
    let outcome = await merge.run(importer: importer(library), results: results.map(\.pickedItem)) {
      SimulatedPickerItemSource(results[$0])
    }
    let selectionFile = directory + "/selection.json"
    try JSONEncoder().encode(outcome.selection).write(to: URL(fileURLWithPath: selectionFile))
    log(
      "PhotoIntake", "imports \(outcome.summary?.importedCount ?? 0) photos durably and saves the selection")

    phone.user.editSelectedPhotos(removing: Array(picked.dropFirst()))
    log("user", "narrows the limited selection to \(names([picked[0]], on: phone)[0]) in Settings")

    // Restart: the apps lose their memory; files and the library on disk remain.
    await library.close()
    clock.advance(by: .seconds(60))
    log("system", "the apps are restarted")

    var naiveReopened = 0
    var lostFiles = 0
    var lostToSelection = 0
    for kept in naiveKept {
      if let url = kept.url, FileManager.default.fileExists(atPath: url.path) {
        naiveReopened += 1
        continue
      }
      lostFiles += 1
      if let identifier = kept.identifier,
        phone.fetchAssets(.init(localIdentifiers: [identifier])).count == 1
      {
        naiveReopened += 1
      } else {
        lostToSelection += 1
      }
    }
    log("naive app", "temporary files gone: \(lostFiles); identifiers no longer visible: \(lostToSelection)")
    log("naive app", "reopens \(naiveReopened) of \(naiveKept.count) photos")

    library = try await self.library("library")
    let saved = try JSONDecoder().decode(
      PhotoSelection.self, from: FileManager.default.contents(atPath: selectionFile) ?? Data())
    var reopened = 0
    for asset in saved.assets where await opens(asset, in: library) { reopened += 1 }
    await library.close()
    log("PhotoIntake", "reopens \(reopened) of \(saved.items.count) photos from its library")

    let value = ScenarioValue.fields([
      "naive": .fields([
        "kept": .int(naiveKept.count), "reopened": .int(naiveReopened),
        "lostTemporaryFiles": .int(lostFiles), "lostToNarrowedSelection": .int(lostToSelection),
      ]),
      "photoIntake": .fields([
        "kept": .int(saved.items.count), "reopened": .int(reopened),
        "preselectedNextTime": .int(saved.preselectedAssetIdentifiers.count),
      ]),
    ])
    return (value, reopened == picked.count && saved.items.count == picked.count)
  }
}
