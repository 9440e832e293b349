/// Help text derived from the command table.
enum Help {
  static func overview(_ commands: [CommandSpec]) -> String {
    var text = "intake: import photos into a durable library, and inspect it.\n\n"
    text += "USAGE: intake <command> [options]\n\nCOMMANDS:\n"
    let width = (commands.map(\.name.count).max() ?? 0) + 2
    for spec in commands {
      text += "  " + spec.name.padding(toLength: width, withPad: " ", startingAt: 0) + spec.abstract + "\n"
    }
    text += "\nRun 'intake <command> --help' for a command's options.\n"
    return text
  }

  /// The positional arguments as usage lines and the README's command table write them: `PATH...`, `[PATH]`.
  static func arguments(_ spec: CommandSpec) -> [String] {
    spec.arguments.map { argument in
      switch argument.arity {
      case .one: argument.name
      case .optional: "[\(argument.name)]"
      case .oneOrMore: "\(argument.name)..."
      case .zeroOrMore: "[\(argument.name)...]"
      }
    }
  }

  static func command(_ spec: CommandSpec) -> String {
    var usage = "intake \(spec.name)"
    if !spec.options.isEmpty { usage += " [options]" }
    for argument in arguments(spec) { usage += " \(argument)" }
    var text = "\(spec.abstract)\n\nUSAGE: \(usage)\n"
    if !spec.discussion.isEmpty { text += "\n\(spec.discussion)\n" }
    let rows: [(String, String)] =
      spec.arguments.map { ($0.name, $0.help) }
      + spec.options.map(\.spec).map { option in
        switch option.kind {
        case .flag: (option.name, option.help)
        case .value(let valueName, _): ("\(option.name) \(valueName)", option.help)
        }
      } + [("-h, --help", "Show this help.")]
    let width = (rows.map(\.0.count).max() ?? 0) + 2
    if !spec.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      for row in rows.prefix(spec.arguments.count) {
        text += "  " + row.0.padding(toLength: width, withPad: " ", startingAt: 0) + row.1 + "\n"
      }
    }
    text += "\nOPTIONS:\n"
    for row in rows.dropFirst(spec.arguments.count) {
      text += "  " + row.0.padding(toLength: width, withPad: " ", startingAt: 0) + row.1 + "\n"
    }
    return text
  }
}
