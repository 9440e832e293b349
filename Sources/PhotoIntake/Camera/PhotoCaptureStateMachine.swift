/// The shutter and the photos in flight, as iOS 17 and later capture them: readiness for the shutter button,
/// responsive capture (a new shot may start while earlier ones are processed), and deferred photo delivery (a
/// proxy now, the final photo when Photos has processed it).
///
/// The Apple layer feeds it what AVFoundation reports (`AVCapturePhotoOutputReadinessCoordinator`'s
/// `captureReadiness`, the capture delegate's callbacks, the `PHAssetCreationRequest` that saved a proxy, the
/// library change that shows it processed) and carries out the effects it returns. What the shutter looks like
/// and what happens to each shot is decided here, where it is tested on Linux.
///
/// The rules it encodes (AVCapturePhotoOutput.h, "Capturing photos with depth" and WWDC23 "Create a more
/// responsive camera experience"):
/// - The shutter takes a press only when the coordinator says `.ready`. `.notReadyMomentarily` disables it
///   without dimming ("short lived enough that dimming … is not recommended"); waiting for the capture or for
///   processing dims it, and waiting for processing shows a spinner.
/// - A press is tracked with the coordinator (`startTrackingCaptureRequest(using:)`) before
///   `capturePhoto(with:delegate:)`, so the shutter turns not-ready at once; a request that never reaches the
///   output is untracked (`stopTrackingCaptureRequest(using:)`).
/// - A deferred proxy is saved to Photos at once (`PHAssetCreationRequest` with resource type `.photoProxy`) and
///   imported into the app's library, so the user has the photo now; when Photos has processed it, the final
///   photo is imported and replaces the proxy. If the final cannot be had, the proxy stays: nothing is lost.
///
/// ```swift
/// var shutter = PhotoCaptureStateMachine()
/// shutter.handle(.readinessChanged(.ready))
/// shutter.handle(.shutterPressed(id: 7))        // [.startTracking(7), .capture(7)]
/// shutter.handle(.proxyDelivered(id: 7))        // [.storeProxy(7)]
/// ```
public struct PhotoCaptureStateMachine: Sendable, Hashable {
  /// `AVCapturePhotoOutput.CaptureReadiness`, with its raw values (AVCapturePhotoOutput.h).
  public enum Readiness: Int, Sendable, Hashable, CaseIterable {
    /// The session is not running: no capture can be taken.
    case sessionNotRunning = 0
    /// A capture can be taken now.
    case ready = 1
    /// Busy for a moment (rapid presses): disable the shutter without dimming it.
    case notReadyMomentarily = 2
    /// Waiting for a long capture (flash, night mode): dim the shutter.
    case notReadyWaitingForCapture = 3
    /// Waiting for processing to finish: dim the shutter and show a spinner.
    case notReadyWaitingForProcessing = 4

    /// The readiness for a raw value; an unknown future value is treated as not ready.
    public init(systemRawValue: Int) {
      self = Readiness(rawValue: systemRawValue) ?? .notReadyWaitingForCapture
    }
  }

  /// How the shutter button should look.
  public struct Shutter: Sendable, Hashable {
    /// Whether a press takes a photo.
    public var isEnabled: Bool
    /// Whether to draw it dimmed.
    public var isDimmed: Bool
    /// Whether to show that it is busy processing.
    public var showsSpinner: Bool

    /// A shutter that looks as given.
    public init(isEnabled: Bool, isDimmed: Bool, showsSpinner: Bool) {
      self.isEnabled = isEnabled
      self.isDimmed = isDimmed
      self.showsSpinner = showsSpinner
    }
  }

  /// Where one shot is.
  public enum Phase: Sendable, Hashable {
    /// Requested from the output; its photo or proxy has not arrived.
    case capturing
    /// Its final photo arrived and is being imported.
    case importingPhoto
    /// A deferred proxy arrived and is being saved to Photos and imported.
    case storingProxy
    /// The proxy is saved (Photos' local identifier) and imported; Photos is processing the final photo.
    case awaitingFinal(localIdentifier: String)
    /// Photos finished; the final photo is being imported to replace the proxy.
    case replacingProxy(localIdentifier: String)
    /// Imported: the final photo is in the app's library.
    case done
    /// The proxy is in the app's library, but the final photo could not be had; the proxy stays.
    case keptProxy(reason: String)
    /// Nothing was captured or stored, with the reason.
    case failed(reason: String)

    /// Whether the shot is finished, one way or the other.
    public var isFinished: Bool {
      switch self {
      case .done, .keptProxy, .failed: true
      case .capturing, .importingPhoto, .storingProxy, .awaitingFinal, .replacingProxy: false
      }
    }
  }

  /// What happened. `id` is the shot's `AVCapturePhotoSettings.uniqueID`.
  public enum Event: Sendable, Hashable {
    /// The readiness coordinator reported a new readiness (on the main queue).
    case readinessChanged(Readiness)
    /// The user pressed the shutter; `id` names the settings made for the shot.
    case shutterPressed(id: Int64)
    /// The request could not be handed to the output (the session stopped meanwhile).
    case requestFailed(id: Int64, reason: String)
    /// `didFinishProcessingPhoto` with a photo: the final photo, not deferred.
    case photoDelivered(id: Int64)
    /// `didFinishCapturingDeferredPhotoProxy` with a proxy.
    case proxyDelivered(id: Int64)
    /// The proxy was saved to Photos (this local identifier) and imported into the app's library.
    case proxyStored(id: Int64, localIdentifier: String)
    /// Saving or importing the proxy failed; `imported` says whether the app's library has it anyway.
    case proxyStoreFailed(id: Int64, reason: String, imported: Bool)
    /// Photos finished processing the proxy's asset (a library change shows its final photo).
    case processingFinished(localIdentifier: String)
    /// The final photo could not be had (processing failed, the asset was deleted, the read failed).
    case processingFailed(localIdentifier: String, reason: String)
    /// The final photo was imported and the proxy removed from the app's library.
    case proxyReplaced(localIdentifier: String)
    /// The final photo (not deferred) was imported, or its import failed.
    case photoStored(id: Int64, error: String?)
    /// An error for the shot from the delegate (`didFinishProcessingPhoto`, the proxy callback or
    /// `didFinishCaptureFor` with an error), or the capture ended without a photo.
    case captureFailed(id: Int64, reason: String)
  }

