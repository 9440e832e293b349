import Foundation

/// Findings as a JSON array of `{rule, severity, file, line, column, message}` objects, keys sorted so the
/// output is stable.
public enum JSONFormatter {
  /// The report's findings as a JSON array of `{rule, severity, file, line, column, message}`.
  public static func format(_ report: AuditReport) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Encoding plain strings and integers cannot fail.
    let data = (try? encoder.encode(report.findings)) ?? Data("[]".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
