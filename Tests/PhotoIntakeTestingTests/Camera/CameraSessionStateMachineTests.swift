import PhotoIntake
import PhotoIntakeTesting
import Testing

struct CameraSessionStateMachineTests {
  typealias Machine = CameraSessionStateMachine
  typealias Reason = CameraSessionStateMachine.InterruptionReason

  /// A machine that was started and runs.
  static func running() -> Machine {
    var machine = Machine()
    #expect(machine.handle(.start) == [.startSession])
    #expect(machine.state == .configuring)
    machine.handle(.configured)
    #expect(machine.state == .running)
    #expect(machine.canCapture)
    return machine
  }

  @Test func startsOnceAndStops() {
    var machine = Self.running()
    #expect(machine.handle(.start) == [])  // already running: nothing to do
    #expect(machine.message == nil)
    #expect(machine.handle(.stop) == [.stopSession])
    #expect(machine.state == .stopped)
    #expect(!machine.canCapture)
    #expect(machine.handle(.stop) == [])
    #expect(machine.handle(.start) == [.startSession])  // the screen opens again
  }

  /// Which interruptions offer Resume: those where another app holds a device it may release; the others end
  /// on their own. Interruptions never restart the session: AVFoundation resumes it.
  @Test(arguments: [
    (3, Reason.videoDeviceInUseByAnotherClient, true),
    (2, .audioDeviceInUseByAnotherClient, true),
    (4, .videoDeviceNotAvailableWithMultipleForegroundApps, false),
    (1, .videoDeviceNotAvailableInBackground, false),
    (5, .videoDeviceNotAvailableDueToSystemPressure, false),
    (6, .other(rawValue: 6), false),  // a newer reason (iOS 18's sensitive-content mitigation)
  ])
  func interruptions(_ rawValue: Int, _ reason: Reason, _ resume: Bool) {
    #expect(Reason(systemRawValue: rawValue) == reason)
    var machine = Self.running()
    #expect(machine.handle(.interruptionBegan(reason)) == [])
    #expect(machine.state == .interrupted(reason))
    #expect(!machine.canCapture)
    #expect(machine.offersResume == resume)
    #expect(machine.message?.isEmpty == false)
    #expect(machine.handle(.interruptionEnded) == [])
    #expect(machine.state == .running)
    #expect(machine.message == nil)
  }

  @Test func resumeAfterAnotherAppTookTheCamera() {
    var machine = Self.running()
    machine.handle(.interruptionBegan(.videoDeviceInUseByAnotherClient))
    #expect(machine.handle(.userTappedResume) == [.startSession])
    #expect(machine.state == .configuring)
    machine.handle(.configured)
    #expect(machine.state == .running)
    // Resume where no button is shown does nothing.
    machine.handle(.interruptionBegan(.videoDeviceNotAvailableWithMultipleForegroundApps))
    #expect(machine.handle(.userTappedResume) == [])
    // A start whose session stays interrupted is reported as a failure; the interruption explains it.
    machine.handle(.interruptionEnded)
    machine.handle(.interruptionBegan(.videoDeviceInUseByAnotherClient))
    machine.handle(.userTappedResume)
    machine.handle(.startFailed(.runtime(code: 0, reason: "the camera did not start")))
    machine.handle(.interruptionBegan(.videoDeviceInUseByAnotherClient))
    #expect(machine.state == .interrupted(.videoDeviceInUseByAnotherClient))
    #expect(machine.offersResume)
  }

  @Test func mediaServicesResetAlwaysRestarts() {
    #expect(Machine.Failure(runtimeErrorCode: -11819, reason: "reset") == .mediaServicesWereReset)
    var machine = Self.running()
    for _ in 0..<3 {
      #expect(machine.handle(.runtimeError(.mediaServicesWereReset)) == [.startSession])
      #expect(machine.state == .configuring)
      machine.handle(.configured)
      #expect(machine.state == .running)
    }
  }

