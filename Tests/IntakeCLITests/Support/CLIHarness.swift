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
}

/// Runs `intake` in-process with captured output, in `directory`, with a controlled environment.
func runIntake(_ arguments: [String], in directory: String, terminal: Bool = false) async -> CLIResult {
  let out = Protected("")
  let err = Protected("")
  let context = CommandContext(
    stdout: TextSink { text in out.withLock { $0 += text } },
    stderr: TextSink { text in err.withLock { $0 += text } },
    environment: ["HOME": directory + "/home"], stderrIsTerminal: terminal, currentDirectory: directory)
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
  if let explicit = ProcessInfo.processInfo.environment["INTAKE_BINARY"] { return explicit }
  // This file is <package>/Tests/IntakeCLITests/Support/CLIHarness.swift.
  var packageRoot = URL(fileURLWithPath: #filePath)
  for _ in 0..<4 { packageRoot.deleteLastPathComponent() }
  return packageRoot.appendingPathComponent(".build/debug/intake").path
}
