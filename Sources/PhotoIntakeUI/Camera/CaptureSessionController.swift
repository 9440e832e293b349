#if canImport(AVFoundation) && canImport(UIKit)
  import AVFoundation
  import Foundation

  /// Owns an `AVCaptureSession` and does all of its work on one serial queue of its own.
  ///
  /// "`startRunning()` is a blocking call which can take some time, therefore you should perform session setup on
  /// a serial queue so that the main queue isn't blocked" (AVCaptureSession.h); configuration
  /// (`beginConfiguration`/`commitConfiguration`) and `capturePhoto(with:delegate:)` run on that queue too, so
  /// the session is never touched from two threads. The preview layer only reads ``session``.
  final class CaptureSessionController: NSObject, @unchecked Sendable {
    // @unchecked: every mutable member (the session's configuration, `isConfigured`, `pending`) is only used
    // inside `queue.async` blocks of the one serial queue; `session` itself is a constant reference handed to
    // the preview layer, which AVFoundation allows from the main thread.
    let session = AVCaptureSession()
    private let queue = DispatchQueue(label: "PhotoIntake.CaptureSession")
    private let photoOutput = AVCapturePhotoOutput()
    private var isConfigured = false
    /// Delegates of captures in flight, kept alive until they call back (the output holds them weakly).
    private var pending: [Int64: PhotoCaptureDelegate] = [:]

    /// Configures the session (once) and starts it.
    func start() async throws(CameraError) {
      let result: Result<Void, CameraError> = await withCheckedContinuation { continuation in
        queue.async {
          do throws(CameraError) {
            try self.configureIfNeeded()
            if !self.session.isRunning { self.session.startRunning() }
            continuation.resume(returning: .success(()))
          } catch {
            continuation.resume(returning: .failure(error))
          }
        }
      }
      if case .failure(let error) = result { throw error }
    }

    /// Stops the session (on its queue; returns at once).
    func stop() {
      queue.async {
        if self.session.isRunning { self.session.stopRunning() }
      }
    }

    /// Takes a photo and returns its file bytes (`AVCapturePhoto.fileDataRepresentation()`): HEIC when the
    /// device supports it, with the capture's metadata, ready to be imported as they are.
    func capturePhoto() async throws(CameraError) -> Data {
      let result: Result<Data, CameraError> = await withCheckedContinuation { continuation in
        queue.async {
          guard self.session.isRunning else {
            continuation.resume(returning: .failure(.captureFailed(reason: "the camera is not running")))
            return
          }
          let settings =
            self.photoOutput.availablePhotoCodecTypes.contains(.hevc)
            ? AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
            : AVCapturePhotoSettings()
          let id = settings.uniqueID
          let delegate = PhotoCaptureDelegate { result in
            self.queue.async { self.pending[id] = nil }
            continuation.resume(returning: result)
          }
          self.pending[id] = delegate
          self.photoOutput.capturePhoto(with: settings, delegate: delegate)
        }
      }
      switch result {
      case .success(let data): return data
      case .failure(let error): throw error
      }
    }

    /// Adds the back wide-angle camera and the photo output. Runs on `queue`.
    private func configureIfNeeded() throws(CameraError) {
      guard !isConfigured else { return }
      guard let device = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)
      else { throw .unavailable }
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
    // @unchecked: `completion` is set in init and called once, from AVFoundation's callback queue.
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
  }
#endif
