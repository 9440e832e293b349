import Foundation
import Testing

@testable import PhotoIntakeAudit

/// The README's rule table and `intake audit --list-rules` come from different places; they must say the
/// same thing: the same rules in the same order, with the same severity and the same sentence on what
/// each rule deliberately does not report.
struct RuleTableTests {
  /// `(id, severity, leaves alone)` for each row of the README's audit table.
  static func readmeRows() throws -> [[String]] {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let after = try #require(text.components(separatedBy: "## `intake audit`").dropFirst().first)
    let section = after.components(separatedBy: "\n## ")[0]
    return section.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
      let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
      guard cells.count == 5 else { return [String(line)] }
      return [cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[1], cells[3]]
    }
  }

  @Test func readmeTableMatchesTheRuleList() throws {
    let rows = try Self.readmeRows()
    let rules = Auditor.allRules.map { [$0.id, $0.severity.rawValue, $0.leavesAlone] }
    #expect(rows == rules)
  }

  @Test func ruleListSaysWhatEachRuleReportsAndLeavesAlone() {
    let list = TextFormatter.ruleList(Auditor.allRules)
    for rule in Auditor.allRules {
      #expect(list.contains("\(rule.id) (\(rule.severity.rawValue))\n  Reports: \(rule.reports)\n"))
      #expect(!rule.reports.isEmpty && rule.reports.hasSuffix("."))
      #expect(list.contains("  Leaves alone: \(rule.leavesAlone)\n"))
      #expect(!rule.leavesAlone.isEmpty && rule.leavesAlone.hasSuffix("."))
    }
  }
}
