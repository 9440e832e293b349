import PhotoIntake

extension ScenarioContext {
  /// A selection made on a phone, found again on a tablet through cloud identifiers.
  ///
  /// The naive app syncs local identifiers, which mean nothing on another device. PhotoIntake syncs
  /// ``PhotoIntake/PhotoSyncRecord``s (cloud identifier + SHA-256) and maps them back on the tablet.
  func twoDevices() async throws -> (ScenarioValue, Bool) {
    let account = SimulatedICloud()
    let phone = device("iPhone", number: 1, account: account)
    let pad = device("iPad", number: 2, account: account)
    var photos = (1...3).map { phone.add(.photo(String(format: "IMG_%04d", $0))) }
    photos.append(phone.add(.photo("IMG_0004"), uploaded: false))
    account.sync()
    log("system", "iCloud Photos syncs 3 of 4 photos to the iPad; IMG_0004 is not uploaded yet")

    var configuration = SimulatedPickerConfiguration(photoLibrary: phone)
    configuration.selectionLimit = 0
    configuration.selection = .ordered
    let results = try SimulatedPicker(device: phone).present(configuration).pick(photos)
    log("user", "picks 4 photos on the iPhone")

    let phoneLibrary = try await library("iphone-library")
    let items = results.map(\.pickedItem)
    let outcome = await SelectionMerge(previous: PhotoSelection(), results: items).run(
      importer: importer(phoneLibrary), results: items
    ) { SimulatedPickerItemSource(results[$0]) }
    let records = await CloudIdentifierMapper(resolver: phone).syncRecords(
      for: outcome.selection, library: phoneLibrary)
    let payload = PhotoSyncPayload(records: records).encoded()
    let naivePayload = outcome.selection.preselectedAssetIdentifiers
    await phoneLibrary.close()
    log(
      "PhotoIntake",
      "syncs \(records.count) records (\(records.compactMap(\.cloudIdentifier).count) with cloud identifiers)"
    )
    log("naive app", "syncs \(naivePayload.count) local identifiers")

    // On the iPad: the app has full access there, and receives what was synced.
    pad.user.willAnswerNextPrompt(.allowFullAccess)
    _ = await pad.requestAuthorization(for: .readWrite)
    let naiveFound = pad.fetchAssets(.init(localIdentifiers: naivePayload)).count
    log("naive app", "finds \(naiveFound) of \(naivePayload.count) on the iPad")

    let received = try PhotoSyncPayload.decode(payload).records
    let lookups = await CloudIdentifierMapper(resolver: pad).resolve(received)
    var found: [String] = []
    var notFound = 0
    for lookup in lookups {
      if let local = lookup.value { found.append(local) } else { notFound += 1 }
    }
    log("PhotoIntake", "finds \(found.count) of \(received.count) on the iPad; \(notFound) not in iCloud yet")

    let padLibrary = try await library("ipad-library")
    let summary = await importer(padLibrary).importItems(
      found.map { SimulatedLibraryItemSource(library: pad, localIdentifier: $0) })
    var sameBytes = 0
    for (report, record) in zip(summary.items, received.filter { $0.cloudIdentifier != nil })
    where report.result.asset?.sha256 == record.sha256 {
      sameBytes += 1
    }
    await padLibrary.close()
    log(
      "PhotoIntake",
      "downloads them from iCloud on the iPad: \(sameBytes) byte-identical to the iPhone's copies")

    let differentLocal = zip(photos, found).allSatisfy { $0 != $1 }
    let value = ScenarioValue.fields([
      "naive": .fields(["synced": .int(naivePayload.count), "found": .int(naiveFound)]),
      "photoIntake": .fields([
        "synced": .int(records.count), "found": .int(found.count), "notFound": .int(notFound),
        "sameBytes": .int(sameBytes), "localIdentifiersDiffer": .bool(differentLocal),
      ]),
    ])
    return (value, found.count == 3 && sameBytes == 3 && notFound == 1)
  }
}
