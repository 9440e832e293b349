import PhotoIntakeTesting
import Testing

@testable import PhotoIntakeAudit

/// Every fixture case is audited in its own temporary folder, and its findings must be exactly the
/// `// expect:` markers: no fewer (the rule fires on `bad-…` cases) and no more (near misses and other
/// rules stay quiet).
struct RuleFixtureTests {
  static func audit(_ fixture: Fixture, hiding: Hiding? = nil) async throws -> [Finding] {
    try await offThePool {
      let folder = TemporaryDirectory()
      try fixture.write(to: folder) { hiding?.apply($0) ?? $0 }
      return try Auditor().audit(folder: folder.path).findings
    }
  }

  @Test(arguments: Fixture.all)
  func findingsMatchMarkers(_ fixture: Fixture) async throws {
    let findings = try await Self.audit(fixture)
    let actual = findings.map { "\($0.pathInRoot):\($0.line) \($0.rule)" }.sorted()
    #expect(
      actual == fixture.expected,
      "\(findings.map { "\($0.pathInRoot):\($0.line):\($0.column) \($0.message)" })")
    for (place, severity) in fixture.expectedSeverities {
      let found = findings.first { "\($0.pathInRoot):\($0.line) \($0.rule)" == place }
      #expect(found?.severity.rawValue == severity, "\(place)")
    }
    if fixture.isTrigger {
      #expect(
        fixture.expected.contains { $0.hasSuffix(" \(fixture.rule)") }, "a bad- case must expect its rule")
    } else {
      #expect(
        !fixture.expected.contains { $0.hasSuffix(" \(fixture.rule)") },
        "an ok- case must not expect its rule")
    }
  }

  /// The same trigger text inside comments, string literals and multi-line strings must not fire.
  @Test(arguments: Fixture.all.filter(\.isTrigger), Hiding.allCases)
  func hiddenTriggersAreSilent(_ fixture: Fixture, _ hiding: Hiding) async throws {
    let findings = try await Self.audit(fixture, hiding: hiding)
    #expect(findings.isEmpty, "\(findings.map { "\($0.pathInRoot):\($0.line) \($0.rule)" })")
  }

  /// Each rule has fixtures that must trigger it and near misses that must not.
  @Test(arguments: Auditor.allRules.map(\.id))
  func everyRuleHasTriggersAndNearMisses(_ rule: String) {
    let cases = Fixture.all.filter { $0.rule == rule }
    #expect(cases.contains { $0.isTrigger }, "no bad- fixture for \(rule)")
    #expect(cases.contains { !$0.isTrigger }, "no ok- fixture for \(rule)")
  }
}
