import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

/// An import never holds Swift's cooperative threads: its copies, fsyncs and commits run on threads of their
/// own, so that the app's other tasks keep running, and its queries do not wait behind a commit.
///
/// Checked by where the work runs rather than by timing (other suites share the pool while this one runs): a
/// hook in the system-call layer notes the dispatch queue of every read and fsync of an import.
@Suite(.serialized) struct CooperativePoolTests {
  let folder = TemporaryDirectory()

  func files(_ count: Int) throws -> [any ItemSource] {
    try (0..<count).map { index in
      FileItemSource(path: try folder.write("in/\(index).jpg", Fixture.jpeg(seed: UInt64(index) + 1)))
    }
  }

  @Test func copiesAndFsyncsRunOnThreadsOfTheirOwn() async throws {
    let sources = try files(6)
    let library = try await Library.open(at: folder.at("library"))
    let queues = Protected<[String: Int]>([:])
    let hook = FaultInjector(
      [],
      beforeCall: { operation, path in
        guard operation == .read || operation == .fsync, path.contains("/in/") || path.contains("/library/")
        else { return }
        queues.withLock { $0[OwnQueues.current ?? "not ours", default: 0] += 1 }
      })
    let summary = await Syscalls.injectedFaults.withValue(hook) {
      await Importer(library: library).importItems(sources)
    }
    #expect(summary.importedCount == 6)
    let seen = queues.current
    #expect(seen.values.reduce(0, +) >= 12, "reads and fsyncs were seen: \(seen)")
    // None on Swift's cooperative pool (nor on any other thread that is not PhotoIntake's own).
    #expect(seen["not ours"] == nil, "blocking calls on other threads: \(seen)")
  }

  @Test func queriesAnswerWhileTheWriterIsInACommit() async throws {
    let library = try await Library.open(at: folder.at("library"))
    _ = await Importer(library: library).importItems(try files(1))
    // The first SQLite statement of the next import holds the writer for two seconds, as a commit waiting for
    // a slow disk would; a query answered by the library actor or on the writer's connection would wait.
    let inside = Protected(false)
    let once = Protected(false)
    let hook = FaultInjector(
      [],
      beforeCall: { operation, _ in
        guard operation == .sqlite,
          !once.withLock({ done in
            defer { done = true }; return done
          })
        else { return }
        inside.withLock { $0 = true }
        usleep(2_000_000)
        inside.withLock { $0 = false }
      })
    let importing = Task {
      await Syscalls.injectedFaults.withValue(hook) {
        await Importer(library: library).importItems([
          BytesSource(bytes: Fixture.jpeg(seed: 99), suggestedName: "slow.jpg")
        ])
      }
    }
    while !inside.current { try await Task.sleep(for: .milliseconds(5)) }
    let count = try await library.count()
    let page = try await library.list(limit: 10)
    #expect(inside.current, "the query waited for the writer's statement")
    #expect(count == 1)
    #expect(page.assets.count == 1)
    _ = await importing.value
  }
}
