import Foundation

/// Findings as a SARIF 2.1.0 log, the format code-scanning services (GitHub code scanning, Azure DevOps,
/// IDE SARIF viewers) read to show results inline.
///
/// Each rule becomes a `reportingDescriptor` with its message, fix and reference (`helpUri`); each
/// finding a `result` whose location is relative to `%SRCROOT%`, the audited folder. A finding that
/// depends on the thread carries the functions that put it there as `relatedLocations` and as one
/// `codeFlow`, outermost first.
public enum SARIFFormatter {
  /// - Parameter toolVersion: the `intake` version, recorded as the driver's version.
  public static func format(_ report: AuditReport, toolVersion: String) -> String {
    let rules = report.rules
    let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
    let root = report.root.hasSuffix("/") ? report.root : report.root + "/"
    let log = SARIFLog(runs: [
      SARIFLog.Run(
        tool: SARIFLog.Tool(
          driver: SARIFLog.Driver(
            name: "intake audit", version: toolVersion,
            informationUri: "https://developer.apple.com/documentation/photokit",
            rules: rules.map(rule))),
        originalUriBaseIds: ["SRCROOT": SARIFLog.ArtifactLocation(uri: fileURI(root))],
        results: report.findings.map { result($0, ruleIndex: ruleIndex) })
    ])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Encoding strings, integers and nested structs of them cannot fail.
    let data = (try? encoder.encode(log)) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  private static func result(_ finding: Finding, ruleIndex: [String: Int]) -> SARIFLog.Result {
    var result = SARIFLog.Result(
      ruleId: finding.rule, ruleIndex: ruleIndex[finding.rule] ?? 0, level: finding.severity.rawValue,
      message: SARIFLog.Message(text: finding.message),
      locations: [location(finding.pathInRoot, line: finding.line, column: finding.column)])
    guard !finding.contextPath.isEmpty else { return result }
    guard finding.rule == "sync-load" || finding.rule == "session-main-thread" else {
      // Not a thread path: the places that make the finding matter (each list cell calling a helper).
      result.relatedLocations = finding.contextPath.enumerated().map { number, step in
        var location = location(step.pathInRoot, line: step.line, column: step.column)
        location.id = number + 1
        location.message = SARIFLog.Message(
          text: "\(step.reason.prefix(1).uppercased())\(step.reason.dropFirst()), in \(step.function).")
        return location
      }
      return result
    }
    let steps = finding.contextPath.enumerated().map { number, step in
      var location = location(step.pathInRoot, line: step.line, column: step.column)
      location.id = number + 1
      location.message = SARIFLog.Message(
        text: number == 0
          ? "On the main thread: \(step.function) (\(step.reason))."
          : step.reason.isEmpty ? "Calls \(step.function)." : "\(step.function) \(step.reason).")
      return location
    }
    result.relatedLocations = steps
    // The thread flow is the one chain of calls; other call sites are related locations only.
    let chain = steps.prefix { $0.id == 1 || finding.contextPath[($0.id ?? 1) - 1].reason.isEmpty }
    var flow = chain.enumerated().map { SARIFLog.ThreadFlowLocation(location: $1, nestingLevel: $0) }
    var last = result.locations[0]
    last.message = SARIFLog.Message(text: finding.message)
    flow.append(SARIFLog.ThreadFlowLocation(location: last, nestingLevel: chain.count))
    result.codeFlows = [
      SARIFLog.CodeFlow(
        message: SARIFLog.Message(text: "How this code is reached on the main thread."),
        threadFlows: [SARIFLog.ThreadFlow(locations: flow)])
    ]
    return result
  }

  private static func location(_ path: String, line: Int, column: Int) -> SARIFLog.Location {
    SARIFLog.Location(
      physicalLocation: SARIFLog.PhysicalLocation(
        artifactLocation: SARIFLog.ArtifactLocation(uri: uri(path), uriBaseId: "SRCROOT"),
        region: SARIFLog.Region(startLine: line, startColumn: column)))
  }

  private static func rule(_ rule: RuleDescriptor) -> SARIFLog.Rule {
    SARIFLog.Rule(
      id: rule.id, name: camelCase(rule.id), shortDescription: SARIFLog.Message(text: rule.summary),
      fullDescription: SARIFLog.Message(text: rule.fix),
      help: SARIFLog.Message(
        text: "\(rule.fix) See \(rule.reference.title): \(rule.reference.url)",
        markdown: "\(rule.fix)\n\nSee [\(rule.reference.title)](\(rule.reference.url))."),
      helpUri: rule.reference.url, defaultConfiguration: SARIFLog.Configuration(level: rule.severity.rawValue)
    )
  }

  /// SARIF rule names are conventionally PascalCase (`LimitedIgnored`).
  private static func camelCase(_ id: String) -> String {
    id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  /// A path inside the audited folder, percent-encoded as a relative URI reference (RFC 3986 §4.2).
  static func uri(_ relative: String) -> String {
    relative.addingPercentEncoding(withAllowedCharacters: uriPathCharacters) ?? relative
  }

  private static func fileURI(_ path: String) -> String {
    "file://" + (path.addingPercentEncoding(withAllowedCharacters: uriPathCharacters) ?? path)
  }

  private static let uriPathCharacters: CharacterSet = {
    var set = CharacterSet.alphanumerics
    set.insert(charactersIn: "-._~/!$&'()*+,;=:@")
    return set
  }()
}
