// `_version: 1`: any AVFoundation, but versioned like every check of it (SDKGuardTests says why).
#if canImport(AVFoundation, _version: 1) && canImport(UIKit)
  import AVFoundation
  import Foundation
  import PhotoIntake

  /// Owns an `AVCaptureSession` and does all of its work on one serial queue of its own.
  ///
  /// "`startRunning()` is a blocking call which can take some time, therefore you should perform session setup on
  /// a serial queue so that the main queue isn't blocked" (AVCaptureSession.h); configuration
  /// (`beginConfiguration`/`commitConfiguration`), restarts and `capturePhoto(with:delegate:)` run on that queue
  /// too, so the session is never touched from two threads. The preview layer only reads ``session``.
  ///
  /// It reports the session's interruptions and runtime errors as ``CameraSessionStateMachine`` events
  /// (``setEventHandler(_:)``); the state machine, not this class, decides what to do about them.
  final class CaptureSessionController: NSObject, @unchecked Sendable {
    // @unchecked: every mutable member (the session's configuration, `isConfigured`, `capabilities`, `pending`,
    // the photo output's configuration and captures) is only used
    // inside `queue.async` blocks of the one serial queue; `session` itself is a constant reference handed to
    // the preview layer, which AVFoundation allows from the main thread; `handler` and `observers` are behind
    // locks.
    let session = AVCaptureSession()
    private let queue = DispatchQueue(label: "PhotoIntake.CaptureSession")
    /// The photo output; the main actor makes its readiness coordinator from it, and only the session's queue
    /// configures it or captures with it.
    let photoOutput = AVCapturePhotoOutput()
    private var isConfigured = false
    /// What the output can do once configured.
    private var capabilities = CaptureCapabilities()
    /// Where the Camera Control's delegate is called (AVCaptureSession.h asks for a serial queue).
    private let controlsQueue = DispatchQueue(label: "PhotoIntake.CaptureControls")
    /// Delegates of captures in flight, kept alive until they call back or time out (the output holds them
    /// weakly).
    private var pending: [UUID: PhotoCaptureDelegate] = [:]
    private let handler = Protected<(@Sendable (CameraSessionStateMachine.Event) -> Void)?>(nil)
    private let observers = Protected<[any NSObjectProtocol]>([])

    /// How long a capture may take before it fails with ``CameraError/captureTimedOut(seconds:)``: far more
    /// than a capture needs (night-mode exposures are a few seconds), so only a delegate that will never be
    /// called hits it.
    static let captureTimeout = Duration.seconds(20)

    /// The iOS 17 features to enable where supported.
    private let wantedFeatures: Set<CaptureConfiguration.Feature>

    /// A controller that enables `features` where the output supports them.
    init(features: Set<CaptureConfiguration.Feature>) {
      wantedFeatures = features
      super.init()
      let center = NotificationCenter.default
      // Delivered on the thread that posts them (`queue: nil`); the handler hops to the main actor itself.
      let tokens = [
        center.addObserver(forName: Self.wasInterrupted, object: session, queue: nil) {
          [weak self] notification in
          // "an NSNumber object containing a AVCaptureSession.InterruptionReason value"
          let raw =
            (notification.userInfo?[AVCaptureSessionInterruptionReasonKey] as? NSNumber)?.intValue ?? 0
          self?.report(.interruptionBegan(.init(systemRawValue: raw)))
        },
        center.addObserver(forName: Self.interruptionEnded, object: session, queue: nil) {
          [weak self] _ in
          self?.report(.interruptionEnded)
        },
        center.addObserver(forName: Self.runtimeError, object: session, queue: nil) {
          [weak self] notification in
          let error = notification.userInfo?[AVCaptureSessionErrorKey] as? NSError
          self?.report(.runtimeError(Self.failure(for: error)))
        },
      ]
      observers.withLock { $0 = tokens }
    }

    // The iOS 18 SDK names the notifications `AVCaptureSession.wasInterruptedNotification` … (the same
    // constants, available from iOS 4) and deprecates the `NSNotification.Name.AVCaptureSession…` spellings,
    // which are all the iOS 17 SDK has. AVFoundation 2330 is the iOS 18 SDK's.
    #if canImport(AVFoundation, _version: 2330)
      static let wasInterrupted = AVCaptureSession.wasInterruptedNotification
      static let interruptionEnded = AVCaptureSession.interruptionEndedNotification
      static let runtimeError = AVCaptureSession.runtimeErrorNotification
    #else
      static let wasInterrupted = NSNotification.Name.AVCaptureSessionWasInterrupted
      static let interruptionEnded = NSNotification.Name.AVCaptureSessionInterruptionEnded
      static let runtimeError = NSNotification.Name.AVCaptureSessionRuntimeError
    #endif

    deinit {
      for token in observers.current { NotificationCenter.default.removeObserver(token) }
    }

    /// Where the session's interruptions and runtime errors go, from AVFoundation's threads.
    func setEventHandler(_ handler: @escaping @Sendable (CameraSessionStateMachine.Event) -> Void) {
      self.handler.withLock { $0 = handler }
    }

    private func report(_ event: CameraSessionStateMachine.Event) {
      handler.current?(event)
    }

    /// The state machine's failure for a runtime error (`AVCaptureSessionErrorKey`).
    static func failure(for error: NSError?) -> CameraSessionStateMachine.Failure {
      guard let error else { return .runtime(code: 0, reason: "the camera reported an unknown error") }
      if error.domain == AVFoundationErrorDomain, error.code == AVError.Code.mediaServicesWereReset.rawValue {
        return .mediaServicesWereReset
      }
      return .runtime(code: error.code, reason: error.localizedDescription)
    }

    /// The camera the session uses: the back wide-angle camera.
    static func videoDevice() -> AVCaptureDevice? {
      AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)
    }

    /// Configures the session (once) and starts it, on the session's queue.
    ///
    /// - Returns: whether the session runs, and what its photo output can do. It may not run, without an
    ///   error: an interrupted session keeps the start and runs when the interruption ends; a failure to start
    ///   arrives as a runtime error.
    func start() async throws(CameraError) -> (running: Bool, capabilities: CaptureCapabilities) {
      let result: Result<(Bool, CaptureCapabilities), CameraError> = await withCheckedContinuation {
        continuation in
        queue.async {
          do throws(CameraError) {
            try self.configureIfNeeded()
            if !self.session.isRunning { self.session.startRunning() }
            continuation.resume(returning: .success((self.session.isRunning, self.capabilities)))
          } catch {
            continuation.resume(returning: .failure(error))
          }
        }
      }
      let (running, capabilities) = try result.typedGet()
      return (running, capabilities)
    }

    /// Stops the session (on its queue; returns at once).
    func stop() {
      queue.async {
        if self.session.isRunning { self.session.stopRunning() }
      }
    }

    /// New settings for one shot, made on the main actor from what the output can do, so that the readiness
    /// coordinator can track them there before the session's queue captures with them: HEIC where supported,
    /// at the output's largest size (the settings' own default is the smallest, AVCapturePhotoOutput.h).
    @MainActor
    static func makeSettings(_ capabilities: CaptureCapabilities) -> AVCapturePhotoSettings {
      let settings =
        capabilities.hevc
        ? AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc]) : AVCapturePhotoSettings()
      if let largest = capabilities.maxPhotoDimensions {
        settings.maxPhotoDimensions = CMVideoDimensions(width: largest.width, height: largest.height)
      }
      return settings
    }

    /// Takes a photo with `settings`, turned by `rotation`, and returns its file bytes
    /// (`fileDataRepresentation()`): the processed photo, or with deferred delivery the proxy that Photos will
    /// finish. HEIC when the device supports it, with the capture's metadata, ready to be imported as they are.
    ///
    /// - Throws: ``CameraError/captureTimedOut(seconds:)`` when the delegate is not called within
    ///   ``captureTimeout``; a delegate that fires later is ignored.
    func capturePhoto(settings: SettingsBox, rotation: CaptureRotation) async throws(CameraError)
      -> CapturedPhoto
    {
      let token = UUID()
      defer { queue.async { self.pending[token] = nil } }
      return try await withOneShotContinuation(
        timeout: Self.captureTimeout, clock: ContinuousClock(),
        timeoutError: CameraError.captureTimedOut(seconds: Int(Self.captureTimeout.components.seconds)),
        cancellationError: .captureFailed(reason: "the capture was cancelled")
      ) { once in
        queue.async {
          guard self.session.isRunning else {
            once.resume(throwing: .captureFailed(reason: "the camera is not running"))
            return
          }
          if let connection = self.photoOutput.connection(with: .video) { rotation.apply(to: connection) }
          let delegate = PhotoCaptureDelegate { result in once.resume(with: result) }
          self.pending[token] = delegate
          self.photoOutput.capturePhoto(with: settings.settings, delegate: delegate)
        }
      }
    }

    /// Adds the back wide-angle camera and the photo output, sets the output up for full-size photos and the
    /// iOS 17 features it supports, and on iOS 18 adds the Camera Control's system sliders. Runs on `queue`.
    private func configureIfNeeded() throws(CameraError) {
      guard !isConfigured else { return }
      guard let device = Self.videoDevice() else { throw .unavailable }
      let input: AVCaptureDeviceInput
      do {
        input = try AVCaptureDeviceInput(device: device)
      } catch {
        throw .configurationFailed(reason: error.localizedDescription)
      }
      session.beginConfiguration()
      defer { session.commitConfiguration() }
      session.sessionPreset = .photo
      guard session.canAddInput(input), session.canAddOutput(photoOutput) else {
        throw .configurationFailed(reason: "the camera cannot be connected to a photo output")
      }
      session.addInput(input)
      session.addOutput(photoOutput)
      // After the output is added (its support depends on the session) and before `startRunning()` ("may
      // trigger a lengthy reconfiguration", AVCapturePhotoOutput.h).
      let supported = device.activeFormat.supportedMaxPhotoDimensions.map {
        CaptureConfiguration.Dimensions(width: $0.width, height: $0.height)
      }
      let largest = CaptureConfiguration.largest(of: supported)
      if let largest {
        photoOutput.maxPhotoDimensions = CMVideoDimensions(width: largest.width, height: largest.height)
      }
      var features = Set<CaptureConfiguration.Feature>()
      if #available(iOS 17, *) { features = enableFeatures() }
      capabilities = CaptureCapabilities(
        hevc: photoOutput.availablePhotoCodecTypes.contains(.hevc), maxPhotoDimensions: largest,
        features: features)
      #if canImport(AVFoundation, _version: 2330)
        if #available(iOS 18, *), session.supportsControls { addCameraControls(for: device) }
      #endif
      isConfigured = true
    }

    /// Zero shutter lag, responsive capture, fast capture prioritization and deferred delivery, each where the
    /// output supports it, in the order their support depends on.
    @available(iOS 17, *)
    private func enableFeatures() -> Set<CaptureConfiguration.Feature> {
      let output = photoOutput
      return CaptureConfiguration.enable(
        wantedFeatures,
        isSupported: { feature in
          switch feature {
          case .zeroShutterLag: output.isZeroShutterLagSupported
          case .responsiveCapture: output.isResponsiveCaptureSupported
          case .fastCapturePrioritization: output.isFastCapturePrioritizationSupported
          case .autoDeferredPhotoDelivery: output.isAutoDeferredPhotoDeliverySupported
          }
        },
        enable: { feature in
          switch feature {
          case .zeroShutterLag: output.isZeroShutterLagEnabled = true
          case .responsiveCapture: output.isResponsiveCaptureEnabled = true
          case .fastCapturePrioritization: output.isFastCapturePrioritizationEnabled = true
          case .autoDeferredPhotoDelivery: output.isAutoDeferredPhotoDeliveryEnabled = true
          }
        })
    }

    #if canImport(AVFoundation, _version: 2330)
      /// The Camera Control (iPhone 16): the system's zoom and exposure sliders, which act on the device
      /// themselves. "A controls delegate must be specified for controls to become active" (AVCaptureSession.h);
      /// its callbacks come on `controlsQueue`. Runs on `queue`, inside the configuration.
      @available(iOS 18, *)
      private func addCameraControls(for device: AVCaptureDevice) {
        let controls: [AVCaptureControl] = [
          AVCaptureSystemZoomSlider(device: device), AVCaptureSystemExposureBiasSlider(device: device),
        ]
        for control in controls where session.canAddControl(control) { session.addControl(control) }
        session.setControlsDelegate(self, queue: controlsQueue)
      }
    #endif
  }

  #if canImport(AVFoundation, _version: 2330)
    @available(iOS 18, *)
    extension CaptureSessionController: AVCaptureSessionControlsDelegate {
      // The system sliders need nothing from the app; a camera UI could hide its own controls while the
      // Camera Control's overlay is in full screen.
      func sessionControlsDidBecomeActive(_ session: AVCaptureSession) {}
      func sessionControlsWillEnterFullscreenAppearance(_ session: AVCaptureSession) {}
      func sessionControlsWillExitFullscreenAppearance(_ session: AVCaptureSession) {}
      func sessionControlsDidBecomeInactive(_ session: AVCaptureSession) {}
    }
  #endif

  /// What the configured photo output can do, read on the session's queue and used on the main actor.
  struct CaptureCapabilities: Sendable, Hashable {
    /// HEVC (HEIC files) is available.
    var hevc = false
    /// The output's `maxPhotoDimensions`, the largest the device's format supports.
    var maxPhotoDimensions: CaptureConfiguration.Dimensions?
    /// The iOS 17 features enabled.
    var features: Set<CaptureConfiguration.Feature> = []
  }

  /// One shot's settings on their way from the main actor to the session's queue.
  struct SettingsBox: @unchecked Sendable {
    // @unchecked: AVCapturePhotoSettings is not Sendable; these are made for one shot, not changed after the
    // readiness coordinator was told of them, and handed to `capturePhoto(with:delegate:)` once.
    let settings: AVCapturePhotoSettings
  }

  /// What a shot delivered: the processed photo, or a deferred proxy that Photos will finish.
  enum CapturedPhoto: Sendable {
    /// `didFinishProcessingPhoto`: the photo's file bytes.
    case photo(Data)
    /// `didFinishCapturingDeferredPhotoProxy`: the proxy's file bytes, to save as `.photoProxy` at once.
    case proxy(Data)
  }

  /// Receives one capture's photo or proxy and passes on its file bytes.
  final class PhotoCaptureDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    // @unchecked: `completion` is set in init and only called; it resumes a `OneShotContinuation`, which takes
    // the first call and ignores the rest.
    private let completion: @Sendable (Result<CapturedPhoto, CameraError>) -> Void

    init(completion: @escaping @Sendable (Result<CapturedPhoto, CameraError>) -> Void) {
      self.completion = completion
    }

    func photoOutput(
      _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?
    ) {
      if let error {
        completion(.failure(.captureFailed(reason: error.localizedDescription)))
      } else if let data = photo.fileDataRepresentation() {
        completion(.success(.photo(data)))
      } else {
        completion(.failure(.captureFailed(reason: "the camera returned no image data")))
      }
    }

    /// With deferred delivery, called "instead of -captureOutput:didFinishProcessingPhoto:error:"; the proxy
    /// "should be added to the photo library as quickly as possible" (AVCapturePhotoOutput.h).
    @available(iOS 17, *)
    func photoOutput(
      _ output: AVCapturePhotoOutput,
      didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?,
      error: (any Error)?
    ) {
      if let error {
        completion(.failure(.captureFailed(reason: error.localizedDescription)))
      } else if let data = deferredPhotoProxy?.fileDataRepresentation() {
        completion(.success(.proxy(data)))
      } else {
        completion(.failure(.captureFailed(reason: "the camera returned no proxy data")))
      }
    }

    /// "always comes last" (AVCapturePhotoOutput.h): a capture that ends without a processed photo fails here
    /// instead of waiting for the deadline. After a photo this call changes nothing.
    func photoOutput(
      _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
      error: (any Error)?
    ) {
      let reason = error?.localizedDescription ?? "the capture ended without a photo"
      completion(.failure(.captureFailed(reason: reason)))
    }
  }
#endif
