#if canImport(AVFoundation) && canImport(UIKit) && canImport(Observation)
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
  /// Needs `NSCameraUsageDescription` in Info.plist; saving captures to Photos is a separate, add-only step.
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

    @ObservationIgnored private let controller = CaptureSessionController()
    /// Removed by ``disappear()``, and at the latest when the model goes.
    @ObservationIgnored private let lifecycleObservers = NotificationTokens()

    public init(importer: Importer) {
      self.importer = importer
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
      if let device = CaptureSessionController.videoDevice() { rotation.attach(device: device) }
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

    /// Takes a photo and imports it.
    ///
    /// - Returns: the stored asset, or nil when capturing or storing failed (``error`` says why).
    @discardableResult
    public func capture() async -> Asset? {
      guard !isCapturing, sessionState.canCapture else { return nil }
      isCapturing = true
      defer { isCapturing = false }
      let data: Data
      do {
        data = try await controller.capturePhoto(rotation: rotation.captureRotation())
      } catch {
        self.error = error
        return nil
      }
      let summary = await importer.importItems([
        DataItemSource(data, suggestedName: "Capture", typeHints: [])
      ])
      guard let report = summary.items.first else { return nil }
      if let asset = report.result.asset {
        lastCapture = asset
        return asset
      }
      self.error = .captureFailed(reason: report.result.error?.description ?? "it could not be stored")
      return nil
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
        let running = try await controller.start()
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
#endif
