/// A subcommand of `intake`: its name, help, the options and arguments it takes, and what it runs.
///
/// Commands are rows of a table (``CommandTable/all``); the parser and the help text are derived from it.
struct CommandSpec: Sendable {
  var name: String
  /// One line for `intake --help`.
  var abstract: String
  /// More help, shown by `intake NAME --help`.
  var discussion: String = ""
  var options: [any CommandOption] = []
  var arguments: [ArgumentSpec] = []
  var run: @Sendable (ParsedCommand, CommandContext) async -> Int32
}

/// What an option is, for the parser and the help text: `--json` (a flag) or `--library DIR` (takes a value).
struct OptionSpec: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    case flag
    /// Takes one value; `valueName` appears in help (`--out PATH`). Repeatable options collect every value.
    case value(valueName: String, repeatable: Bool = false)
  }

  var name: String
  var kind: Kind
  var help: String
}

/// An option a command declares in ``CommandSpec/options`` and reads from ``ParsedCommand`` by the same key.
///
/// Keys are static constants (``Flag/json``, ``ValueOption/library``, or a command's own), so a misspelt key does not
/// compile, and a flag cannot be read as a value nor a value as a flag.
protocol CommandOption: Sendable {
  var spec: OptionSpec { get }
}

/// The key of an option that takes no value: `--json`.
struct Flag: CommandOption, Hashable {
  let spec: OptionSpec

  init(_ name: String, _ help: String) {
    spec = OptionSpec(name: name, kind: .flag, help: help)
  }

  static let json = Flag("--json", "Print JSON for machines instead of text.")
}

/// The key of an option that takes a value: `--library DIR`.
struct ValueOption: CommandOption, Hashable {
  let spec: OptionSpec

  init(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false) {
    spec = OptionSpec(name: name, kind: .value(valueName: valueName, repeatable: repeatable), help: help)
  }

  /// Every command that touches a library takes this.
  static let library = ValueOption(
    "--library", "DIR",
    "The library folder (default: $XDG_DATA_HOME/photointake, else ~/.local/share/photointake).")
  static let wait = ValueOption(
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

/// The result of parsing one command line against a ``CommandSpec``, read by the same keys the spec declares.
struct ParsedCommand: Sendable {
  /// The names of the options the command declares: reading another is a programming mistake.
  var declared: Set<String> = []
  var flags: Set<String> = []
  var values: [String: [String]] = [:]
  var positionals: [String] = []

  /// Whether `flag` was given.
  func isSet(_ flag: Flag) -> Bool {
    checkDeclared(flag.spec.name)
    return flags.contains(flag.spec.name)
  }

  /// The last value given for `option`.
  func value(_ option: ValueOption) -> String? {
    checkDeclared(option.spec.name)
    return values[option.spec.name]?.last
  }

  /// Every value given for a repeatable `option`, in order.
  func allValues(_ option: ValueOption) -> [String] {
    checkDeclared(option.spec.name)
    return values[option.spec.name] ?? []
  }

  /// Whether the command declares `option` (code shared by several commands asks before it reads).
  func declares(_ option: some CommandOption) -> Bool { declared.contains(option.spec.name) }

  private func checkDeclared(_ name: String) {
    assert(declared.contains(name), "\(name) is read but not declared in the command's options")
  }
}

/// A mistake in the command line, reported with exit code 2.
struct UsageError: Error, CustomStringConvertible, Sendable {
  var description: String
}
