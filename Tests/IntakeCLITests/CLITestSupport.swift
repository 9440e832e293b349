import Foundation
import PhotoIntake

@testable import IntakeCLI

/// Runs `intake` in-process with captured output.
struct CLIRun {
  var status: Int32
  var stdout: String
  var stderr: String

  static func run(_ arguments: [String], in directory: String) async -> CLIRun {
    let out = Protected(""), err = Protected("")
    let context = CommandContext(
      stdout: TextSink { text in out.withLock { $0 += text } },
      stderr: TextSink { text in err.withLock { $0 += text } },
      environment: ["HOME": directory], stderrIsTerminal: false, currentDirectory: directory)
    let status = await Intake.run(arguments, context: context)
    return CLIRun(status: status, stdout: out.current, stderr: err.current)
  }
}

/// The imaging fixtures (made by `Scripts/make-imaging-fixtures.sh`).
enum ImagingFixture {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("PhotoIntakeTests/Fixtures/Imaging").path

  static func path(_ name: String) -> String { folder + "/" + name }
}

/// A fresh folder for one test, removed when the value goes away.
final class ScratchDirectory: Sendable {
  let path: String

  init() {
    var template = Array((NSTemporaryDirectory() + "/intake-cli-XXXXXX").utf8CString)
    path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func file(_ name: String) -> String { path + "/" + name }
}
