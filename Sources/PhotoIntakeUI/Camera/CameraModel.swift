#if canImport(AVFoundation) && canImport(UIKit) && canImport(Observation)
  import AVFoundation
  import Observation
  import PhotoIntake

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
  /// Needs `NSCameraUsageDescription` in Info.plist; saving captures to Photos is a separate, add-only step.
  @available(iOS 17, *)
  @MainActor
  @Observable
  public final class CameraModel {
    public let importer: Importer
    /// What to show: the preview (``AccessStateMachine/Screen/content``), a request for access, or an
    /// explanation with a Settings link.
    public private(set) var screen: AccessStateMachine.Screen = .ask
    public private(set) var isRunning = false
    public private(set) var isCapturing = false
    /// The last captured photo, once stored.
    public private(set) var lastCapture: Asset?
    /// The last failure, for an alert.
    public var error: CameraError?

    @ObservationIgnored private let controller = CaptureSessionController()

    public init(importer: Importer) { self.importer = importer }

    /// The session, for ``CameraPreview``. Never start or configure it from the view.
    public var session: AVCaptureSession { controller.session }

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
      do {
        try await controller.start()
        isRunning = true
      } catch {
        self.error = error
      }
    }

    /// Stops the session (on its queue).
    public func disappear() {
      controller.stop()
      isRunning = false
    }

    /// Takes a photo and imports it.
    ///
    /// - Returns: the stored asset, or nil when capturing or storing failed (``error`` says why).
    @discardableResult
    public func capture() async -> Asset? {
      guard !isCapturing else { return nil }
      isCapturing = true
      defer { isCapturing = false }
      let data: Data
      do {
        data = try await controller.capturePhoto()
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

    private static func status() -> AuthorizationStatus {
      AuthorizationStatus(systemRawValue: AVCaptureDevice.authorizationStatus(for: .video).rawValue)
        ?? .denied
    }
  }
#endif
