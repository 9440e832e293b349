import PhotoIntake

/// The `intake` command line: dispatches to the subcommands of ``CommandTable``.
///
/// Exit codes: 0 success; 1 the command ran and found problems (failed imports, damage, audit findings);
/// 2 usage errors; 3 the command could not run at all (e.g. the library could not be opened).
public enum Intake {
  public static func main(_ arguments: [String]) async -> Int32 {
    ProcessTuning.limitMallocArenas()
    return await run(arguments, context: .process())
  }

  public static func run(_ arguments: [String], context: CommandContext) async -> Int32 {
    guard let first = arguments.first else {
      // No command at all is a usage error (exit 2), with the overview where it is seen.
      context.stderr.write(Help.overview(CommandTable.all))
      return 2
    }
    guard !["--help", "-h", "help"].contains(first) else {
      if arguments.count >= 2, let spec = CommandTable.find(arguments[1]) {
        context.stdout.write(Help.command(spec))
      } else {
        context.stdout.write(Help.overview(CommandTable.all))
      }
      return 0
    }
    if first == "--version" {
      context.stdout.line("intake \(version)")
      return 0
    }
    guard let spec = CommandTable.find(first) else {
      context.stderr.line("intake: unknown command '\(first)'. Run 'intake --help' for the list.")
      return 2
    }
    let rest = Array(arguments.dropFirst())
    if ArgumentParser.asksForHelp(rest) {
      context.stdout.write(Help.command(spec))
      return 0
    }
    do {
      let parsed = try ArgumentParser.parse(rest, for: spec)
      return await spec.run(parsed, context)
    } catch {
      context.stderr.line("intake \(spec.name): \(error.description)")
      context.stderr.line("Run 'intake \(spec.name) --help' for usage.")
      return 2
    }
  }

  public static let version = "0.1.0"
}
