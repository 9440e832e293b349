/// Every subcommand of `intake`, in the order `intake --help` lists them.
///
/// Each row is defined in `Commands/<Name>Command.swift`.
enum CommandTable {
  static let all: [CommandSpec] = [
    importCommand,
    listCommand,
    showCommand,
    exportCommand,
    removeCommand,
    verifyCommand,
    repairCommand,
    metadataCommand,
    simulateCommand,
    thumbnailCommand,
    sheetCommand,
    auditCommand,
    versionCommand,
  ]

  static func find(_ name: String) -> CommandSpec? { all.first { $0.name == name } }
}

let versionCommand = CommandSpec(
  name: "version", abstract: "Print the version of intake.",
  run: { _, context in
    context.stdout.line("intake \(Intake.version)")
    return 0
  })
