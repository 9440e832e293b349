import Foundation
import PhotoIntake

/// The person holding a simulated device: the only way a ``SimulatedPhotoLibrary``'s authorization, limited
/// selection and content change, so a test says exactly what the user did and when.
public struct SimulatedUser: Sendable {
  /// An answer to the system's access prompt.
  public enum PromptAnswer: Sendable, Hashable {
    /// "Allow Full Access" (or "Allow" for add-only).
    case allowFullAccess
    /// "Select Photos…": limited access to these assets (read-write only; add-only treats it as "Allow").
    case selectPhotos([String])
    /// "Don't Allow".
    case dontAllow
  }

  /// What the user does in the limited-library picker.
  public struct LimitedPickerAnswer: Sendable, Hashable {
    /// Local identifiers the user selects.
    public var adding: [String]
    /// Local identifiers the user deselects.
    public var removing: [String]

    /// An answer that selects `adding` and deselects `removing`.
    public init(adding: [String] = [], removing: [String] = []) {
      self.adding = adding
      self.removing = removing
    }
  }

  /// The choices of Settings › Privacy › Photos › the app.
  public enum SettingsAccess: Sendable, Hashable {
    /// "None".
    case none
    /// "Add Photos Only".
    case addPhotosOnly
    /// "Limited Access", with this selection.
    case limited([String])
    /// "Full Access".
    case full
  }

  let library: SimulatedPhotoLibrary

  // MARK: Prompts

  /// Queues the answer to the next access prompt.
  public func willAnswerNextPrompt(_ answer: PromptAnswer) {
    let waiting = library.state.withLock { state -> CheckedContinuation<PromptAnswer, Never>? in
      if state.pendingPrompts.isEmpty {
        state.promptAnswers.append(answer)
        return nil
      }
      return state.pendingPrompts.removeFirst()
    }
    waiting?.resume(returning: answer)
  }

  /// Answers a prompt already on screen (or the next one).
  public func answerPrompt(_ answer: PromptAnswer) { willAnswerNextPrompt(answer) }

  /// Whether a prompt is on screen, waiting for an answer.
  public var isPromptShowing: Bool { library.state.withLock { !$0.pendingPrompts.isEmpty } }

  /// Queues what the user does in the next limited-library picker.
  public func willChangeLimitedSelection(adding: [String] = [], removing: [String] = []) {
    let answer = LimitedPickerAnswer(adding: adding, removing: removing)
    let waiting = library.state.withLock { state -> CheckedContinuation<LimitedPickerAnswer, Never>? in
      if state.pendingLimitedPickers.isEmpty {
        state.limitedPickerAnswers.append(answer)
        return nil
      }
      return state.pendingLimitedPickers.removeFirst()
    }
    waiting?.resume(returning: answer)
  }

  /// Answers a limited-library picker already on screen (or the next one).
  public func answerLimitedLibraryPicker(adding: [String] = [], removing: [String] = []) {
    willChangeLimitedSelection(adding: adding, removing: removing)
  }

  // MARK: Settings

  /// Changes the app's access in Settings. Observers are notified of what the app can now see.
  public func setAccessInSettings(_ access: SettingsAccess) {
    library.mutate { state in
      switch access {
      case .none:
        state.readWrite = .denied
        state.addOnly = .denied
      case .addPhotosOnly:
        state.readWrite = .denied
        state.addOnly = .authorized
      case .limited(let identifiers):
        state.readWrite = .limited
        state.limitedSelection = identifiers.filter { state.assets[$0] != nil }
      case .full:
        state.readWrite = .authorized
      }
    }
  }

  /// "Edit Selected Photos" in Settings: widens or narrows the limited selection.
  public func editSelectedPhotos(adding: [String] = [], removing: [String] = []) {
    library.changeLimitedSelection(adding: adding, removing: removing)
  }

  /// Screen Time or a configuration profile restricts photo access (or lifts the restriction).
  public func setRestricted(_ restricted: Bool) {
    library.mutate { $0.restricted = restricted }
  }

  // MARK: The library's content

  /// Takes a photo with the Camera app.
  @discardableResult
  public func takePhoto(_ fixture: AssetFixture = .photo()) -> String { library.add(fixture) }

  /// Deletes assets in the Photos app.
  public func delete(_ identifiers: [String]) {
    let gone = Set(identifiers)
    library.mutate { state in
      for identifier in identifiers { state.assets[identifier] = nil }
      state.order.removeAll { gone.contains($0) }
      state.limitedSelection.removeAll { gone.contains($0) }
      for key in state.albums.keys { state.albums[key]?.assets.removeAll { gone.contains($0) } }
    }
  }

  /// Marks an asset as a favourite or not.
  public func setFavorite(_ identifier: String, _ favorite: Bool = true) {
    library.mutate { $0.assets[identifier]?.asset.isFavorite = favorite }
  }

  /// Edits an asset's content (a crop, a filter): Photos keeps the original and adds a rendering of the edit
  /// (`.fullSizePhoto`, `.fullSizeVideo`, and a Live Photo's `.fullSizePairedVideo`) with its adjustment data.
  public func edit(_ identifier: String) {
    library.mutate { state in
      guard var stored = state.assets[identifier] else { return }
      stored.asset.revision += 1
      let seed = "edit-\(stored.asset.revision)-" + identifier
      let stem = stored.original.filename.split(separator: ".").first.map(String.init) ?? "IMG"
      // Photos renders edits of stills as JPEG or HEIC and of movies as QuickTime; JPEG keeps the fixture small.
      stored.rendered =
        stored.asset.kind.isImage
        ? SimulatedResource(
          typeIdentifier: "public.jpeg", filename: "FullSizeRender.jpg", bytes: Fixtures.jpeg(seed: seed))
        : SimulatedResource(
          typeIdentifier: "com.apple.quicktime-movie", filename: "FullSizeRender.mov",
          bytes: Fixtures.quickTimeMovie(seed: seed))
      if stored.pairedVideo != nil {
        stored.renderedPairedVideo = SimulatedResource(
          typeIdentifier: "com.apple.quicktime-movie", filename: stem + "_edited.MOV",
          bytes: Fixtures.quickTimeMovie(seed: "live-" + seed))
      }
      state.assets[identifier] = stored
    }
  }

  /// Changes an asset's date ("Adjust Date & Time"), which moves it in date-sorted fetch results.
  public func adjustDate(_ identifier: String, to date: Date) {
    library.mutate { $0.assets[identifier]?.asset.creationDate = date }
  }

  /// Creates an album in the Photos app (not the app's own: limited access does not see it).
  @discardableResult
  public func createAlbum(_ title: String, with identifiers: [String] = []) -> String {
    library.createStoredAlbum(title: title, createdByApp: false, assets: identifiers)
  }

  // MARK: The device

  /// Turns the network off or on; iCloud downloads need it.
  public func setOnline(_ online: Bool) {
    library.state.withLock { $0.isOnline = online }
  }

  /// Signs the device's Apple Account out (or makes it ask for its password again), or has iCloud refuse
  /// requests for now; ``SimulatedPhotoLibrary/ICloudStatus/available`` ends either. Downloads of iCloud-only
  /// assets then fail although the network is on.
  public func setICloud(_ status: SimulatedPhotoLibrary.ICloudStatus) {
    library.state.withLock { $0.iCloud = status }
  }

  /// Sets the free space on the device, which iCloud downloads need.
  public func setFreeSpace(_ bytes: Int64) {
    library.state.withLock { $0.freeSpace = bytes }
  }
}
