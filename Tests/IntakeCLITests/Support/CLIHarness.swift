import Foundation
import IntakeCLI
import PhotoIntake
import PhotoIntakeTesting

/// What one in-process run of `intake` printed.
struct CLIResult: Sendable {
  var status: Int32
  var stdout: String
  var stderr: String

  var stdoutLines: [String] {
    stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
  }

  /// The one JSON object that makes up the whole of stdout; empty when stdout is anything else.
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
  }
}

/// Runs `intake` in-process with captured output, in `directory`, with a controlled environment.
///
/// The environment holds only `HOME` (`directory/home`, so that the default library stays inside the test's
/// folder) and the variables in `environment`, which win over it.
func runIntake(
  _ arguments: [String], in directory: String, environment: [String: String] = [:], terminal: Bool = false
) async -> CLIResult {
  let out = Protected("")
  let err = Protected("")
  let context = CommandContext(
    stdout: TextSink { text in out.withLock { $0 += text } },
    stderr: TextSink { text in err.withLock { $0 += text } },
    environment: ["HOME": directory + "/home"].merging(environment) { $1 }, stderrIsTerminal: terminal,
    currentDirectory: directory)
  let status = await Intake.run(arguments, context: context)
  return CLIResult(status: status, stdout: out.current, stderr: err.current)
}

/// Parses JSON Lines output.
func jsonLines(_ text: String) throws -> [[String: Any]] {
  try text.split(separator: "\n").map { line in
    try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
  }
}

/// The `intake` executable built next to the tests (for tests that need a separate process).
func intakeExecutable() -> String {
  ProcessInfo.processInfo.environment["INTAKE_BINARY"] ?? Repository.path(".build/debug/intake")
}
