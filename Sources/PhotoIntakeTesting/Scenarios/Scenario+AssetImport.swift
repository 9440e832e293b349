import PhotoIntake

extension ScenarioContext {
  /// A 48 MP photo in iCloud imported from the library: a naive full-size `requestImage` against PhotoIntake's
  /// streamed resource write; then offline, a typed error; online with the Apple Account signed out, another
  /// (iCloud unavailable, which connecting does not fix); and a retry that succeeds once signed in.
  func assetImport() async throws -> (ScenarioValue, Bool) {
    let phone = device("iPhone", number: 1)
    phone.user.setAccessInSettings(.full)
    // 8064 × 6048: the 48 MP main camera's full resolution.
    let photo = phone.add(.photo("IMG_0048", format: .heic, width: 8064, height: 6048), storage: .iCloudOnly)
    let live = phone.add(.livePhoto("IMG_0049"), storage: .iCloudOnly)
    log(
      "system",
      "IMG_0048.HEIC (48 MP) and the Live Photo IMG_0049 are in iCloud only; the app has full access")
    phone.observeDownloads { [timeline, weak phone] identifier, fraction in
      guard fraction > 0 else { return }
      timeline.log(
        "system", "\(phone?.inspect(identifier)?.filename ?? identifier) downloading \(Int(fraction * 100))%")
    }

    let library = try await library("library")
    let assets = AssetImport(importer: importer(library), provider: phone)
    var attempts: [ScenarioValue] = []

    func attempt(_ label: String) async -> AssetImportOutcome {
      let outcome = await assets.run([photo, live])
      for entry in outcome.entries {
        let name = names([entry.localIdentifier], on: phone)[0]
        if let error = entry.error {
          log("PhotoIntake", "\(name) failed: \(error.description)")
        } else {
          log(
            "PhotoIntake",
            "\(name) imported (\(entry.plan?.primary.kind.name ?? "?"))"
              + (entry.pairedVideo != nil ? " with its movie, linked" : ""))
        }
      }
      attempts.append(
        .fields([
          "attempt": .string(label), "errors": .strings(outcome.entries.compactMap { $0.error?.code }),
          "assetsInLibrary": .int((try? await library.count()) ?? -1),
          "stagingFiles": .int(stagingFileCount(library)),
        ]))
      return outcome
    }

    phone.user.setOnline(false)
    log("user", "is offline and taps Import")
    let offline = await attempt("offline")
    phone.user.setOnline(true)
    phone.user.setICloud(.notAuthenticated)
    log("system", "is online, but the Apple Account asks for its password again")
    log("user", "taps Retry")
    let signedOut = await attempt("online, iCloud signed out")
    phone.user.setICloud(.available)
    log("user", "enters the password in Settings and taps Retry")
    let online = await attempt("retry")

    // The naive way: `PHImageManager.requestImage(for:targetSize: PHImageManagerMaximumSize, …)` decodes the
    // whole photo into a bitmap of 4 bytes per pixel before the app can write anything.
    let stored = online.entries[0].asset
    let width = stored?.metadata?.width ?? 0
    let height = stored?.metadata?.height ?? 0
    let decoded = width * height * 4
    log(
      "naive app",
      "requestImage at PHImageManagerMaximumSize: a \(width) × \(height) bitmap, \(decoded >> 20) MiB")
    log(
      "PhotoIntake",
      "writeData into staging, then a hard link: \(stored?.size ?? 0) bytes on disk (the fixture declares 48 MP "
        + "without pixel data), hashed in 1 MiB reads; no bitmap, no Data")

    let total = (try? await library.count()) ?? 0
    let clean = stagingFileCount(library) == 0
    await library.close()
    let linked = online.entries[1].pairedVideo != nil && online.selection.items.last?.pairedVideo != nil
    let offlineTyped =
      offline.entries.allSatisfy { $0.error == .networkRequired }
      && signedOut.entries.allSatisfy { $0.error == .iCloudUnavailable }
    let value = ScenarioValue.fields([
      "naive": .fields([
        "call": .string("requestImage(targetSize: PHImageManagerMaximumSize)"),
        "decodedBytes": .int(decoded), "pixels": .int(width * height),
      ]),
      "photoIntake": .fields([
        "call": .string("writeData(for:toFile:) into staging + link"),
        "fileBytes": .int(Int(stored?.size ?? 0)), "decodedBytes": .int(0),
        "attempts": .array(attempts), "assetsInLibrary": .int(total), "livePhotoLinked": .bool(linked),
        "halfImported": .int(clean ? 0 : 1),
      ]),
    ])
    // Photo, Live Photo still and movie: three assets.
    return (value, offlineTyped && online.failures.isEmpty && total == 3 && linked && clean && decoded > 0)
  }
}

extension AssetResource.Kind {
  /// PhotoKit's name for the kind (`PHAssetResourceType`), for timelines.
  var name: String {
    switch self {
    case .photo: "photo"
    case .video: "video"
    case .audio: "audio"
    case .alternatePhoto: "alternatePhoto"
    case .fullSizePhoto: "fullSizePhoto"
    case .fullSizeVideo: "fullSizeVideo"
    case .adjustmentData: "adjustmentData"
    case .adjustmentBasePhoto: "adjustmentBasePhoto"
    case .pairedVideo: "pairedVideo"
    case .fullSizePairedVideo: "fullSizePairedVideo"
    case .adjustmentBasePairedVideo: "adjustmentBasePairedVideo"
    case .adjustmentBaseVideo: "adjustmentBaseVideo"
    case .photoProxy: "photoProxy"
    }
  }
}
