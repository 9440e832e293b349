#if canImport(Photos) && canImport(PhotosUI) && canImport(UIKit) && canImport(Observation)
  import Observation
  import Photos
  import PhotoIntake
  import PhotosUI
  import UIKit

  /// Photo-library permission for the features an app uses, driven by the core's ``AccessStateMachine``: this
  /// type reads and requests the status and carries out the machine's effects; every decision is the machine's.
  ///
  /// - Picking needs no access, so `PhotoLibraryAccess(features: [.pick])` always shows content and never asks.
  /// - Saving asks add-only (`NSPhotoLibraryAddUsageDescription`); browsing and app albums ask read-write
  ///   (`NSPhotoLibraryUsageDescription`). iOS terminates an app that asks without the key.
  /// - `.limited` is a grant: content is shown with a banner (``LimitedAccessBanner``) whose action presents
  ///   `presentLimitedLibraryPicker(from:completionHandler:)`. Set `PHPhotoLibraryPreventAutomaticLimitedAccessAlert`
  ///   to `YES` in Info.plist so iOS does not also prompt once per launch ("Add
  ///   PHPhotoLibraryPreventAutomaticLimitedAccessAlert = YES to the application's Info.plist to prevent the
  ///   automatic alert", PHPhotoLibrary.h).
  ///
  /// Call ``refresh()`` on appear and whenever the scene becomes active again: the user may have changed the
  /// permission in Settings meanwhile.
  @available(iOS 17, *)
  @MainActor
  @Observable
  public final class PhotoLibraryAccess {
    /// The decisions so far.
    public private(set) var machine: AccessStateMachine
    /// Called when what the app may read changed (``AccessStateMachine/Effect/reloadContent``).
    @ObservationIgnored public var onReload: (() -> Void)?

    public init(features: some Sequence<PhotoFeature>) {
      machine = AccessStateMachine(features: features)
    }

    /// What the UI should show.
    public var screen: AccessStateMachine.Screen { machine.screen }
    /// A sentence for the screen, when the content does not speak for itself.
    public var message: String? { machine.message }

    /// Reads the current status (no prompt).
    public func refresh() {
      guard let level = Self.photoKitLevel(machine.level) else { return }
      handle(.statusObserved(Self.status(PHPhotoLibrary.authorizationStatus(for: level))))
    }

    /// The user tapped "Allow access": shows the system prompt, once.
    public func ask() async {
      await perform(machine.handle(.userTappedAsk), presenter: nil)
    }

    /// The user tapped "Add more photos" in the limited banner.
    ///
    /// - Parameter presenter: the view controller the limited-library picker is presented from.
    public func addMorePhotos(presenter: UIViewController) async {
      await perform(machine.handle(.userTappedAddMorePhotos), presenter: presenter)
    }

    /// The user tapped the Settings link.
    public func openSettings() {
      for effect in machine.handle(.userTappedOpenSettings) where effect == .openSettings {
        Self.openSettingsPage()
      }
    }

    /// Opens the app's page in Settings (`UIApplication.openSettingsURLString`).
    public static func openSettingsPage() {
      guard let url = URL(string: UIApplication.openSettingsURLString) else { return }
      UIApplication.shared.open(url)
    }

    private func handle(_ event: AccessStateMachine.Event) {
      let effects = machine.handle(event)
      if effects.contains(.reloadContent) { onReload?() }
    }

    private func perform(_ effects: [AccessStateMachine.Effect], presenter: UIViewController?) async {
      for effect in effects {
        switch effect {
        case .requestAuthorization(let level):
          guard let level = Self.photoKitLevel(level) else { continue }
          let status = await PHPhotoLibrary.requestAuthorization(for: level)
          handle(.requestFinished(Self.status(status)))
        case .presentLimitedLibraryPicker:
          guard let presenter else { continue }
          // The `async` form: the completion block is not `NS_SWIFT_SENDABLE`, so a closure written here would
          // inherit the main actor and, under Swift 6.0 and 6.1, trap if PhotosUI called it off the main thread.
          let added: [String] = await PHPhotoLibrary.shared().presentLimitedLibraryPicker(from: presenter)
          handle(.limitedPickerFinished(newlySelected: added))
        case .openSettings:
          Self.openSettingsPage()
        case .reloadContent:
          onReload?()
        }
      }
    }

    /// `PHAccessLevel` for a level that asks for something.
    static func photoKitLevel(_ level: PhotoAccessLevel) -> PHAccessLevel? {
      level.photoKitRawValue.flatMap(PHAccessLevel.init(rawValue:))
    }

    /// An unknown future status is treated as denied: an explanation, never content the app may not read.
    static func status(_ status: PHAuthorizationStatus) -> AuthorizationStatus {
      AuthorizationStatus(systemRawValue: status.rawValue) ?? .denied
    }
  }
#endif
