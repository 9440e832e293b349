import PhotoIntake

extension ScenarioContext {
  /// iCloud-only photos picked while offline: every import fails cleanly, then succeeds on retry.
  func icloudOffline() async throws -> (ScenarioValue, Bool) {
    let phone = device("iPhone", number: 1)
    let photos = (1...3).map { phone.add(.photo(String(format: "IMG_%04d", $0)), storage: .iCloudOnly) }
    log("system", "3 photos are in iCloud only (Optimize iPhone Storage)")

    var configuration = SimulatedPickerConfiguration()
    configuration.selectionLimit = 0
    let results = try SimulatedPicker(device: phone).present(configuration).pick(photos)
    log("user", "picks \(names(photos, on: phone).joined(separator: ", ")) (no library access needed)")
    phone.observeDownloads { [timeline, weak phone] identifier, fraction in
      guard fraction > 0 else { return }
      timeline.log(
        "system", "\(phone?.inspect(identifier)?.filename ?? identifier) downloading \(Int(fraction * 100))%")
    }

    let library = try await library("library")
    let importer = importer(library)
    var attempts: [ScenarioValue] = []
    var pending = Array(results.indices)
    var clean = true

    func attempt(_ label: String) async {
      let summary = await importer.importItems(pending.map { SimulatedPickerItemSource(results[$0]) })
      var failedNow: [Int] = []
      var codes: [String] = []
      for report in summary.items {
        let index = pending[report.index]
        if let error = report.result.error {
          failedNow.append(index)
          codes.append(error.code)
          log("PhotoIntake", "\(names([photos[index]], on: phone)[0]) failed: \(error.description)")
        } else {
          log("PhotoIntake", "\(names([photos[index]], on: phone)[0]) imported")
        }
      }
      let assets = (try? await library.count()) ?? -1
      let staging = stagingFileCount(library)
      clean = clean && staging == 0
      attempts.append(
        .fields([
          "attempt": .string(label), "imported": .int(summary.importedCount),
          "failed": .int(summary.failedCount),
          "errors": .strings(codes), "assetsInLibrary": .int(assets), "stagingFiles": .int(staging),
        ]))
      pending = failedNow
    }

    phone.user.setOnline(false)
    log("user", "is offline")
    await attempt("offline")

    phone.user.setOnline(true)
    phone.failDownloads(.itemUnavailable, of: photos[1], atFraction: 0.5, times: 1)
    log("user", "is back online; iCloud will drop \(names([photos[1]], on: phone)[0]) halfway once")
    await attempt("online")

    log("user", "taps Retry")
    await attempt("retry")

    let total = (try? await library.count()) ?? 0
    await library.close()
    let value = ScenarioValue.fields([
      "photoIntake": .fields([
        "attempts": .array(attempts), "assetsInLibrary": .int(total), "halfImported": .int(clean ? 0 : 1),
      ])
    ])
    return (value, total == photos.count && clean)
  }
}
