// `_version: 1`: any AVFoundation, but versioned like every check of it (SDKGuardTests says why).
#if canImport(AVFoundation, _version: 1)
  /// Why the camera could not take a photo. Each case reads as a sentence a user can act on.
  public enum CameraError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The user refused camera access (`AVAuthorizationStatus.denied`).
    case accessDenied
    /// Camera access is restricted on this device.
    case accessRestricted
    /// The device has no camera the app can use (the simulator, or a camera in use by another app).
    case unavailable
    /// The capture session could not be set up.
    case configurationFailed(reason: String)
    /// The photo could not be taken or encoded.
    case captureFailed(reason: String)
    /// The camera never delivered the photo: its delegate was not called within the deadline (an interruption
    /// in the middle of a capture can do that).
    case captureTimedOut(seconds: Int)

    public var description: String {
      switch self {
      case .accessDenied:
        "The app may not use the camera. You can allow it in Settings › Privacy & Security › Camera."
      case .accessRestricted:
        "The camera is restricted on this device, for example by Screen Time."
      case .unavailable:
        "No camera is available. Another app may be using it; close it and try again."
      case .configurationFailed(let reason):
        "The camera could not be started (\(reason)). Try again."
      case .captureFailed(let reason):
        "The photo could not be taken (\(reason)). Try again."
      case .captureTimedOut(let seconds):
        "The camera did not deliver the photo within \(seconds) seconds. Try again."
      }
    }
  }
#endif
