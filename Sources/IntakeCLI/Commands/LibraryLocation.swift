import PhotoIntake

/// Where the library is: `--library DIR`, else the embedded default under the XDG data folder.
enum LibraryLocation {
  static func path(_ parsed: ParsedCommand, _ context: CommandContext) -> String {
    if let explicit = parsed.value("--library") { return context.absolute(explicit) }
    if let data = context.environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return data + "/photointake"
    }
    let home = context.environment["HOME"] ?? "/tmp"
    return home + "/.local/share/photointake"
  }

  /// Opens the library, reporting a failure on stderr (exit code 3).
  static func open(_ parsed: ParsedCommand, _ context: CommandContext) async -> Library? {
    let path = path(parsed, context)
    do {
      try makeParents(of: path)
      let library = try await Library.open(at: path)
      let recovery = library.recovery
      let damaged = recovery.missingObjects.count + recovery.alteredObjects.count
      if recovery.removedStagingFiles + recovery.removedOrphanObjects + damaged > 0 {
        context.stderr.line(
          "intake: recovered the library: removed \(recovery.removedStagingFiles) interrupted staging file(s) "
            + "and \(recovery.removedOrphanObjects) unreferenced object(s); "
            + "\(damaged) asset(s) have missing or altered bytes (see 'intake verify').")
      }
      return library
    } catch {
      context.stderr.line("intake: \(error.description)")
      return nil
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
