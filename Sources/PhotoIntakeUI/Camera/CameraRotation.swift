// `_version: 1`: any AVFoundation, but versioned like every check of it (SDKGuardTests says why).
#if canImport(AVFoundation, _version: 1) && canImport(UIKit)
  import AVFoundation
  import UIKit

  /// Keeps the camera preview and captured photos level with the horizon as the device turns.
  ///
  /// On iOS 17 an `AVCaptureDevice.RotationCoordinator` made for the camera and the preview layer supplies the
  /// angles: `videoRotationAngleForHorizonLevelPreview`, observed with key-value observation (delivered on the
  /// main queue) and applied to the preview layer's connection at once, and
  /// `videoRotationAngleForHorizonLevelCapture`, read when a photo is taken and applied to the photo output's
  /// connection. On iOS 16 the preview follows the interface orientation and captures the device's physical
  /// orientation, both as `AVCaptureVideoOrientation` (`videoOrientation`, deprecated in iOS 17).
  @MainActor
  public final class CameraRotation {
    private weak var previewLayer: AVCaptureVideoPreviewLayer?
    private var device: AVCaptureDevice?
    /// The iOS 17 `AVCaptureDevice.RotationCoordinator`, untyped so the class can exist on iOS 16.
    private var coordinator: AnyObject?
    private var observation: NSKeyValueObservation?
    /// Whether this object asked `UIDevice` for orientation notifications (iOS 16), which it must balance with
    /// `endGeneratingDeviceOrientationNotifications()`: the calls nest, and the accelerometer stays on until
    /// every begin is ended.
    private var generatesOrientation = false

    /// A rotation that follows nothing until ``CameraPreview`` attaches its layer and the camera is known.
    public init() {}

    /// The camera whose rotation to follow; call it once the session has the camera's input (the preview
    /// layer's connection exists only then).
    func attach(device: AVCaptureDevice) {
      guard self.device !== device else { return }
      self.device = device
      makeCoordinator()
    }

    /// The layer that shows the preview.
    func attach(previewLayer: AVCaptureVideoPreviewLayer) {
      guard self.previewLayer !== previewLayer else { return }
      self.previewLayer = previewLayer
      makeCoordinator()
    }

    /// Stops following the camera (the camera screen went away): no more key-value observation, and on iOS 16
    /// the orientation notifications this object asked for end. ``attach(device:)`` starts again.
    func detach() {
      observation?.invalidate()
      observation = nil
      coordinator = nil
      device = nil
      if generatesOrientation {
        UIDevice.current.endGeneratingDeviceOrientationNotifications()
        generatesOrientation = false
      }
    }

    private func makeCoordinator() {
      guard let device, let previewLayer else { return }
      if #available(iOS 17, *) {
        observation?.invalidate()
        let coordinator = AVCaptureDevice.RotationCoordinator(device: device, previewLayer: previewLayer)
        self.coordinator = coordinator
        // "The coordinator delivers key-value updates on the main queue" (AVCaptureDevice.h). `.initial` applies
        // the current angle at once: the layer's connection exists only once the session has its input, which
        // is why ``CameraModel`` attaches the device after configuring the session; before that a landscape
        // start would stay sideways until the next turn of the device.
        observation = coordinator.observe(
          \.videoRotationAngleForHorizonLevelPreview, options: [.initial, .new]
        ) {
          [weak self] coordinator, _ in
          let angle = coordinator.videoRotationAngleForHorizonLevelPreview
          MainActor.assumeIsolated { Self.apply(angle, to: self?.previewLayer?.connection) }
        }
      } else {
        if !generatesOrientation {
          UIDevice.current.beginGeneratingDeviceOrientationNotifications()
          generatesOrientation = true
        }
        layoutChanged()
      }
    }

    /// On iOS 16, turns the preview with the interface; ``CameraPreview`` calls it when its layout changes,
    /// which it does when the interface rotates. iOS 17 needs nothing: the coordinator reports the change.
    func layoutChanged() {
      if #available(iOS 17, *) { return }
      guard let previewLayer, let connection = previewLayer.connection else { return }
      let interface = legacy.interfaceOrientation(of: previewLayer)
      legacy.apply(legacy.previewOrientation(interface: interface), to: connection)
    }

    /// The rotation to give the photo about to be taken.
    func captureRotation() -> CaptureRotation {
      if #available(iOS 17, *), let coordinator = coordinator as? AVCaptureDevice.RotationCoordinator {
        return .angle(coordinator.videoRotationAngleForHorizonLevelCapture)
      }
      let interface = previewLayer.map { legacy.interfaceOrientation(of: $0) } ?? .portrait
      return .orientation(
        rawValue: legacy.captureOrientation(device: UIDevice.current.orientation, interface: interface))
    }

    @available(iOS 17, *)
    private static func apply(_ angle: CGFloat, to connection: AVCaptureConnection?) {
      guard let connection, connection.isVideoRotationAngleSupported(angle) else { return }
      connection.videoRotationAngle = angle
    }
  }

  /// How to turn one capture, decided on the main actor and applied on the session's queue.
  enum CaptureRotation: Sendable {
    /// iOS 17: `videoRotationAngle`, in degrees.
    case angle(CGFloat)
    /// iOS 16: `AVCaptureVideoOrientation.rawValue`.
    case orientation(rawValue: Int)

    /// Sets the rotation on the photo output's video connection, where it is supported.
    func apply(to connection: AVCaptureConnection) {
      switch self {
      case .angle(let angle):
        if #available(iOS 17, *), connection.isVideoRotationAngleSupported(angle) {
          connection.videoRotationAngle = angle
        }
      case .orientation(let rawValue):
        legacy.apply(rawValue, to: connection)
      }
    }
  }

  /// The iOS 16 path, reached through a protocol: `videoOrientation` is deprecated from iOS 17 on, where this
  /// code never runs, and the deprecated helpers are called through requirements that are not, so the iOS 17
  /// build has no warnings for code it does not run.
  protocol LegacyRotating {
    /// Sets `AVCaptureVideoOrientation(rawValue:)` on `connection` where it is supported.
    static func apply(_ orientation: Int, to connection: AVCaptureConnection)
    /// The preview's orientation for the interface's.
    static func previewOrientation(interface: UIInterfaceOrientation) -> Int
    /// The capture's orientation for how the device is held.
    static func captureOrientation(device: UIDeviceOrientation, interface: UIInterfaceOrientation) -> Int
    /// The orientation of the interface that shows `layer` (`UIWindowScene.interfaceOrientation`, deprecated in
    /// iOS 26, which only this iOS 16 path reads).
    @MainActor static func interfaceOrientation(of layer: CALayer) -> UIInterfaceOrientation
  }

  /// The iOS 16 helpers. Computed, not a stored global: a global `let` of a metatype that is not `Sendable`
  /// is a concurrency warning on the iOS 26 SDK.
  var legacy: any LegacyRotating.Type { Legacy.self }

  enum Legacy: LegacyRotating {
    @available(iOS, deprecated: 17.0, message: "iOS 16 only; iOS 17 uses the rotation coordinator")
    static func apply(_ orientation: Int, to connection: AVCaptureConnection) {
      guard let orientation = AVCaptureVideoOrientation(rawValue: orientation),
        connection.isVideoOrientationSupported
      else { return }
      connection.videoOrientation = orientation
    }

    @available(iOS, deprecated: 17.0, message: "iOS 16 only; iOS 17 uses the rotation coordinator")
    static func previewOrientation(interface: UIInterfaceOrientation) -> Int {
      videoOrientation(interface: interface).rawValue
    }

    /// The capture follows how the device is held, which may differ from the interface (rotation lock). The
    /// device's landscape sides are named after the home button, the video's after the camera, hence the swap.
    /// Face up, face down and unknown say nothing about the horizon: the interface decides then.
    @available(iOS, deprecated: 17.0, message: "iOS 16 only; iOS 17 uses the rotation coordinator")
    static func captureOrientation(device: UIDeviceOrientation, interface: UIInterfaceOrientation) -> Int {
      let orientation: AVCaptureVideoOrientation =
        switch device {
        case .portrait: .portrait
        case .portraitUpsideDown: .portraitUpsideDown
        case .landscapeLeft: .landscapeRight
        case .landscapeRight: .landscapeLeft
        default: videoOrientation(interface: interface)
        }
      return orientation.rawValue
    }

    @available(iOS, deprecated: 17.0, message: "iOS 16 only; iOS 17 uses the rotation coordinator")
    @MainActor static func interfaceOrientation(of layer: CALayer) -> UIInterfaceOrientation {
      (layer.delegate as? UIView)?.window?.windowScene?.interfaceOrientation ?? .portrait
    }

    @available(iOS, deprecated: 17.0, message: "iOS 16 only; iOS 17 uses the rotation coordinator")
    private static func videoOrientation(interface: UIInterfaceOrientation) -> AVCaptureVideoOrientation {
      switch interface {
      case .landscapeLeft: .landscapeLeft
      case .landscapeRight: .landscapeRight
      case .portraitUpsideDown: .portraitUpsideDown
      default: .portrait
      }
    }
  }
#endif
