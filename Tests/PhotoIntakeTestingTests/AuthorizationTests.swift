import PhotoIntake
import PhotoIntakeTesting
import Testing

// A broken simulator or scenario would wait forever for a prompt, a change or a download: fail instead.
@Suite(.timeLimit(.minutes(1)))
struct AuthorizationTests {
  @Test(arguments: [
    (SimulatedUser.PromptAnswer.allowFullAccess, AuthorizationStatus.authorized, 3),
    (.selectPhotos(["first"]), .limited, 1),
    (.dontAllow, .denied, 0),
  ])
  func promptAnswersSetTheStatusAndWhatTheAppSees(
    _ answer: SimulatedUser.PromptAnswer, _ status: AuthorizationStatus, _ visible: Int
  ) async {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let photos = library.add([.photo(), .photo(), .photo()])
    #expect(library.fetchAssets().count == 0)
    let answer =
      if case .selectPhotos = answer { SimulatedUser.PromptAnswer.selectPhotos([photos[0]]) } else { answer }
    library.user.willAnswerNextPrompt(answer)
    #expect(await library.requestAuthorization(for: .readWrite) == status)
    #expect(library.authorizationStatus(for: .readWrite) == status)
    #expect(library.fetchAssets().count == visible)
  }

  @Test func thePromptWaitsForTheUserAndShowsOnlyOnce() async {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let request = Task { await library.requestAuthorization(for: .readWrite) }
    while !library.user.isPromptShowing { await Task.yield() }
    library.user.answerPrompt(.allowFullAccess)
    #expect(await request.value == .authorized)
    // Already determined: no prompt, the answer at once (nothing is queued, so a prompt would hang).
    #expect(await library.requestAuthorization(for: .readWrite) == .authorized)
  }

  @Test func readWriteAccessImpliesAddOnly() async {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    #expect(library.authorizationStatus(for: .addOnly) == .notDetermined)
    library.user.willAnswerNextPrompt(.selectPhotos([]))
    _ = await library.requestAuthorization(for: .readWrite)
    #expect(library.authorizationStatus(for: .addOnly) == .authorized)
    #expect(library.authorizationStatus(for: .none) == .authorized)
  }

  @Test func addOnlyAccessSavesButCannotReadBack() async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    library.user.willAnswerNextPrompt(.allowFullAccess)
    #expect(await library.requestAuthorization(for: .addOnly) == .authorized)
    #expect(library.authorizationStatus(for: .readWrite) == .notDetermined)
    let saved = try library.saveAsset(.photo())
    #expect(library.inspect(saved) != nil)
    #expect(library.fetchAssets().count == 0)
    await #expect(throws: ProviderError.self) {
      try await library.requestData(for: saved) { _ in }
    }
  }

  @Test func restrictionOverridesEverything() async {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    library.add(.photo())
    library.user.setAccessInSettings(.full)
    library.user.setRestricted(true)
    #expect(library.authorizationStatus(for: .readWrite) == .restricted)
    #expect(library.authorizationStatus(for: .addOnly) == .restricted)
    #expect(await library.requestAuthorization(for: .readWrite) == .restricted)
    #expect(library.fetchAssets().count == 0)
    #expect(throws: SimulatedPhotoLibrary.Error.accessRestricted) { try library.saveAsset(.photo()) }
  }

  @Test(arguments: [
    (SimulatedUser.SettingsAccess.none, AuthorizationStatus.denied, AuthorizationStatus.denied),
    (.addPhotosOnly, .denied, .authorized),
    (.limited([]), .limited, .authorized),
    (.full, .authorized, .authorized),
  ])
  func settingsSetBothLevels(
    _ access: SimulatedUser.SettingsAccess, _ readWrite: AuthorizationStatus, _ addOnly: AuthorizationStatus
  ) {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    library.user.setAccessInSettings(access)
    #expect(library.authorizationStatus(for: .readWrite) == readWrite)
    #expect(library.authorizationStatus(for: .addOnly) == addOnly)
  }

  @Test func limitedPickerReturnsOnlyTheNewlySelected() async {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let photos = library.add([.photo(), .photo(), .photo(), .photo()])
    library.user.setAccessInSettings(.limited([photos[0], photos[1]]))
    library.user.willChangeLimitedSelection(adding: [photos[1], photos[2]], removing: [photos[0]])
    #expect(await library.presentLimitedLibraryPicker() == [photos[2]])
    #expect(library.limitedSelection == [photos[1], photos[2]])
    #expect(library.fetchAssets().localIdentifiers == [photos[1], photos[2]])
  }

  @Test(arguments: [SimulatedUser.SettingsAccess.full, .none, .addPhotosOnly])
  func limitedPickerDoesNothingUnlessLimited(_ access: SimulatedUser.SettingsAccess) async {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let photo = library.add(.photo())
    library.user.setAccessInSettings(access)
    // Queued answer stays unused: the picker is not shown.
    library.user.willChangeLimitedSelection(adding: [photo])
    #expect(await library.presentLimitedLibraryPicker().isEmpty)
    #expect(library.limitedSelection.isEmpty)
  }

  @Test func photosTheAppSavesInLimitedModeJoinTheSelection() throws {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let other = library.add(.photo())
    library.user.setAccessInSettings(.limited([]))
    let saved = try library.saveAsset(.photo())
    #expect(library.limitedSelection == [saved])
    #expect(library.fetchAssets().localIdentifiers == [saved])
    #expect(!library.fetchAssets().localIdentifiers.contains(other))
  }
}
