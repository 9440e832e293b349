import PhotoIntake
import PhotoIntakeTesting
import Testing

/// Every authorization change a user can make, made while an iCloud download is half done.
///
/// Picker results never depend on library access (the picker is out of process), so their imports finish
/// whatever happens. Reads through the library depend on the app's access to that asset at every step.
// A broken simulator or scenario would wait forever for a prompt, a change or a download: fail instead.
@Suite(.timeLimit(.minutes(1)))
struct AuthorizationTransitionTests {
  enum Access: Sendable, CustomStringConvertible {
    case notDetermined
    case full
    case limitedWithAsset
    case limitedWithoutAsset
    case addOnly
    case none

    var description: String {
      switch self {
      case .notDetermined: "not determined"
      case .full: "full"
      case .limitedWithAsset: "limited (with the photo)"
      case .limitedWithoutAsset: "limited (without the photo)"
      case .addOnly: "add-only"
      case .none: "none"
      }
    }
  }

  enum Action: Sendable, CustomStringConvertible {
    case settings(Access)
    case answerPrompt(SimulatedUser.PromptAnswer)
    case widenSelection
    case narrowSelection
    case restrict

    var description: String {
      switch self {
      case .settings(let access): "Settings → \(access)"
      case .answerPrompt(let answer): "prompt answered \(answer)"
      case .widenSelection: "selection widened"
      case .narrowSelection: "selection narrowed (photo removed)"
      case .restrict: "restricted by Screen Time"
      }
    }
  }

  struct Transition: Sendable, CustomTestStringConvertible {
    var from: Access
    var action: Action
    /// Whether a read through the library survives (picker imports always do).
    var libraryReadSurvives: Bool
    var status: AuthorizationStatus

    var testDescription: String { "\(from) → \(action)" }
  }

  static let transitions: [Transition] = [
    Transition(
      from: .notDetermined, action: .answerPrompt(.allowFullAccess), libraryReadSurvives: false,
      status: .authorized),
    Transition(
      from: .notDetermined, action: .answerPrompt(.selectPhotos([])), libraryReadSurvives: false,
      status: .limited),
    Transition(
      from: .notDetermined, action: .answerPrompt(.dontAllow), libraryReadSurvives: false, status: .denied),
    Transition(
      from: .full, action: .settings(.limitedWithAsset), libraryReadSurvives: true, status: .limited),
    Transition(
      from: .full, action: .settings(.limitedWithoutAsset), libraryReadSurvives: false, status: .limited),
    Transition(from: .full, action: .settings(.addOnly), libraryReadSurvives: false, status: .denied),
    Transition(from: .full, action: .settings(.none), libraryReadSurvives: false, status: .denied),
    Transition(from: .full, action: .restrict, libraryReadSurvives: false, status: .restricted),
    Transition(
      from: .limitedWithAsset, action: .settings(.full), libraryReadSurvives: true, status: .authorized),
    Transition(from: .limitedWithAsset, action: .widenSelection, libraryReadSurvives: true, status: .limited),
    Transition(
      from: .limitedWithAsset, action: .narrowSelection, libraryReadSurvives: false, status: .limited),
    Transition(
      from: .limitedWithAsset, action: .settings(.none), libraryReadSurvives: false, status: .denied),
    Transition(from: .none, action: .settings(.full), libraryReadSurvives: false, status: .authorized),
    Transition(
      from: .addOnly, action: .settings(.limitedWithAsset), libraryReadSurvives: false, status: .limited),
  ]

  /// A device with one iCloud-only photo and one other photo, in the `from` state.
  private static func device(_ directory: TemporaryDirectory, _ from: Access) -> (
    SimulatedPhotoLibrary, String, String
  ) {
    let device = directory.device()
    let photo = device.add(.photo(), storage: .iCloudOnly)
    let other = device.add(.photo())
    if let settings = settings(from, photo: photo) { device.user.setAccessInSettings(settings) }
    return (device, photo, other)
  }

