import PhotoIntake

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the library is: `--library DIR`, else the embedded default under the XDG data folder.
enum LibraryLocation {
  static func path(_ parsed: ParsedCommand, _ context: CommandContext) -> String {
    if let explicit = parsed.value(ValueOption.library) { return context.absolute(explicit) }
    if let data = context.environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return data + "/photointake"
    }
    let home = context.environment["HOME"] ?? "/tmp"
    return home + "/.local/share/photointake"
  }

  /// Opens the library, reporting a failure on stderr (exit code 3).
  ///
  /// Only commands that write (`import`, `repair`) create a library; the others refuse a path where there is
  /// none, so that a mistyped `--library` is not a new, empty library. A write waits `--wait` seconds for
  /// another process's write, saying so once.
  ///
  /// Commands that only read pass `readOnly` (``Library/Configuration/readOnly``): they open no connection that
  /// writes, so they work on a full disk too. With `readOnlyIfFull`, a command that writes only as a side
  /// effect (`verify`'s damage marks) opens for reading when the disk is too full to open otherwise.
  static func open(
    _ parsed: ParsedCommand, _ context: CommandContext, create: Bool = false, readOnly: Bool = false,
    readOnlyIfFull: Bool = false
  ) async -> Library? {
    let path = path(parsed, context)
    guard var configuration = configuration(parsed, context, create: create) else { return nil }
    configuration.readOnly = readOnly
    do {
      if create { try makeParents(of: path) }
      do {
        return try await Library.open(at: path, configuration: configuration)
      } catch .diskFull where readOnlyIfFull {
        configuration.readOnly = true
        return try await Library.open(at: path, configuration: configuration)
      }
    } catch {
      report(error, at: path, context)
      return nil
    }
  }

  /// The library configuration the options ask for; nil (after a message) when `--wait` is not a number.
  static func configuration(_ parsed: ParsedCommand, _ context: CommandContext, create: Bool)
    -> Library.Configuration?
  {
    var configuration = Library.Configuration()
    configuration.createIfNeeded = create
    // Readers (list, show, …) take no --wait: they never wait for a writer.
    if parsed.declares(ValueOption.wait), let text = parsed.value(ValueOption.wait) {
      guard let seconds = Double(text), seconds >= 0 else {
        context.stderr.line("intake: --wait needs a number of seconds.")
        return nil
      }
      configuration.writerWait = .milliseconds(Int64(seconds * 1000))
    }
    let stderr = context.stderr
    configuration.onWaitingForWriter = {
      stderr.line("intake: waiting for another process writing to the library…")
    }
    return configuration
  }

  /// Prints why the library could not be opened, with what to run next.
  static func report(_ error: Library.Error, at path: String, _ context: CommandContext) {
    let shown = Terminal.escaped(path)
    switch error {
    case .notALibrary:
      context.stderr.line(
        "intake: no PhotoIntake library at \(shown). Check --library, or import to create one.")
    case _ where error.isMendedByRepair:
      context.stderr.line("intake: \(error.description)")
      context.stderr.line("Run 'intake repair --library \(shown)' to repair it.")
    case .busy:
      context.stderr.line("intake: \(error.description) (waited; see --wait)")
    default:
      context.stderr.line("intake: \(error.description)")
    }
  }

  /// Prints why `command` failed on an open library; when repairing the library is what mends it (a damaged
  /// manifest), names `intake repair` too.
  static func reportFailure(_ error: any Error, command: String, at path: String, _ context: CommandContext) {
    context.stderr.line("intake \(command): \(error)")
    if let error = error as? Library.Error, error.isMendedByRepair {
      context.stderr.line("Run 'intake repair --library \(Terminal.escaped(path))' to repair it.")
    }
  }

  /// Creates the parent folders of the default library (`~/.local/share`), as `mkdir -p` would.
  private static func makeParents(of path: String) throws(Library.Error) {
    var current = ""
    for component in path.split(separator: "/").dropLast() {
      current += "/" + component
      if mkdir(current, 0o755) != 0 && errno != EEXIST {
        throw .cannotOpen(reason: "cannot create \(current)")
      }
    }
  }
}
