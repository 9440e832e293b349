import PhotoIntake

extension ScenarioContext {
  /// `.limited` is a grant: the gallery shows the selection with a banner, and "add more photos" widens it.
  ///
  /// The naive app treats anything but `.authorized` as a refusal and sends the user to Settings.
  func limitedAccess() async throws -> (ScenarioValue, Bool) {
    let phone = device("iPhone", number: 1)
    let photos = (1...6).map { phone.add(.photo(String(format: "IMG_%04d", $0))) }
    var access = AccessStateMachine(features: [.browse])
    let changes = phone.changes()
    var iterator = changes.makeAsyncIterator()

    access.handle(.statusObserved(phone.authorizationStatus(for: .readWrite)))
    log("PhotoIntake", "status notDetermined: screen \(access.screen.rawValue)")
    phone.user.willAnswerNextPrompt(.selectPhotos(Array(photos.prefix(3))))
    var effects = access.handle(.userTappedAsk)
    var status = AuthorizationStatus.notDetermined
    for case .requestAuthorization(let level) in effects {
      status = await phone.requestAuthorization(for: level)
      // The grant reaches observers as a library change; take it off the stream.
      _ = await iterator.next()
    }
    log("user", "taps Allow, then Select Photos: IMG_0001, IMG_0002, IMG_0003")

    let naiveScreen = status == .authorized ? "gallery" : "denied"
    log("naive app", "sees \(status.rawValue) and shows \"\(naiveScreen)\" with a Settings link; 0 photos")

    effects = access.handle(.requestFinished(status))
    var gallery = phone.fetchAssets()
    log(
      "PhotoIntake",
      "screen \(access.screen.rawValue) with \(gallery.count) photos; banner: \(access.message ?? "")")
    let before = gallery.count
    let screenBefore = access.screen

    phone.user.willChangeLimitedSelection(adding: [photos[3], photos[4]])
    effects = access.handle(.userTappedAddMorePhotos)
    var newlySelected: [String] = []
    for effect in effects where effect == .presentLimitedLibraryPicker {
      newlySelected = await phone.presentLimitedLibraryPicker()
    }
    log(
      "user",
      "taps \"add more photos\" and selects \(names(newlySelected, on: phone).joined(separator: ", "))")
    effects = access.handle(.limitedPickerFinished(newlySelected: newlySelected))

    var inserted: [Int] = []
    // A widened selection is a library change (only then is there one to wait for).
    if !newlySelected.isEmpty, let change = await iterator.next(),
      let details = change.changeDetails(for: gallery)
    {
      inserted = details.insertedIndexes
      gallery = phone.refetch(gallery)
      log(
        "PhotoIntake",
        "the library change inserts rows \(inserted.map(String.init).joined(separator: ", ")) in place")
    }
    log("PhotoIntake", "screen \(access.screen.rawValue) with \(gallery.count) photos")

    let value = ScenarioValue.fields([
      "naive": .fields([
        "status": .string(status.rawValue), "screen": .string(naiveScreen), "visible": .int(0),
      ]),
      "photoIntake": .fields([
        "status": .string(status.rawValue), "screen": .string(screenBefore.rawValue),
        "visibleBefore": .int(before), "newlySelected": .int(newlySelected.count),
        "insertedIndexes": .ints(inserted), "reloadedEverything": .bool(effects.contains(.reloadContent)),
        "visibleAfter": .int(gallery.count),
      ]),
    ])
    return (
      value,
      screenBefore == .contentWithLimitedBanner && gallery.count == 5 && inserted == [3, 4]
        && !effects.contains(.reloadContent)
    )
  }
}
