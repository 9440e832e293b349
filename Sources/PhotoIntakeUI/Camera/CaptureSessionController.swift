#if canImport(AVFoundation) && canImport(UIKit)
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
    // @unchecked: every mutable member (the session's configuration, `isConfigured`, `pending`) is only used
    // inside `queue.async` blocks of the one serial queue; `session` itself is a constant reference handed to
    // the preview layer, which AVFoundation allows from the main thread; `handler` and `observers` are behind
    // locks.
    let session = AVCaptureSession()
    private let queue = DispatchQueue(label: "PhotoIntake.CaptureSession")
    private let photoOutput = AVCapturePhotoOutput()
    private var isConfigured = false
    /// Delegates of captures in flight, kept alive until they call back or time out (the output holds them
    /// weakly).
    private var pending: [UUID: PhotoCaptureDelegate] = [:]
    private let handler = Protected<(@Sendable (CameraSessionStateMachine.Event) -> Void)?>(nil)
    private let observers = Protected<[any NSObjectProtocol]>([])

    /// How long a capture may take before it fails with ``CameraError/captureTimedOut(seconds:)``: far more
    /// than a capture needs (night-mode exposures are a few seconds), so only a delegate that will never be
    /// called hits it.
    static let captureTimeout = Duration.seconds(20)

    override init() {
      super.init()
      let center = NotificationCenter.default
      // Delivered on the thread that posts them (`queue: nil`); the handler hops to the main actor itself. The
      // names are those of the iOS 17 SDK; the iOS 18 SDK calls them `AVCaptureSession.wasInterruptedNotification`,
      // `interruptionEndedNotification` and `runtimeErrorNotification`.
      let tokens = [
        center.addObserver(
          forName: NSNotification.Name.AVCaptureSessionWasInterrupted, object: session, queue: nil
        ) {
          [weak self] notification in
          // "an NSNumber object containing a AVCaptureSession.InterruptionReason value"
          let raw =
            (notification.userInfo?[AVCaptureSessionInterruptionReasonKey] as? NSNumber)?.intValue ?? 0
          self?.report(.interruptionBegan(.init(systemRawValue: raw)))
        },
        center.addObserver(
          forName: NSNotification.Name.AVCaptureSessionInterruptionEnded, object: session, queue: nil
        ) {
          [weak self] _ in
          self?.report(.interruptionEnded)
        },
        center.addObserver(
          forName: NSNotification.Name.AVCaptureSessionRuntimeError, object: session, queue: nil
        ) {
          [weak self] notification in
          let error = notification.userInfo?[AVCaptureSessionErrorKey] as? NSError
          self?.report(.runtimeError(Self.failure(for: error)))
        },
      ]
      observers.withLock { $0 = tokens }
    }

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
    /// - Returns: whether the session runs. It may not, without an error: an interrupted session keeps the
    ///   start and runs when the interruption ends; a failure to start arrives as a runtime error.
    func start() async throws(CameraError) -> Bool {
      let result: Result<Bool, CameraError> = await withCheckedContinuation { continuation in
        queue.async {
          do throws(CameraError) {
            try self.configureIfNeeded()
            if !self.session.isRunning { self.session.startRunning() }
            continuation.resume(returning: .success(self.session.isRunning))
          } catch {
            continuation.resume(returning: .failure(error))
          }
        }
      }
      return try result.typedGet()
    }

    /// Stops the session (on its queue; returns at once).
    func stop() {
      queue.async {
        if self.session.isRunning { self.session.stopRunning() }
      }
    }

    /// Takes a photo, turned by `rotation`, and returns its file bytes (`AVCapturePhoto.fileDataRepresentation()`):
    /// HEIC when the device supports it, with the capture's metadata, ready to be imported as they are.
    ///
    /// - Throws: ``CameraError/captureTimedOut(seconds:)`` when the delegate is not called within
    ///   ``captureTimeout``; a delegate that fires later is ignored.
    func capturePhoto(rotation: CaptureRotation) async throws(CameraError) -> Data {
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
          let settings =
            self.photoOutput.availablePhotoCodecTypes.contains(.hevc)
            ? AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
            : AVCapturePhotoSettings()
          let delegate = PhotoCaptureDelegate { result in once.resume(with: result) }
          self.pending[token] = delegate
          self.photoOutput.capturePhoto(with: settings, delegate: delegate)
        }
      }
    }

    /// Adds the back wide-angle camera and the photo output. Runs on `queue`.
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
      isConfigured = true
    }
  }

  /// Receives one capture's photo and passes on its file bytes.
  final class PhotoCaptureDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    // @unchecked: `completion` is set in init and only called; it resumes a `OneShotContinuation`, which takes
    // the first call and ignores the rest.
    private let completion: @Sendable (Result<Data, CameraError>) -> Void

    init(completion: @escaping @Sendable (Result<Data, CameraError>) -> Void) {
      self.completion = completion
    }

    func photoOutput(
      _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?
    ) {
      if let error {
        completion(.failure(.captureFailed(reason: error.localizedDescription)))
      } else if let data = photo.fileDataRepresentation() {
        completion(.success(data))
      } else {
        completion(.failure(.captureFailed(reason: "the camera returned no image data")))
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
