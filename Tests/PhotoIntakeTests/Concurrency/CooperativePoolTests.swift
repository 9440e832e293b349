import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

/// An import never holds Swift's cooperative threads: its copies, fsyncs and commits run on threads of their
/// own, so that the app's other tasks keep running and its queries do not wait behind a commit.
///
/// Each system call is made slow on purpose (hundreds of milliseconds); were that work done on the cooperative
/// pool (one thread per core), a task there would stall for as long.
@Suite(.serialized) struct CooperativePoolTests {
  let folder = TemporaryDirectory()

  func files(_ count: Int) throws -> [any ItemSource] {
    try (0..<count).map { index in
      FileItemSource(path: try folder.write("in/\(index).jpg", Fixture.jpeg(seed: UInt64(index) + 1)))
    }
  }

  /// The longest gap between the ticks of a task sleeping 5 ms at a time on the cooperative pool, while `work`
  /// runs.
  func longestStall(during work: @escaping @Sendable () async -> Void) async -> Duration {
    let done = Protected(false)
    async let probe: Duration = {
      var longest = Duration.zero
      var last = ContinuousClock.now
      while !done.current {
        try? await Task.sleep(for: .milliseconds(5))
        let now = ContinuousClock.now
        longest = max(longest, now - last)
        last = now
      }
      return longest
    }()
    await work()
    done.withLock { $0 = true }
    return await probe
  }

  @Test func slowCopiesAndFsyncsLeaveTheCooperativePoolFree() async throws {
    let sources = try files(6)
    let library = try await Library.open(at: folder.at("library"))
    let slow = FaultInjector(
      [],
      beforeCall: { operation, _ in
        if operation == .read || operation == .fsync { usleep(150_000) }
      })
    var configuration = Importer.Configuration()
    configuration.maximumConcurrentItems = ProcessInfo.processInfo.activeProcessorCount
    let importer = Importer(library: library, configuration: configuration)
    let imported = Protected(0)
    let stall = await longestStall {
      let summary = await Syscalls.injectedFaults.withValue(slow) { await importer.importItems(sources) }
      imported.withLock { $0 = summary.importedCount }
    }
    #expect(imported.current == 6)
    #expect(stall < .milliseconds(120), "a cooperative task stalled for \(stall) during the import")
  }

  @Test func queriesDoNotWaitForACommit() async throws {
    let library = try await Library.open(at: folder.at("library"))
    _ = await Importer(library: library).importItems(try files(1))
    // Every SQLite statement of the import (its commits wait in fsync) takes a quarter of a second: a query
    // answered on the writer's connection or by the library actor would wait for one at least.
    let slow = FaultInjector(
      [],
      beforeCall: { operation, _ in
        if operation == .sqlite { usleep(250_000) }
      })
    let importing = Task {
      await Syscalls.injectedFaults.withValue(slow) {
        await Importer(library: library).importItems([
          BytesSource(bytes: Fixture.jpeg(seed: 99), suggestedName: "slow.jpg")
        ])
      }
    }
    try await Task.sleep(for: .milliseconds(100))
    let started = ContinuousClock.now
    let count = try await library.count()
    let page = try await library.list(limit: 10)
    let waited = ContinuousClock.now - started
    #expect(count == 1)
    #expect(page.assets.count == 1)
    #expect(waited < .milliseconds(150), "a query waited \(waited) for the import's commit")
    _ = await importing.value
  }
}
