/// The life of a camera session, from the first start to the interruptions and errors of the real world: a
/// call, Split View, another app taking the camera, a hot device, a media-services reset.
///
/// The Apple layer feeds it what AVFoundation and the app report (`AVCaptureSession.wasInterruptedNotification`
/// with its reason, `interruptionEndedNotification`, `runtimeErrorNotification`, the app going to the
/// background and back) and carries out the effects it returns, on the session's queue. What the UI shows
/// (``message``, ``offersResume``, ``canCapture``) and when the session is restarted are decided here, where
/// they are tested on Linux.
///
/// The rules it encodes:
/// - An interruption pauses the session; AVFoundation keeps the app's `startRunning()` and resumes the session
///   itself when the interruption ends ("Provided you don't explicitly call `stopRunning`, your
///   `startRunning` request is preserved", AVCaptureSession.h), so the app never restarts it then.
/// - Another app holding the camera or the microphone may keep it: the user can tap Resume to try again.
///   Split View, Slide Over, the background and system pressure (heat, power) end on their own: no button helps.
/// - A runtime error stops the session. `mediaServicesWereReset` is restarted at once, as Apple's AVCam does;
///   any other error is restarted once automatically, and if it comes back the camera shows the error with a
///   Resume button.
/// - Nothing is restarted in the background, where the camera may not run; a restart that was due then happens
///   on returning to the foreground.
///
/// ```swift
/// var camera = CameraSessionStateMachine()
/// camera.handle(.start)                                        // [.startSession]
/// camera.handle(.configured)                                   // state: .running
/// camera.handle(.interruptionBegan(.videoDeviceInUseByAnotherClient))
/// camera.offersResume                                          // true
/// ```
public struct CameraSessionStateMachine: Sendable, Hashable {
  /// Why AVFoundation interrupted the session (`AVCaptureSession.InterruptionReason`).
  public enum InterruptionReason: Sendable, Hashable {
    /// The app went to the background while using the camera.
    case videoDeviceNotAvailableInBackground
    /// The audio hardware is taken, for example by a phone call or an alarm.
    case audioDeviceInUseByAnotherClient
    /// Another app is using the camera.
    case videoDeviceInUseByAnotherClient
    /// The app shares the screen with others (Split View, Slide Over, Picture in Picture).
    case videoDeviceNotAvailableWithMultipleForegroundApps
    /// The system shut the camera down because of pressure, such as heat.
    case videoDeviceNotAvailableDueToSystemPressure
    /// A reason this version does not know, with AVFoundation's raw value.
    case other(rawValue: Int)

    /// The reason for `AVCaptureSession.InterruptionReason.rawValue`, which numbers them 1 (background)
    /// to 5 (system pressure).
    public init(systemRawValue: Int) {
      switch systemRawValue {
      case 1: self = .videoDeviceNotAvailableInBackground
      case 2: self = .audioDeviceInUseByAnotherClient
      case 3: self = .videoDeviceInUseByAnotherClient
      case 4: self = .videoDeviceNotAvailableWithMultipleForegroundApps
      case 5: self = .videoDeviceNotAvailableDueToSystemPressure
      default: self = .other(rawValue: systemRawValue)
      }
    }
  }

  /// An error that stopped the session (`AVCaptureSessionErrorKey` of a runtime error), or a start that
  /// failed.
  public enum Failure: Sendable, Hashable, CustomStringConvertible {
    /// `AVError.mediaServicesWereReset` (-11819): the media server restarted; the session can run again.
    case mediaServicesWereReset
    /// Any other runtime error, with its code and the system's description.
    case runtime(code: Int, reason: String)
    /// The session could not be set up (no camera, an input or output it cannot add). Not retried: the same
    /// setup would fail the same way.
    case configuration(reason: String)

    /// `AVError.Code.mediaServicesWereReset.rawValue`.
    public static let mediaServicesWereResetCode = -11819

    /// The failure for a runtime error's code and description.
    public init(runtimeErrorCode code: Int, reason: String) {
      self =
        code == Self.mediaServicesWereResetCode
        ? .mediaServicesWereReset : .runtime(code: code, reason: reason)
    }

    public var description: String {
      switch self {
      case .mediaServicesWereReset: "the system's media services restarted"
      case .runtime(let code, let reason): "\(reason) (error \(code))"
      case .configuration(let reason): reason
      }
    }
  }

  /// Where the session is.
  public enum State: Sendable, Hashable {
    /// Never started.
    case idle
    /// Being configured and started, or restarted, on the session's queue.
    case configuring
    /// Running: the preview is live and photos can be taken.
    case running
    /// Paused by the system for this reason; see ``offersResume``.
    case interrupted(InterruptionReason)
    /// Stopped by an error that was not (or no longer) restarted automatically.
    case failed(Failure)
    /// Stopped by the app (the camera screen closed).
    case stopped
  }

  /// What happened.
  public enum Event: Sendable, Hashable {
    /// The camera screen appeared: configure the session if needed and start it.
    case start
    /// The session is configured and `startRunning()` returned with it running.
    case configured
    /// Configuring or starting failed.
    case startFailed(Failure)
    /// `wasInterruptedNotification`, with its reason.
    case interruptionBegan(InterruptionReason)
    /// `interruptionEndedNotification`: AVFoundation resumed the session.
    case interruptionEnded
    /// `runtimeErrorNotification`, with its error.
    case runtimeError(Failure)
    /// The user tapped Resume.
    case userTappedResume
    /// The app went to the background.
    case enteredBackground
    /// The app came back to the foreground.
    case enteredForeground
    /// The camera screen closed: stop the session.
    case stop
  }

