import Foundation
import Testing

@testable import IntakeCLI

/// The README's command table and `intake --help` come from different files; these tests keep them saying the
/// same thing. The command table (``CommandTable/all``) is the source: each README row must name a command it
/// has, with the arguments its usage line prints (``Help/arguments(_:)``) and only options the command takes,
/// with a value exactly where the option takes one; and every command and option must be in the README.
@Suite struct ReadmeCommandTableTests {
  /// A row of the README's table: `| \`intake NAME ARGS [--option VALUE]…\` | what it does |`.
  struct Row {
    var command: String
    var arguments: [String] = []
    /// Option name → whether the README shows a value after it.
    var options: [String: Bool] = [:]
    var line: Int
  }

  /// Options the table may leave out, by command ("*": every command), each with the reason. Shrink this list;
  /// never grow it without saying where the README documents the option instead.
  static let notInTable: [String: [String: String]] = [
    "*": ["--library": "the README says above the table that every command takes --library DIR"],
    "audit": [
      "--format": "the audit section's examples", "--rule": "the audit section's examples",
      "--disable": "the audit section's examples", "--fail-on": "the audit section's examples",
      "--list-rules": "the audit section's examples",
    ],
  ]
  /// Commands the table leaves out.
  static let commandsNotInTable: Set = ["version"]

  static func rows() throws -> [Row] {
    let readme = try String(contentsOfFile: Repository.root + "/README.md", encoding: .utf8)
    var rows: [Row] = []
    var inSection = false
    for (index, line) in readme.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.hasPrefix("## ") { inSection = line == "## The command line" }
      guard inSection, line.hasPrefix("| `intake "), let end = line.range(of: "` |") else { continue }
      let synopsis = line[line.index(line.startIndex, offsetBy: 3)..<end.lowerBound]
        .replacingOccurrences(of: "\\|", with: "|")
      let words = synopsis.split(separator: " ").map(String.init)
      var row = Row(command: words[1], line: index + 1)
      var position = 2
      while position < words.count {
        let word = words[position]
        let name = word.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        position += 1
        guard name.hasPrefix("--") else {
          row.arguments.append(word)
          continue
        }
        // `--size N` or `[--order batch|date]`: a value follows unless the option's bracket closes on it.
        let closes = word.hasPrefix("[") && word.hasSuffix("]")
        let next = position < words.count ? words[position] : nil
        let takesValue =
          !closes
          && next.map {
            !$0.hasPrefix("-") && !$0.hasPrefix("[") && ($0.hasSuffix("]") == word.hasPrefix("["))
          }
            ?? false
        row.options[name] = takesValue
        if takesValue { position += 1 }
      }
      rows.append(row)
    }
    return rows
  }

  @Test func theTableListsEveryCommand() throws {
    let rows = try Self.rows()
    #expect(rows.count >= 10, "the README's command table was not found")
    #expect(
      Set(rows.map(\.command)) == Set(CommandTable.all.map(\.name)).subtracting(Self.commandsNotInTable))
    #expect(Set(rows.map(\.command)).count == rows.count, "a command has two rows")
  }

  @Test func eachRowShowsTheCommandsArgumentsAndOptions() throws {
    for row in try Self.rows() {
      let place = "README.md:\(row.line) (intake \(row.command))"
      let spec = try #require(CommandTable.find(row.command), "\(place): no such command")
      #expect(row.arguments == Help.arguments(spec), "\(place): arguments differ from the usage line")
      for (name, showsValue) in row.options {
        let option = try #require(
          spec.options.map(\.spec).first { $0.name == name }, "\(place): \(name) is not an option")
        let takesValue = if case .value = option.kind { true } else { false }
        #expect(showsValue == takesValue, "\(place): \(name) \(takesValue ? "takes" : "takes no") value")
      }
      for option in spec.options.map(\.spec)
      where row.options[option.name] == nil
        && Self.notInTable["*"]?[option.name] == nil && Self.notInTable[row.command]?[option.name] == nil
      {
        Issue.record("\(place): \(option.name) is in `intake \(row.command) --help` but not in the table")
      }
    }
  }
}
