import Foundation
import Testing

/// The README shows code that is compiled elsewhere; these tests keep the copies identical.
@Suite struct ReadmeTests {
  static let readme = (try? String(contentsOfFile: Repository.root + "/README.md", encoding: .utf8)) ?? ""

  /// The fenced Swift block that starts with `firstLine`.
  static func swiftBlock(startingWith firstLine: String) -> String? {
    guard let start = readme.range(of: "```swift\n" + firstLine) else { return nil }
    let body = readme[readme.index(start.lowerBound, offsetBy: "```swift\n".count)...]
    guard let end = body.range(of: "\n```") else { return nil }
    return String(body[..<end.lowerBound])
  }

  @Test func theIOSQuickStartIsTheTypeCheckedDemoFile() throws {
    let file = try String(
      contentsOfFile: Repository.root + "/Examples/PhotoIntakeDemo/QuickStart.swift", encoding: .utf8)
    // The file's first line is a comment for its readers; the rest is the README's block.
    let code = file.split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
    let block = try #require(Self.swiftBlock(startingWith: "import PhotoIntake\nimport PhotoIntakeUI"))
    #expect(block == code.trimmingCharacters(in: .newlines))
  }
}