  @Test func otherErrorsRestartOnceThenShowResume() {
    let error = Machine.Failure(runtimeErrorCode: -11800, reason: "The operation could not be completed")
    #expect(error == .runtime(code: -11800, reason: "The operation could not be completed"))
    var machine = Self.running()
    #expect(machine.handle(.runtimeError(error)) == [.startSession])  // the automatic retry
    #expect(machine.state == .configuring)
    #expect(machine.handle(.runtimeError(error)) == [])  // it came back: show it
    #expect(machine.state == .failed(error))
    #expect(machine.offersResume)
    #expect(machine.message?.contains("-11800") == true)
    // The user's Resume refills the automatic retry.
    #expect(machine.handle(.userTappedResume) == [.startSession])
    machine.handle(.configured)
    #expect(machine.handle(.runtimeError(error)) == [.startSession])
  }

  @Test func configurationFailuresAreNotRetried() {
    var machine = Machine()
    machine.handle(.start)
    machine.handle(.startFailed(.configuration(reason: "no camera")))
    #expect(machine.state == .failed(.configuration(reason: "no camera")))
    #expect(!machine.offersResume)
    #expect(machine.message?.contains("no camera") == true)
    #expect(machine.handle(.userTappedResume) == [])
    // Interruptions and runtime errors do not hide or restart a session that was never set up.
    machine.handle(.interruptionBegan(.videoDeviceInUseByAnotherClient))
    #expect(machine.handle(.runtimeError(.mediaServicesWereReset)) == [])
    #expect(machine.state == .failed(.configuration(reason: "no camera")))
    // Opening the screen again tries again.
    #expect(machine.handle(.start) == [.startSession])
  }

  @Test func nothingRestartsInTheBackground() {
    var machine = Self.running()
    machine.handle(.enteredBackground)
    machine.handle(.interruptionBegan(.videoDeviceNotAvailableInBackground))
    #expect(machine.handle(.runtimeError(.mediaServicesWereReset)) == [])
    #expect(machine.state == .failed(.mediaServicesWereReset))
    #expect(!machine.offersResume)  // the restart is due, not the user's to ask for
    #expect(machine.handle(.enteredForeground) == [.startSession])
    machine.handle(.configured)
    #expect(machine.state == .running)
    #expect(machine.handle(.enteredForeground) == [])  // nothing left pending
  }

  @Test func eventsForAStoppedSessionAreIgnored() {
    var machine = Machine()
    #expect(machine.handle(.runtimeError(.mediaServicesWereReset)) == [])
    #expect(machine.handle(.interruptionBegan(.videoDeviceInUseByAnotherClient)) == [])
    #expect(machine.handle(.configured) == [])
    #expect(machine.state == .idle)
    machine = Self.running()
    machine.handle(.stop)
    #expect(machine.handle(.runtimeError(.runtime(code: 1, reason: "late"))) == [])
    #expect(machine.handle(.interruptionEnded) == [])
    #expect(machine.state == .stopped)
  }

  /// Whatever arrives, in whatever order: the machine never asks to start a session in the background, never
  /// restarts more than its budget without the user, and never offers Resume while it is running.
  @Test(arguments: 0..<6)
  func randomEventSequences(_ seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let events: [Machine.Event] = [
      .start, .configured, .startFailed(.runtime(code: 0, reason: "did not start")),
      .interruptionBegan(.videoDeviceInUseByAnotherClient),
      .interruptionBegan(.videoDeviceNotAvailableInBackground),
      .interruptionEnded, .runtimeError(.runtime(code: -11800, reason: "x")), .enteredBackground,
      .enteredForeground, .stop,
    ]
    var machine = Machine()
    var automaticRestarts = 0
    for _ in 0..<2000 {
      let event = events.randomElement(using: &random)!
      let wasInBackground = machine.isInBackground
      let effects = machine.handle(event)
      if effects.contains(.startSession) {
        #expect(!machine.isInBackground)
        #expect(machine.state == .configuring)
        if case .runtimeError = event { automaticRestarts += 1 }
        if event == .enteredForeground { #expect(wasInBackground) }
      }
      if event == .start || event == .userTappedResume { automaticRestarts = 0 }
      #expect(automaticRestarts <= 1)
      if machine.state == .running { #expect(!machine.offersResume && machine.canCapture) }
    }
  }
}