  private static func settings(_ access: Access, photo: String) -> SimulatedUser.SettingsAccess? {
    switch access {
    case .notDetermined: nil
    case .full: .full
    case .limitedWithAsset: .limited([photo])
    case .limitedWithoutAsset: .limited([])
    case .addOnly: .addPhotosOnly
    case .none: SimulatedUser.SettingsAccess.none
    }
  }

  /// Performs the action the first time the photo's download reaches half way.
  private static func perform(
    _ action: Action, on device: SimulatedPhotoLibrary, photo: String, other: String
  ) {
    let done = Protected(false)
    device.observeDownloads { identifier, fraction in
      guard identifier == photo, fraction >= 0.5,
        !done.withLock({
          let was = $0; $0 = true; return was
        })
      else {
        return
      }
      switch action {
      case .settings(let access): device.user.setAccessInSettings(settings(access, photo: photo)!)
      case .answerPrompt(let answer): device.user.answerPrompt(answer)
      case .widenSelection: device.user.editSelectedPhotos(adding: [other])
      case .narrowSelection: device.user.editSelectedPhotos(removing: [photo])
      case .restrict: device.user.setRestricted(true)
      }
    }
  }

  @Test(arguments: transitions)
  func pickerImportsFinishWhateverTheUserDoes(_ transition: Transition) async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let (device, photo, other) = Self.device(directory, transition.from)
    // The app asks while the picker import runs; the user answers mid-download.
    let prompt: Task<AuthorizationStatus, Never>? =
      if case .answerPrompt = transition.action {
        Task { await device.requestAuthorization(for: .readWrite) }
      } else {
        nil
      }
    if prompt != nil { while !device.user.isPromptShowing { await Task.yield() } }
    Self.perform(transition.action, on: device, photo: photo, other: other)
    let result = try SimulatedPicker(device: device).present(.init()).pick([photo])[0]
    let library = try await directory.library()
    let summary = await Importer(library: library).importItems([SimulatedPickerItemSource(result)])
    #expect(summary.importedCount == 1)
    _ = await prompt?.value
    #expect(device.authorizationStatus(for: .readWrite) == transition.status)
    await library.close()
  }

  @Test(arguments: transitions.filter { $0.from == .full || $0.from == .limitedWithAsset })
  func libraryReadsFollowTheAccessOfTheMoment(_ transition: Transition) async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let (device, photo, other) = Self.device(directory, transition.from)
    Self.perform(transition.action, on: device, photo: photo, other: other)
    let library = try await directory.library()
    let summary = await Importer(library: library).importItems([
      SimulatedLibraryItemSource(library: device, localIdentifier: photo)
    ])
    if transition.libraryReadSurvives {
      #expect(summary.importedCount == 1)
    } else {
      #expect(summary.items.first?.result.error == .photoLibraryAccessDenied)
      // Interrupted part-way, the import left nothing behind, and the library reopens clean.
      #expect(try await library.count() == 0)
      await library.close()
      let reopened = try await directory.library()
      #expect(try await reopened.recoverInterruptedWork().isEmpty)
      #expect(try await reopened.verify().isClean)
      await reopened.close()
      return
    }
    await library.close()
  }

  @Test(arguments: [Access.notDetermined, .none, .addOnly, .limitedWithoutAsset])
  func libraryReadsWithoutAccessFailBeforeDownloading(_ from: Access) async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let (device, photo, _) = Self.device(directory, from)
    let library = try await directory.library()
    let summary = await Importer(library: library).importItems([
      SimulatedLibraryItemSource(library: device, localIdentifier: photo)
    ])
    #expect(summary.items.first?.result.error == .photoLibraryAccessDenied)
    #expect(device.clock.now.offset == .zero)
    await library.close()
  }
}

extension AuthorizationTransitionTests.Access: Equatable {}