  /// What the app should do now.
  public enum Effect: Sendable, Hashable {
    /// `readinessCoordinator.startTrackingCaptureRequest(using: settings)`.
    case startTracking(id: Int64)
    /// `photoOutput.capturePhoto(with: settings, delegate:)`, on the session's queue.
    case capture(id: Int64)
    /// `readinessCoordinator.stopTrackingCaptureRequest(using: id)`: the request never reached the output.
    case stopTracking(id: Int64)
    /// Import the delivered photo's `fileDataRepresentation()`.
    case importPhoto(id: Int64)
    /// Save the proxy's `fileDataRepresentation()` to Photos as `.photoProxy`, and import it.
    case storeProxy(id: Int64)
    /// Import the processed asset's photo and remove the proxy from the app's library.
    case replaceProxy(localIdentifier: String)
  }

  /// The coordinator's last readiness.
  public private(set) var readiness: Readiness = .sessionNotRunning
  /// Each shot, by settings id.
  public private(set) var shots: [Int64: Phase] = [:]

  /// Nothing captured, the session not running.
  public init() {}

  /// How the shutter should look now.
  public var shutter: Shutter {
    switch readiness {
    case .ready: Shutter(isEnabled: true, isDimmed: false, showsSpinner: false)
    case .notReadyMomentarily: Shutter(isEnabled: false, isDimmed: false, showsSpinner: false)
    case .notReadyWaitingForCapture, .sessionNotRunning:
      Shutter(isEnabled: false, isDimmed: true, showsSpinner: false)
    case .notReadyWaitingForProcessing: Shutter(isEnabled: false, isDimmed: true, showsSpinner: true)
    }
  }

  /// Shots whose proxies wait for Photos to finish them, by Photos' local identifier.
  public var awaitingFinal: [String] {
    shots.values.compactMap { phase in
      if case .awaitingFinal(let identifier) = phase { identifier } else { nil }
    }.sorted()
  }

  /// Takes an event and returns what to do.
  @discardableResult
  public mutating func handle(_ event: Event) -> [Effect] {
    switch event {
    case .readinessChanged(let readiness):
      self.readiness = readiness
      return []
    case .shutterPressed(let id):
      guard shutter.isEnabled, shots[id] == nil else { return [] }
      shots[id] = .capturing
      // Until the coordinator reports otherwise, a second press must not queue a second shot.
      readiness = .notReadyMomentarily
      return [.startTracking(id: id), .capture(id: id)]
    case .requestFailed(let id, let reason):
      guard shots[id] == .capturing else { return [] }
      shots[id] = .failed(reason: reason)
      return [.stopTracking(id: id)]
    case .photoDelivered(let id):
      guard shots[id] == .capturing else { return [] }
      shots[id] = .importingPhoto
      return [.importPhoto(id: id)]
    case .proxyDelivered(let id):
      guard shots[id] == .capturing else { return [] }
      shots[id] = .storingProxy
      return [.storeProxy(id: id)]
    case .proxyStored(let id, let identifier):
      guard shots[id] == .storingProxy else { return [] }
      shots[id] = .awaitingFinal(localIdentifier: identifier)
      return []
    case .proxyStoreFailed(let id, let reason, let imported):
      guard shots[id] == .storingProxy else { return [] }
      shots[id] = imported ? .keptProxy(reason: reason) : .failed(reason: reason)
      return []
    case .processingFinished(let identifier):
      guard let id = shot(awaiting: identifier) else { return [] }
      shots[id] = .replacingProxy(localIdentifier: identifier)
      return [.replaceProxy(localIdentifier: identifier)]
    case .processingFailed(let identifier, let reason):
      guard let id = shot(replacingOrAwaiting: identifier) else { return [] }
      shots[id] = .keptProxy(reason: reason)
      return []
    case .proxyReplaced(let identifier):
      guard let id = shot(replacingOrAwaiting: identifier) else { return [] }
      shots[id] = .done
      return []
    case .photoStored(let id, let error):
      guard shots[id] == .importingPhoto else { return [] }
      shots[id] = error.map { .failed(reason: $0) } ?? .done
      return []
    case .captureFailed(let id, let reason):
      // "didFinishCaptureFor … always comes last": after a photo or proxy it changes nothing.
      guard shots[id] == .capturing else { return [] }
      shots[id] = .failed(reason: reason)
      return []
    }
  }

  /// Forgets finished shots (after the UI showed their outcome).
  public mutating func removeFinished() {
    shots = shots.filter { !$0.value.isFinished }
  }

  private func shot(awaiting identifier: String) -> Int64? {
    shots.first { $0.value == .awaitingFinal(localIdentifier: identifier) }?.key
  }

  private func shot(replacingOrAwaiting identifier: String) -> Int64? {
    shots.first {
      $0.value == .replacingProxy(localIdentifier: identifier)
        || $0.value == .awaitingFinal(localIdentifier: identifier)
    }?.key
  }
}
