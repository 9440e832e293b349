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
    .value("--format", "FORMAT", "Output: text (default, as compilers print), json, or sarif (SARIF 2.1.0)."),
    .value("--rule", "ID", "Run only this rule (repeatable).", repeatable: true),
    .value("--disable", "ID", "Do not run this rule (repeatable).", repeatable: true),
    .value("--fail-on", "SEVERITY", "Exit 1 when a finding is at least: error, warning (default) or note."),
    .flag(
      "--list-rules",
      "Print every rule: its severity, what it reports and deliberately does not, fix and reference."),
  ],
  arguments: [ArgumentSpec(name: "PATH", arity: .optional, help: "The project folder to audit.")],
  run: { parsed, context in AuditCommand.run(parsed, context) })

/// The work behind ``auditCommand``.
enum AuditCommand {
  enum Format: String, CaseIterable {
    case text, json, sarif
  }

  static func run(_ parsed: ParsedCommand, _ context: CommandContext) -> Int32 {
    if parsed.flag("--list-rules") {
      context.stdout.write(TextFormatter.ruleList(Auditor.allRules))
      return 0
    }
    guard let format = Format(rawValue: parsed.value("--format") ?? "text") else {
      return usage("unknown format '\(parsed.value("--format") ?? "")'; use text, json or sarif.", context)
    }
    guard let threshold = Severity(rawValue: parsed.value("--fail-on") ?? "warning") else {
      return usage(
        "unknown severity '\(parsed.value("--fail-on") ?? "")' for --fail-on; use error, warning or note.",
        context)
    }
    let path = parsed.positionals.first ?? "."
    let report: AuditReport
    do {
      let auditor = try Auditor(only: parsed.allValues("--rule"), disabled: parsed.allValues("--disable"))
      report = try auditor.audit(folder: context.absolute(path), displayName: path)
    } catch {
      return usage(error.description, context)
    }
    for skipped in report.skipped {
      context.stderr.line("intake audit: skipped \(skipped.file): \(skipped.reason)")
    }
    switch format {
    case .text:
      context.stdout.write(TextFormatter.format(report))
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
