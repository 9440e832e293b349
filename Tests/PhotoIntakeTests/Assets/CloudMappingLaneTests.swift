import Testing

@testable import PhotoIntake

/// PhotoKit's identifier mappings block; `BlockingCloudIdentifierResolver` must run them on PhotoIntake's own
/// threads, never on Swift's cooperative pool. Checked by where they run, not by timing.
@Suite struct CloudMappingLaneTests {
  @Test func mappingsRunOnThreadsOfTheirOwn() async {
    let seen = Protected<[String?]>([])
    let resolver = BlockingCloudIdentifierResolver(
      cloud: { identifiers in
        seen.withLock { $0.append(OwnQueues.current) }
        return Dictionary(uniqueKeysWithValues: identifiers.map { ($0, .notFound) })
      },
      local: { identifiers in
        seen.withLock { $0.append(OwnQueues.current) }
        return Dictionary(uniqueKeysWithValues: identifiers.map { ($0, .found("L-" + $0.rawValue)) })
      })
    let cloud = await resolver.cloudIdentifierMappings(forLocalIdentifiers: ["a", "b"])
    let local = await resolver.localIdentifierMappings(for: [CloudIdentifier(rawValue: "c")])
    #expect(cloud["a"] == .notFound)
    #expect(local[CloudIdentifier(rawValue: "c")] == .found("L-c"))
    let queues = seen.current
    #expect(queues.count == 2)
    // nil: the closure ran on a thread that is not PhotoIntake's (the cooperative pool's).
    #expect(queues.allSatisfy { $0 != nil }, "\(queues)")
  }
}
