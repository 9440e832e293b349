/// Findings as compilers print diagnostics, one per line, so editors and CI logs link them:
/// `path:line:col: warning: message [rule-id]`. A finding that depends on the thread is followed by a
/// `note:` line for each function on the way to it, outermost first, as compilers print notes.
public enum TextFormatter {
  /// The report's findings, one line each.
  public static func format(_ report: AuditReport) -> String {
    var text = ""
    for finding in report.findings {
      text +=
        "\(finding.file):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message) [\(finding.rule)]\n"
      // Thread rules' paths run from where the main thread starts to the call; other rules list the
      // places that make the finding matter (each list cell that calls a decoding helper).
      let threadPath = finding.rule == "sync-load" || finding.rule == "session-main-thread"
      for (number, step) in finding.contextPath.enumerated() {
        let note =
          !threadPath
          ? "\(step.reason), in \(step.function)"
          : number == 0
            ? "on the main thread: \(step.function) (\(step.reason))"
            : step.reason.isEmpty ? "calls \(step.function)" : "\(step.function) \(step.reason)"
        text += "\(step.file):\(step.line):\(step.column): note: \(note)\n"
      }
    }
    return text
  }

  /// One line summing up, for standard error: `intake audit: 3 findings (1 error, 2 warnings) in 12 Swift files.`
  public static func summary(_ report: AuditReport) -> String {
    let count = report.findings.count
    var parts: [String] = []
    for severity in Severity.allCases.reversed() {
      let n = report.findings.filter { $0.severity == severity }.count
      if n > 0 { parts.append("\(n) \(severity.rawValue)\(n == 1 ? "" : "s")") }
    }
    let files = "\(report.swiftFiles) Swift file\(report.swiftFiles == 1 ? "" : "s")"
    if count == 0 { return "intake audit: no findings in \(files)." }
    return
      "intake audit: \(count) finding\(count == 1 ? "" : "s") (\(parts.joined(separator: ", "))) in \(files)."
  }

  /// The rule catalog for `--list-rules`: id, severity, what it reports, what it deliberately does not,
  /// fix and reference for each rule.
  public static func ruleList(_ rules: [RuleDescriptor]) -> String {
    var text = ""
    for rule in rules {
      text += "\(rule.id) (\(rule.severity.rawValue))\n"
      text += "  Reports: \(rule.reports)\n"
      text += "  Leaves alone: \(rule.leavesAlone)\n"
      text += "  Fix: \(rule.fix)\n"
      text += "  See: \(rule.reference.title) <\(rule.reference.url)>\n\n"
    }
    return text
  }
}
