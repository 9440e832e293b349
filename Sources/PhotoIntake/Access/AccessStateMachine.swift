/// Turns the system's authorization status into what the UI should show, and the user's taps into what the
/// app should ask the system to do.
///
/// The Apple layer feeds it events (a status read on appear or after a change, a tap, the end of a system
/// prompt) and carries out the effects it returns; every decision is here, where it is tested on Linux.
///
/// The rules it encodes:
/// - A feature that needs no access (``PhotoAccessLevel/none``, the picker) is always available, whatever the
///   status: even a user who denied library access can pick photos.
/// - `.limited` is a grant. The app shows what it may see, a banner that says the selection is limited, and an
///   action that opens the limited-library picker (`presentLimitedLibraryPicker(from:completionHandler:)`,
///   WWDC21 "Improve access to Photos in your app").
/// - `.notDetermined` asks, once, when the user acts; `.denied` explains and links to Settings; `.restricted`
///   explains without a link, because Settings cannot change it.
///
/// ```swift
/// var access = AccessStateMachine(features: [.browse])
/// access.handle(.statusObserved(.limited))      // screen: .contentWithLimitedBanner
/// let effects = access.handle(.userTappedAddMorePhotos)   // [.presentLimitedLibraryPicker]
/// ```
public struct AccessStateMachine: Sendable, Hashable {
  /// What the UI should show.
  public enum Screen: String, Sendable, Hashable, Codable, CaseIterable {
    /// The feature is usable: the picker button, the save action, or the gallery of the whole library.
    case content
    /// The gallery of the user's limited selection, with a "limited — add more photos" banner whose action
    /// opens the limited-library picker, and a secondary link to Settings for full access.
    case contentWithLimitedBanner
    /// A sentence saying why the app would like access, and a button that asks.
    case ask
    /// The system prompt is on screen; show nothing that competes with it.
    case waitingForAnswer
    /// A sentence saying access was refused, and a button that opens the app's page in Settings.
    case explainAndLinkToSettings
    /// A sentence saying access is restricted on this device (parental controls, a profile); no button helps.
    case explainRestricted
  }

  /// What happened.
  public enum Event: Sendable, Hashable {
    /// The app read the status (on appear, on returning to the foreground, after a library change).
    case statusObserved(AuthorizationStatus)
    /// The user tapped the button of the ``Screen/ask`` screen.
    case userTappedAsk
    /// The system prompt closed with this status.
    case requestFinished(AuthorizationStatus)
    /// The user tapped "add more photos" in the limited banner.
    case userTappedAddMorePhotos
    /// The limited-library picker closed; PhotoKit passes only the newly selected identifiers. The new photos
    /// reach the app as a library change (``LibraryChangeDetails`` / `PHChange`), so nothing is reloaded.
    case limitedPickerFinished(newlySelected: [String])
    /// The user tapped the Settings link.
    case userTappedOpenSettings
  }

  /// What the app should do now.
  public enum Effect: Sendable, Hashable {
    /// Call `PHPhotoLibrary.requestAuthorization(for:)` with this level.
    case requestAuthorization(PhotoAccessLevel)
    /// Call `PHPhotoLibrary.presentLimitedLibraryPicker(from:completionHandler:)`.
    case presentLimitedLibraryPicker
    /// Open `UIApplication.openSettingsURLString`.
    case openSettings
    /// Fetch what the app shows again: what it may see has changed.
    case reloadContent
  }

  /// The access the features need.
  public let level: PhotoAccessLevel
  /// What the UI should show now.
  public private(set) var screen: Screen
  /// The last status the machine was told about; nil before the first.
  public private(set) var status: AuthorizationStatus?

  /// A machine for the least access `features` need, before the status is known.
  public init(features: some Sequence<PhotoFeature>) {
    self.init(level: PhotoFeature.leastAccess(for: features))
  }

  /// A machine for an explicit level, before the status is known.
  public init(level: PhotoAccessLevel) {
    self.level = level
    // Until the status is read, a feature that needs access shows the explanation rather than an empty gallery.
    screen = level == .none ? .content : .ask
  }

  /// The screen for a status, for features that need `level`.
  public static func screen(for status: AuthorizationStatus, level: PhotoAccessLevel) -> Screen {
    guard level != .none else { return .content }
    switch status {
    case .authorized: return .content
    // Add-only access has no limited form; PhotoKit reports `.authorized` for it, and were it ever `.limited`,
    // saving works either way.
    case .limited: return level == .readWrite ? .contentWithLimitedBanner : .content
    case .notDetermined: return .ask
    case .denied: return .explainAndLinkToSettings
    case .restricted: return .explainRestricted
    }
  }

  /// Moves to the next screen and returns what the app should do, in order.
  @discardableResult
  public mutating func handle(_ event: Event) -> [Effect] {
    switch event {
    case .statusObserved(let new), .requestFinished(let new):
      let before = status
      status = new
      screen = Self.screen(for: new, level: level)
      // What the app may read changed (granted for the first time, widened to all, or narrowed/revoked while
      // content was on screen): fetch again. A first observation of a granted status loads the content too.
      guard level == .readWrite, before != new, new.isGranted || before?.isGranted == true else { return [] }
      return [.reloadContent]
    case .userTappedAsk:
      guard screen == .ask else { return [] }
      screen = .waitingForAnswer
      return [.requestAuthorization(level)]
    case .userTappedAddMorePhotos:
      guard screen == .contentWithLimitedBanner else { return [] }
      return [.presentLimitedLibraryPicker]
    case .limitedPickerFinished:
      // PhotoKit reports the widened selection to change observers, which update the grid in place; a reload
      // here would throw that animation away.
      return []
    case .userTappedOpenSettings:
      guard screen == .explainAndLinkToSettings || screen == .contentWithLimitedBanner else { return [] }
      return [.openSettings]
    }
  }

  /// A sentence for the screen, for apps that do not write their own; nil where the content speaks for itself.
  public var message: String? {
    switch screen {
    case .content, .waitingForAnswer:
      nil
    case .contentWithLimitedBanner:
      "You've given access to some of your photos. Add more photos to see them here."
    case .ask:
      level == .addOnly
        ? "Allow access so the app can save photos to your library. It will not be able to see your other photos."
        : "Allow access to your photos to see them here."
    case .explainAndLinkToSettings:
      "Access to your photos is turned off. You can turn it on in Settings."
    case .explainRestricted:
      "Access to photos is restricted on this device, for example by Screen Time. The app cannot change this."
    }
  }
}