  /// What the app should do now, on the session's queue.
  public enum Effect: Sendable, Hashable {
    /// Configure the session if it is not yet, and call `startRunning()`.
    case startSession
    /// Call `stopRunning()`.
    case stopSession
  }

  /// Where the session is now.
  public private(set) var state: State = .idle
  /// Whether the app is in the background.
  public private(set) var isInBackground = false
  /// Automatic restarts left for errors other than a media-services reset; refilled by ``Event/start`` and
  /// ``Event/userTappedResume``.
  public private(set) var automaticRetriesLeft: Int
  /// A restart that was due while the app was in the background.
  private var restartWhenForeground = false
  private let automaticRetries: Int

  /// A machine that restarts the session `automaticRetries` times after a runtime error before it shows the
  /// error (media-services resets are always restarted).
  public init(automaticRetries: Int = 1) {
    self.automaticRetries = automaticRetries
    automaticRetriesLeft = automaticRetries
  }

  /// Takes an event and returns what to do.
  @discardableResult
  public mutating func handle(_ event: Event) -> [Effect] {
    switch event {
    case .start:
      guard state != .running, state != .configuring else { return [] }
      if case .interrupted = state { return [] }
      automaticRetriesLeft = automaticRetries
      return restart()
    case .userTappedResume:
      guard offersResume else { return [] }
      automaticRetriesLeft = automaticRetries
      return restart()
    case .configured:
      if state == .configuring { state = .running }
      return []
    case .startFailed(let failure):
      guard state == .configuring else { return [] }
      state = .failed(failure)
      return []
    case .interruptionBegan(let reason):
      switch state {
      case .configuring, .running, .interrupted: state = .interrupted(reason)
      // A start that returned without running may be reported before the interruption that explains it;
      // AVFoundation keeps the start and resumes when the interruption ends, so the interruption wins.
      case .failed(.runtime): state = .interrupted(reason)
      case .idle, .failed, .stopped: break
      }
      return []
    case .interruptionEnded:
      if case .interrupted = state { state = .running }
      return []
    case .runtimeError(let failure):
      return runtimeError(failure)
    case .enteredBackground:
      isInBackground = true
      return []
    case .enteredForeground:
      isInBackground = false
      guard restartWhenForeground else { return [] }
      restartWhenForeground = false
      return restart()
    case .stop:
      restartWhenForeground = false
      guard state != .idle, state != .stopped else { return [] }
      state = .stopped
      return [.stopSession]
    }
  }

  private mutating func runtimeError(_ failure: Failure) -> [Effect] {
    switch state {
    // A session that was never set up has nothing to restart; opening the camera again tries the setup again.
    case .idle, .stopped, .failed(.configuration): return []
    case .configuring, .running, .interrupted, .failed: break
    }
    // A media-services reset is the system's, not the session's, and a restart fixes it; anything else gets
    // a bounded number of automatic restarts so that a persistent error cannot loop.
    let restartable: Bool
    if failure == .mediaServicesWereReset {
      restartable = true
    } else if automaticRetriesLeft > 0 {
      automaticRetriesLeft -= 1
      restartable = true
    } else {
      restartable = false
    }
    state = .failed(failure)
    guard restartable else { return [] }
    guard !isInBackground else {
      restartWhenForeground = true
      return []
    }
    return restart()
  }

  private mutating func restart() -> [Effect] {
    guard !isInBackground else {
      restartWhenForeground = true
      return []
    }
    state = .configuring
    return [.startSession]
  }

  /// Photos can be taken.
  public var canCapture: Bool { state == .running }

  /// Whether a Resume button makes sense: the camera is held by another app (which may let it go), or stopped
  /// by an error that a new start may fix. Not for interruptions that end on their own.
  public var offersResume: Bool {
    switch state {
    case .interrupted(let reason):
      reason == .videoDeviceInUseByAnotherClient || reason == .audioDeviceInUseByAnotherClient
    case .failed(let failure):
      if case .configuration = failure { false } else { !restartWhenForeground }
    case .idle, .configuring, .running, .stopped:
      false
    }
  }

  /// A sentence for a banner over the preview; nil while the camera is starting or running.
  public var message: String? {
    switch state {
    case .idle, .configuring, .running, .stopped:
      return nil
    case .interrupted(let reason):
      switch reason {
      case .videoDeviceInUseByAnotherClient:
        return "Another app is using the camera. Close it, then tap Resume."
      case .audioDeviceInUseByAnotherClient:
        return
          "The camera paused while another app uses audio, for example a call. Tap Resume when it is over."
      case .videoDeviceNotAvailableWithMultipleForegroundApps:
        return "The camera is unavailable while apps share the screen. Show this app full screen to use it."
      case .videoDeviceNotAvailableDueToSystemPressure:
        return
          "The camera stopped because the device is too hot or low on power. It resumes when it has cooled."
      case .videoDeviceNotAvailableInBackground:
        return "The camera paused while the app was in the background."
      case .other:
        return "The system paused the camera. It resumes when the system allows."
      }
    case .failed(let failure):
      if case .configuration = failure {
        return "The camera could not be started (\(failure))."
      }
      return "The camera stopped (\(failure)). Tap Resume to try again."
    }
  }
}
