/// Parses arguments against a ``CommandSpec``: options anywhere, `--name=value` or `--name value`, `--`
/// ends options, and arity checked for positionals.
///
/// A value option never takes an option as its value: `--library --json` is a usage error (the user forgot the
/// folder), not a library named `--json`. A value that starts with `-` is given as `--library=-odd`.
enum ArgumentParser {
  static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedCommand {
    let options = spec.options.map(\.spec)
    var parsed = ParsedCommand(declared: Set(options.map(\.name)))
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
        if !onlyPositionals, argument.hasPrefix("-"), argument != "-", argument.count > 1 {
          throw UsageError(description: "unknown option '\(argument)' for 'intake \(spec.name)'.")
        }
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let option = options.first(where: { $0.name == name }) else {
        throw UsageError(description: "unknown option '\(name)' for 'intake \(spec.name)'.")
      }
      switch option.kind {
      case .flag:
        if inlineValue != nil {
          throw UsageError(description: "option '\(name)' takes no value.")
        }
        parsed.flags.insert(name)
      case .value(let valueName, let repeatable):
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < arguments.count, !looksLikeOption(arguments[index]) {
          value = arguments[index]
          index += 1
        } else if index < arguments.count {
          throw UsageError(
            description:
              "option '\(name)' needs a value (\(valueName)), but '\(arguments[index])' is an option; "
              + "write \(name)=VALUE for a value that starts with '-'.")
        } else {
          throw UsageError(description: "option '\(name)' needs a value (\(valueName)).")
        }
        if !repeatable, parsed.values[name] != nil {
          throw UsageError(description: "option '\(name)' was given more than once.")
        }
        parsed.values[name, default: []].append(value)
      }
    }
    try checkArity(parsed.positionals.count, spec)
    return parsed
  }

  /// Whether an argument is an option rather than a value: `--json`, `-h`, but not `-` (standard input) or a
  /// negative number.
  static func looksLikeOption(_ argument: String) -> Bool {
    argument.hasPrefix("-") && argument.count > 1 && Double(argument) == nil
  }

  /// Whether the user asked for help: `-h` or `--help` before any `--` (after it, they are file names).
  static func asksForHelp(_ arguments: [String]) -> Bool {
    for argument in arguments {
      if argument == "--" { return false }
      if argument == "-h" || argument == "--help" { return true }
    }
    return false
  }

  private static func checkArity(_ count: Int, _ spec: CommandSpec) throws(UsageError) {
    var minimum = 0
    var maximum: Int? = 0
    for argument in spec.arguments {
      switch argument.arity {
      case .one:
        minimum += 1
        maximum = maximum.map { $0 + 1 }
      case .optional:
        maximum = maximum.map { $0 + 1 }
      case .oneOrMore:
        minimum += 1
        maximum = nil
      case .zeroOrMore:
        maximum = nil
      }
    }
    if count < minimum {
      let missing = spec.arguments.map(\.name).joined(separator: " ")
      throw UsageError(description: "'intake \(spec.name)' needs \(missing).")
    }
    if let maximum, count > maximum {
      throw UsageError(description: "'intake \(spec.name)' takes at most \(maximum) argument(s).")
    }
  }
}
