import PhotoIntake
import PhotoIntakeTesting
import Testing

// A broken simulator or scenario would wait forever for a prompt, a change or a download: fail instead.
@Suite(.timeLimit(.minutes(1)))
struct ScenarioTests {
  @Test(arguments: SimulationScenario.allCases)
  func everyScenarioSucceedsWithATimeline(_ scenario: SimulationScenario) async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let report = try await scenario.run(in: directory.path)
    #expect(report.succeeded)
    #expect(report.timeline.count >= 5)
    #expect(report.timeline.map(\.time) == report.timeline.map(\.time).sorted())
    #expect(report.outcome["photoIntake"] != nil)
  }

  @Test(arguments: SimulationScenario.allCases)
  func scenariosRepeatExactly(_ scenario: SimulationScenario) async throws {
    let (one, two) = (TemporaryDirectory(inMemory: true), TemporaryDirectory(inMemory: true))
    let first = try await scenario.run(in: one.path)
    let second = try await scenario.run(in: two.path)
    #expect(first.outcome == second.outcome)
    #expect(first.timeline == second.timeline)
  }
}

struct SimulatedClockTests {
  @Test func sleepsAdvanceTimeWithoutWaiting() async throws {
    let clock = SimulatedClock()
    let started = ContinuousClock.now
    try await clock.sleep(for: .seconds(3600))
    #expect(clock.now.offset == .seconds(3600))
    // A real wait would take an hour; a loaded machine may still take a while to schedule the test (143 s was
    // seen with two cores shared by several builds).
    #expect(ContinuousClock.now - started < .seconds(900))
    #expect(clock.now.description == "+3600.000s")
  }

  @Test func sleepersUntilTheSameDeadlineOverlap() async throws {
    let clock = SimulatedClock()
    let deadline = clock.now.advanced(by: .milliseconds(100))
    async let one: Void = clock.sleep(until: deadline, tolerance: nil)
    async let two: Void = clock.sleep(until: deadline, tolerance: nil)
    _ = try await (one, two)
    #expect(clock.now.offset == .milliseconds(100))
    // An earlier deadline never moves time back.
    try await clock.sleep(until: SimulatedClock.Instant(offset: .milliseconds(50)), tolerance: nil)
    #expect(clock.now.offset == .milliseconds(100))
  }

  @Test func cancelledSleepsThrow() async {
    let clock = SimulatedClock()
    let task = Task { try await clock.sleep(for: .seconds(1)) }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}
