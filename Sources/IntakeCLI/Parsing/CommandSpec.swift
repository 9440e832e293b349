/// A subcommand of `intake`: its name, help, the options and arguments it takes, and what it runs.
///
/// Commands are rows of a table (``CommandTable/all``); the parser and the help text are derived from it.
struct CommandSpec: Sendable {
  var name: String
  /// One line for `intake --help`.
  var abstract: String
  /// More help, shown by `intake NAME --help`.
  var discussion: String = ""
  var options: [OptionSpec] = []
  var arguments: [ArgumentSpec] = []
  var run: @Sendable (ParsedCommand, CommandContext) async -> Int32
}

/// A named option: `--json` (a flag) or `--library DIR` (takes a value).
struct OptionSpec: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    case flag
    /// Takes one value; `valueName` appears in help (`--out PATH`). Repeatable options collect every value.
    case value(valueName: String, repeatable: Bool = false)
  }

  var name: String
  var kind: Kind
  var help: String

  static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, kind: .flag, help: help)
  }

  static func value(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false)
    -> OptionSpec
  {
    OptionSpec(name: name, kind: .value(valueName: valueName, repeatable: repeatable), help: help)
  }

  /// Every command that touches a library takes this.
  static let library = OptionSpec.value(
    "--library", "DIR",
    "The library folder (default: $XDG_DATA_HOME/photointake, else ~/.local/share/photointake).")
  static let json = OptionSpec.flag("--json", "Print JSON for machines instead of text.")
  static let wait = OptionSpec.value(
    "--wait", "SECONDS", "How long to wait for another process writing to the library (default 60).")
}

/// A positional argument.
struct ArgumentSpec: Sendable, Hashable {
  enum Arity: Sendable, Hashable {
    case one, optional, oneOrMore, zeroOrMore
  }

  var name: String
  var arity: Arity
  var help: String
}

/// The result of parsing one command line against a ``CommandSpec``.
struct ParsedCommand: Sendable {
  var flags: Set<String> = []
  var values: [String: [String]] = [:]
  var positionals: [String] = []

  func flag(_ name: String) -> Bool { flags.contains(name) }
  /// The last value given for `name`.
  func value(_ name: String) -> String? { values[name]?.last }
  func allValues(_ name: String) -> [String] { values[name] ?? [] }
}

/// A mistake in the command line, reported with exit code 2.
struct UsageError: Error, CustomStringConvertible, Sendable {
  var description: String
}
