import PhotoIntakeTesting
import Testing

@testable import PhotoIntakeAudit

/// `// intake-audit:disable rule-id` silences that rule on its own line and the next one, and nothing else.
struct SuppressionTests {
  static let trigger = "picker.sourceType = .photoLibrary"

  static func findings(_ lines: [String]) throws -> [Finding] {
    let folder = TemporaryDirectory()
    let body = lines.map { "    " + $0 }.joined(separator: "\n")
    try folder.write(
      "Picker.swift",
      "import UIKit\n\nfunc choose() {\n    let picker = UIImagePickerController()\n\(body)\n    present(picker, animated: true)\n}\n"
    )
    return try Auditor().audit(folder: folder.path).findings
  }

  @Test(arguments: [
    ([trigger], 1),
    ([trigger + "  // intake-audit:disable picker-legacy"], 0),
    (["// intake-audit:disable picker-legacy", trigger], 0),
    (["/* intake-audit:disable sync-load, picker-legacy */", trigger], 0),
    (["// intake-audit:disable all", trigger], 0),
    (["// intake-audit:disable picker-legacy", "", trigger], 1),
    ([trigger + "  // intake-audit:disable sync-load"], 1),
    (["// intake-audit: disable picker-legacy", trigger], 1),
    ([#"let note = "// intake-audit:disable picker-legacy""#, trigger], 1),
  ])
  func suppression(_ lines: [String], _ expected: Int) throws {
    #expect(try Self.findings(lines).count == expected)
  }
}
