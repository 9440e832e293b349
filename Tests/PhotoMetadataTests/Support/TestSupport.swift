import Foundation
import PhotoIntakeTesting
import Testing

/// Fixture files and the external oracles (exiftool, vips, ffmpeg) the tests use.
enum TestSupport {
  static let fixtures: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func fixture(_ name: String) -> URL { fixtures.appendingPathComponent(name) }

  static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: fixture(name))) }

  /// Every committed fixture file, sorted by name.
  static var fixtureNames: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []).filter {
      !$0.hasPrefix(".")
    }
    .sorted()
  }

  struct ToolMissing: Error, CustomStringConvertible {
    var tool: String
    var description: String {
      "\(tool) is not installed: run Scripts/install-deps.sh --test (the oracle tests never skip)."
    }
  }

  /// Runs a tool and returns its standard output; throws when it cannot start (missing tool).
  @discardableResult
  static func run(_ tool: String, _ arguments: [String]) throws -> (
    status: Int32, output: Data, error: String
  ) {
    guard let path = which(tool) else { throw ToolMissing(tool: tool) }
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // stderr is drained on another thread while stdout is read here: a tool that fills one pipe while we
    // wait on the other would otherwise never finish.
    let errorData = Protected(Data())
    let drained = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let data = err.fileHandleForReading.readDataToEndOfFile()
      errorData.withLock { $0 = data }
      drained.signal()
    }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    drained.wait()
    process.waitUntilExit()
    return (process.terminationStatus, data, String(decoding: errorData.current, as: UTF8.self))
  }

  static func which(_ tool: String) -> String? {
    for dir in ["/usr/bin", "/usr/local/bin", "/bin"]
    where FileManager.default.isExecutableFile(atPath: dir + "/" + tool) {
      return dir + "/" + tool
    }
    return nil
  }

  /// `exiftool -n -json -G` for files, one dictionary per file, keyed by "Group:Tag".
  static func exiftool(_ paths: [String], extra: [String] = []) throws -> [[String: Any]] {
    let result = try run("exiftool", ["-n", "-json", "-G", "-api", "LargeFileSupport=1"] + extra + paths)
    let json = try JSONSerialization.jsonObject(with: result.output)
    return json as? [[String: Any]] ?? []
  }
}
