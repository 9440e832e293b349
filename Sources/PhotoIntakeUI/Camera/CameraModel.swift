// `_version: 1`: any AVFoundation, but versioned like every check of it (SDKGuardTests says why).
#if canImport(AVFoundation, _version: 1) && canImport(UIKit) && canImport(Observation)
  import AVFoundation
  import Observation
  import PhotoIntake
  import UIKit

  /// The camera for SwiftUI: permission, a running `AVCaptureSession`, and photos captured straight into the
  /// import engine, so each one is durable (fsynced, committed) as soon as ``capture()`` returns it.
  ///
  /// The model owns the session through a controller that configures and starts it on a background queue;
  /// ``CameraPreview`` only displays it. Call ``appear()`` and ``disappear()`` from the view's lifecycle:
  ///
  /// ```swift
  /// CameraPreview(session: camera.session)
  ///   .task { await camera.appear() }
  ///   .onDisappear { camera.disappear() }
  /// ```
  ///
  /// It survives the real world: interruptions (a call, Split View, another app taking the camera, heat) and
  /// runtime errors go through a ``CameraSessionStateMachine``, whose ``sessionState`` says what to show
  /// (``CameraSessionStateMachine/message``, a Resume button when ``CameraSessionStateMachine/offersResume``)
  /// and which restarts the session on its queue when that is allowed. Photos are turned level with the horizon
  /// (``rotation``; pass it to ``CameraPreview/init(session:rotation:)``), and a capture whose delegate never
  /// fires fails with ``CameraError/captureTimedOut(seconds:)``.
  ///
  /// Captures as iOS 17 does where the device supports it: the largest photo size, zero shutter lag, responsive
  /// capture and deferred delivery, with the shutter button driven by an
  /// `AVCapturePhotoOutputReadinessCoordinator` (``shutter``; ``PhotoCaptureStateMachine`` decides). A deferred
  /// shot's proxy is saved to Photos as `.photoProxy` and imported at once; when Photos has finished the photo
  /// (a library change shows it), the final photo replaces the proxy in the app's library
  /// (``DeferredPhotoIntake``); if it cannot be had, the proxy stays. On iOS 18 the Camera Control offers the
  /// system's zoom and exposure sliders when the session supports controls.
  ///
  /// Needs `NSCameraUsageDescription` in Info.plist. Deferred delivery is opt-in
  /// (``init(importer:deferredDelivery:)``): deferred shots are saved to Photos (add-only access,
  /// `NSPhotoLibraryAddUsageDescription`), and replacing their proxies needs read access to those assets.
  @available(iOS 17, *)
  @MainActor
  @Observable
  public final class CameraModel {
    public let importer: Importer
    /// What to show: the preview (``AccessStateMachine/Screen/content``), a request for access, or an
    /// explanation with a Settings link.
    public private(set) var screen: AccessStateMachine.Screen = .ask
    /// The session's state: running, interrupted and why, failed; what to tell the user and whether a Resume
    /// button helps.
    public private(set) var sessionState = CameraSessionStateMachine()
    public private(set) var isCapturing = false
    /// The last captured photo, once stored.
    public private(set) var lastCapture: Asset?
    /// The last failure of a capture, for an alert. Problems of the session itself are in ``sessionState``.
    public var error: CameraError?
    /// Keeps the preview and the captures level; give it to ``CameraPreview``.
    public let rotation = CameraRotation()
    /// The shutter and the shots in flight (readiness, deferred proxies and their replacement).
    public private(set) var shots = PhotoCaptureStateMachine()

    /// How the shutter button should look: enabled, dimmed, busy.
    public var shutter: PhotoCaptureStateMachine.Shutter {
      guard sessionState.canCapture else {
        return PhotoCaptureStateMachine.Shutter(isEnabled: false, isDimmed: true, showsSpinner: false)
      }
      return shots.shutter
    }

    @ObservationIgnored private var capabilities: CaptureCapabilities?
    /// Tells the shutter when the photo output is ready; made once the session is configured.
    @ObservationIgnored private var readinessCoordinator: AVCapturePhotoOutputReadinessCoordinator?
    /// The coordinator's delegate, which it holds weakly.
    @ObservationIgnored private var readinessDelegate: ReadinessDelegate?
    /// Each deferred shot's proxy in the app's library, by the Photos asset it was saved as.
    @ObservationIgnored private var proxies: [String: Asset] = [:]
    @ObservationIgnored private var processingWatch: Task<Void, Never>?

    @ObservationIgnored private let controller: CaptureSessionController
    /// Removed by ``disappear()``, and at the latest when the model goes.
    @ObservationIgnored private let lifecycleObservers = NotificationTokens()

    /// A camera that imports into `importer`.
    ///
    /// - Parameter deferredDelivery: let the camera hand over proxies where it supports deferred delivery
    ///   (iOS 17). Each such shot is saved to the user's Photos library, which finishes it (add-only access,
    ///   asked at the first one), so it is off unless the app wants its captures in Photos anyway.
    public init(importer: Importer, deferredDelivery: Bool = false) {
      self.importer = importer
      var features: Set<CaptureConfiguration.Feature> = [
        .zeroShutterLag, .responsiveCapture, .fastCapturePrioritization,
      ]
      if deferredDelivery { features.insert(.autoDeferredPhotoDelivery) }
      controller = CaptureSessionController(features: features)
      controller.setEventHandler { [weak self] event in
        // AVFoundation posts on its own threads; the main queue keeps the events in the order they came.
        DispatchQueue.main.async { MainActor.assumeIsolated { self?.handle(event) } }
      }
    }

    /// The session, for ``CameraPreview``. Never start or configure it from the view.
    public var session: AVCaptureSession { controller.session }

    /// The session runs: the preview is live and ``capture()`` can take a photo.
    public var isRunning: Bool { sessionState.canCapture }

    /// Checks permission (asking once when the user was never asked) and starts the session.
    public func appear() async {
      var status = Self.status()
      if status == .notDetermined {
        screen = .waitingForAnswer
        status = await AVCaptureDevice.requestAccess(for: .video) ? .authorized : .denied
      }
      // The camera has no limited grant: the add-only table (ask, content, Settings, restricted) is the one.
      screen = AccessStateMachine.screen(for: status, level: .addOnly)
      guard screen == .content else { return }
      observeLifecycle()
      handle(.start)
    }

    /// Stops the session (on its queue).
    public func disappear() {
      lifecycleObservers.removeAll()
      rotation.detach()
      handle(.stop)
    }

    /// Tries the camera again after an interruption or an error, when ``CameraSessionStateMachine/offersResume``.
    public func resume() { handle(.userTappedResume) }

    /// Takes a photo and imports it: the processed photo, or with deferred delivery its proxy, which the final
    /// photo replaces later.
    ///
    /// With responsive capture a new shot may start while earlier ones are processed: the shutter follows the
    /// readiness coordinator, not this call.
    ///
    /// - Returns: the stored asset (a proxy for a deferred shot), or nil when the shutter was not ready or
    ///   capturing or storing failed (``error`` says why).
    @discardableResult
    public func capture() async -> Asset? {
      guard sessionState.canCapture, let capabilities else { return nil }
      let settings = CaptureSessionController.makeSettings(capabilities)
      let id = settings.uniqueID
      guard shots.handle(.shutterPressed(id: id)).contains(.capture(id: id)) else { return nil }
      // Tracked on the main actor before the session's queue captures, so the shutter turns not-ready at once
      // (AVCapturePhotoOutputReadinessCoordinator, AVCapturePhotoOutput.h).
      readinessCoordinator?.startTrackingCaptureRequest(using: settings)
      isCapturing = true
      defer { isCapturing = shots.shots.values.contains(.capturing) }
      let photo: CapturedPhoto
      do {
        photo = try await controller.capturePhoto(
          settings: SettingsBox(settings: settings), rotation: rotation.captureRotation())
      } catch {
        self.error = error
        perform(shots.handle(.requestFailed(id: id, reason: error.description)))
        return nil
      }
      switch photo {
      case .photo(let data):
        shots.handle(.photoDelivered(id: id))
        let result = await intake.importProxy(data, suggestedName: "Capture")
        shots.handle(.photoStored(id: id, error: result.failureReason))
        return finish(result)
      case .proxy(let data):
        shots.handle(.proxyDelivered(id: id))
        return await storeProxy(data, id: id)
      }
    }

    private var intake: DeferredPhotoIntake {
      DeferredPhotoIntake(importer: importer, provider: PHAssetResourceProvider())
    }

    private func finish(_ result: Result<Asset, Importer.Error>) -> Asset? {
      switch result {
      case .success(let asset):
        lastCapture = asset
        return asset
      case .failure(let error):
        self.error = .captureFailed(reason: error.description)
        return nil
      }
    }

    /// Imports the proxy (the user has the shot now) and saves it to Photos, which finishes it.
    private func storeProxy(_ data: Data, id: Int64) async -> Asset? {
      let imported = await intake.importProxy(data, suggestedName: "Capture")
      do throws(PhotoSaveError) {
        let identifier = try await DeferredProxySaver.save(data)
        if case .success(let proxy) = imported {
          proxies[identifier] = proxy
          shots.handle(.proxyStored(id: id, localIdentifier: identifier))
          watchProcessing()
        } else {
          shots.handle(.proxyStoreFailed(id: id, reason: imported.failureReason ?? "", imported: false))
        }
      } catch {
        let kept = (try? imported.get()) != nil
        shots.handle(.proxyStoreFailed(id: id, reason: error.description, imported: kept))
      }
      return finish(imported)
    }

    /// While proxies wait, asks after each library change whether Photos has finished them.
    private func watchProcessing() {
      guard processingWatch == nil else { return }
      processingWatch = Task { [weak self] in
        for await _ in PhotoLibraryChanges() {
          guard let self else { return }
          await self.checkProcessing()
          if self.shots.awaitingFinal.isEmpty { break }
        }
        self?.processingWatch = nil
      }
    }

    private func checkProcessing() async {
      for identifier in shots.awaitingFinal {
        do throws(Importer.Error) {
          guard try await intake.status(ofAsset: identifier) == .finished else { continue }
        } catch {
          // Without read access (add-only), or the asset was deleted: the proxy stays.
          shots.handle(.processingFailed(localIdentifier: identifier, reason: error.description))
          continue
        }
        for effect in shots.handle(.processingFinished(localIdentifier: identifier)) {
          guard case .replaceProxy(let identifier) = effect, let proxy = proxies[identifier] else { continue }
          switch await intake.replace(proxy: proxy, withFinalOf: identifier) {
          case .success(let final):
            proxies[identifier] = nil
            if lastCapture?.id == proxy.id { lastCapture = final }
            shots.handle(.proxyReplaced(localIdentifier: identifier))
          case .failure(let error):
            shots.handle(.processingFailed(localIdentifier: identifier, reason: error.description))
          }
        }
      }
    }

    /// The effects that are the readiness coordinator's (the rest are carried out where they arise).
    private func perform(_ effects: [PhotoCaptureStateMachine.Effect]) {
      for case .stopTracking(let id) in effects {
        readinessCoordinator?.stopTrackingCaptureRequest(using: id)
      }
    }

    /// The coordinator's readiness, delivered on the main queue.
    fileprivate func readinessChanged(_ rawValue: Int) {
      shots.handle(.readinessChanged(.init(systemRawValue: rawValue)))
    }

    /// After the session is configured: the readiness coordinator and the rotation coordinator, whose preview
    /// angle needs the input in the session.
    private func sessionConfigured(_ capabilities: CaptureCapabilities) {
      self.capabilities = capabilities
      if let device = CaptureSessionController.videoDevice() { rotation.attach(device: device) }
      if readinessCoordinator == nil {
        let coordinator = AVCapturePhotoOutputReadinessCoordinator(photoOutput: controller.photoOutput)
        let delegate = ReadinessDelegate(model: self)
        coordinator.delegate = delegate
        readinessCoordinator = coordinator
        readinessDelegate = delegate
      }
      if let coordinator = readinessCoordinator {
        shots.handle(.readinessChanged(.init(systemRawValue: coordinator.captureReadiness.rawValue)))
      }
    }

    private func handle(_ event: CameraSessionStateMachine.Event) {
      for effect in sessionState.handle(event) {
        switch effect {
        case .startSession: Task { await startSession() }
        case .stopSession: controller.stop()
        }
      }
    }

    /// Configures and starts the session on its queue, and reports how that went.
    private func startSession() async {
      do {
        let (running, capabilities) = try await controller.start()
        sessionConfigured(capabilities)
        handle(running ? .configured : .startFailed(.runtime(code: 0, reason: "the camera did not start")))
      } catch {
        let reason =
          switch error {
          case .unavailable: "no camera is available"
          case .configurationFailed(let reason): reason
          default: error.description
          }
        handle(.startFailed(.configuration(reason: reason)))
      }
    }

    /// The background and the foreground, for the state machine: nothing restarts in the background.
    private func observeLifecycle() {
      guard lifecycleObservers.isEmpty else { return }
      let center = NotificationCenter.default
      lifecycleObservers.add([
        center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) {
          [weak self] _ in
          MainActor.assumeIsolated { self?.handle(.enteredBackground) }
        },
        center.addObserver(forName: UIApplication.willEnterForegroundNotification, object: nil, queue: .main)
        {
          [weak self] _ in
          MainActor.assumeIsolated { self?.handle(.enteredForeground) }
        },
      ])
    }

    private static func status() -> AuthorizationStatus {
      AuthorizationStatus(systemRawValue: AVCaptureDevice.authorizationStatus(for: .video).rawValue)
        ?? .denied
    }
  }

  /// Receives the readiness coordinator's callbacks, "always delivered on the main queue" (AVCapturePhotoOutput.h).
  @available(iOS 17, *)
  @MainActor
  final class ReadinessDelegate: NSObject, AVCapturePhotoOutputReadinessCoordinatorDelegate {
    weak var model: CameraModel?

    init(model: CameraModel) { self.model = model }

    nonisolated func readinessCoordinator(
      _ coordinator: AVCapturePhotoOutputReadinessCoordinator,
      captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness
    ) {
      let raw = captureReadiness.rawValue
      MainActor.assumeIsolated { self.model?.readinessChanged(raw) }
    }
  }

  extension Result where Failure == Importer.Error {
    fileprivate var failureReason: String? {
      if case .failure(let error) = self { error.description } else { nil }
    }
  }
#endif
