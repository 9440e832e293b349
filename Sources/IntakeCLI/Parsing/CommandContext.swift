import Foundation

/// Where a command writes, and what it knows of its surroundings. Tests give it buffers.
public struct CommandContext: Sendable {
  public var stdout: TextSink
  public var stderr: TextSink
  public var environment: [String: String]
  /// Whether stderr is a terminal: progress bars are drawn only then.
  public var stderrIsTerminal: Bool
  public var currentDirectory: String
  /// Whether the command runs as the process itself, and may take over SIGINT and SIGTERM (an import then
  /// finishes or discards what is in flight and prints its summary). Tests running commands in-process leave
  /// it off.
  public var handlesSignals: Bool

  public init(
    stdout: TextSink, stderr: TextSink, environment: [String: String], stderrIsTerminal: Bool,
    currentDirectory: String, handlesSignals: Bool = false
  ) {
    self.stdout = stdout
    self.stderr = stderr
    self.environment = environment
    self.stderrIsTerminal = stderrIsTerminal
    self.currentDirectory = currentDirectory
    self.handlesSignals = handlesSignals
  }

  /// The process's own standard output and error.
  public static func process() -> CommandContext {
    CommandContext(
      stdout: .standardOutput, stderr: .standardError,
      environment: ProcessInfo.processInfo.environment,
      stderrIsTerminal: isatty(STDERR_FILENO) == 1,
      currentDirectory: FileManager.default.currentDirectoryPath, handlesSignals: true)
  }

  /// An absolute path for `path`, relative to ``currentDirectory``.
  func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    if path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] {
      return home + path.dropFirst()
    }
    return currentDirectory + "/" + path
  }
}

/// A destination for text, line-buffered by its writer.
public struct TextSink: Sendable {
  public let write: @Sendable (String) -> Void

  public init(write: @escaping @Sendable (String) -> Void) { self.write = write }

  public static let standardOutput = TextSink { text in
    FileHandle.standardOutput.write(Data(text.utf8))
  }
  public static let standardError = TextSink { text in
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// Writes one line, its control characters escaped (``Terminal/sanitized(_:)``): a line printed this way stays
  /// one line, whatever a file name or a photo's metadata holds.
  func line(_ text: String) { write(Terminal.sanitized(text) + "\n") }

  /// Writes text of several lines, each sanitized as ``line(_:)`` does (audit findings, simulation reports).
  func lines(_ text: String) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last?.isEmpty == true { lines.removeLast() }
    for line in lines { self.line(String(line)) }
  }
}
