import PhotoIntakeAudit

/// `intake audit [PATH]`: runs ``PhotoIntakeAudit/Auditor`` over a project folder and prints findings as
/// compiler-style text, JSON or SARIF.
///
/// Exit codes: 0 when no finding reaches `--fail-on` (default `warning`), 1 when one does, 2 for usage
/// mistakes (unknown rule or format, a path that is not a folder).
let auditCommand = CommandSpec(
  name: "audit", abstract: "Find the classic PhotoKit mistakes in an iOS project.",
  discussion: """
    Reads every .swift file, Info.plist and INFOPLIST_KEY_ build setting under PATH (default: the current
    folder), skipping .build, Pods, Carthage, DerivedData and .git. Silence a finding with
    '// intake-audit:disable RULE-ID' on its line or the line before. 'intake audit --list-rules' explains
    every rule.
    """,
  options: [
    AuditOption.format,
    AuditOption.rule,
    AuditOption.disable,
    AuditOption.failOn,
    AuditOption.listRules,
  ],
  arguments: [ArgumentSpec(name: "PATH", arity: .optional, help: "The project folder to audit.")],
  run: { parsed, context in AuditCommand.run(parsed, context) })

/// The work behind ``auditCommand``.
enum AuditCommand {
  enum Format: String, CaseIterable {
    case text, json, sarif
  }

  static func run(_ parsed: ParsedCommand, _ context: CommandContext) -> Int32 {
    if parsed.isSet(AuditOption.listRules) {
      context.stdout.write(TextFormatter.ruleList(Auditor.allRules))
      return 0
    }
    guard let format = Format(rawValue: parsed.value(AuditOption.format) ?? "text") else {
      return usage(
        "unknown format '\(parsed.value(AuditOption.format) ?? "")'; use text, json or sarif.", context)
    }
    guard let threshold = Severity(rawValue: parsed.value(AuditOption.failOn) ?? "warning") else {
      return usage(
        "unknown severity '\(parsed.value(AuditOption.failOn) ?? "")' for --fail-on; use error, warning or note.",
        context)
    }
    let path = parsed.positionals.first ?? "."
    let report: AuditReport
    do {
      let auditor = try Auditor(
        only: parsed.allValues(AuditOption.rule), disabled: parsed.allValues(AuditOption.disable))
      report = try auditor.audit(folder: context.absolute(path), displayName: path)
    } catch {
      return usage(error.description, context)
    }
    for skipped in report.skipped {
      context.stderr.line("intake audit: skipped \(skipped.file): \(skipped.reason)")
    }
    switch format {
    case .text:
      context.stdout.lines(TextFormatter.format(report))
      context.stderr.line(TextFormatter.summary(report))
    case .json:
      context.stdout.write(JSONFormatter.format(report))
    case .sarif:
      context.stdout.write(SARIFFormatter.format(report, toolVersion: Intake.version))
    }
    return report.hasFindings(atLeast: threshold) ? 1 : 0
  }

  private static func usage(_ message: String, _ context: CommandContext) -> Int32 {
    context.stderr.line("intake audit: \(message)")
    context.stderr.line("Run 'intake audit --help' for usage.")
    return 2
  }
}

/// The options of `intake audit`, as typed keys.
enum AuditOption {
  static let format = ValueOption(
    "--format", "FORMAT", "Output: text (default, as compilers print), json, or sarif (SARIF 2.1.0).")
  static let rule = ValueOption("--rule", "ID", "Run only this rule (repeatable).", repeatable: true)
  static let disable = ValueOption("--disable", "ID", "Do not run this rule (repeatable).", repeatable: true)
  static let failOn = ValueOption(
    "--fail-on", "SEVERITY", "Exit 1 when a finding is at least: error, warning (default) or note.")
  static let listRules = Flag(
    "--list-rules",
    "Print every rule: its severity, what it reports and deliberately does not, fix and reference.")
}
