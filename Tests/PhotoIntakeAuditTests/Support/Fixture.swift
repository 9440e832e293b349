import Foundation
import PhotoIntakeTesting
import Testing

/// A fixture case under `Fixtures/<rule-id>/`: a single `<case>.swift.txt` file or a `<case>/` folder
/// (several files, `Info.plist`, `project.pbxproj`). Fixture Swift files end in `.swift.txt` so that
/// neither the compiler nor `swift format` treats them as package sources; they become `.swift` when
/// copied into a test's temporary folder.
///
/// A line expected to produce a finding ends with `// expect: rule-id` (several ids separated by commas),
/// optionally with the severity the finding must have (`// expect: sync-load:error`).
/// Cases named `bad-…` must expect at least one finding of their rule; `ok-…` cases are near misses and
/// expect none.
struct Fixture: CustomTestStringConvertible, Sendable {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").path

  /// `rule-id/case` (the case without `.swift.txt`).
  let name: String
  /// Folder of the rule.
  let rule: String
  /// Files of the case: path inside the case → contents.
  let files: [String: String]

  var testDescription: String { name }
  var isTrigger: Bool { name.split(separator: "/").last?.hasPrefix("bad-") == true }

  /// Every case of every rule, sorted.
  static let all: [Fixture] = {
    let manager = FileManager.default
    var cases: [Fixture] = []
    for rule in ((try? manager.contentsOfDirectory(atPath: root)) ?? []).sorted() {
      let ruleFolder = root + "/" + rule
      for entry in ((try? manager.contentsOfDirectory(atPath: ruleFolder)) ?? []).sorted() {
        let path = ruleFolder + "/" + entry
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
        var files: [String: String] = [:]
        if isDirectory.boolValue {
          for file in manager.enumerator(atPath: path)?.allObjects as? [String] ?? [] {
            if let text = try? String(contentsOfFile: path + "/" + file, encoding: .utf8) {
              files[file.replacingOccurrences(of: ".swift.txt", with: ".swift")] = text
            }
          }
        } else if entry.hasSuffix(".swift.txt"), let text = try? String(contentsOfFile: path, encoding: .utf8)
        {
          files[entry.replacingOccurrences(of: ".swift.txt", with: ".swift")] = text
        } else {
          continue
        }
        let caseName = entry.replacingOccurrences(of: ".swift.txt", with: "")
        cases.append(Fixture(name: "\(rule)/\(caseName)", rule: rule, files: files))
      }
    }
    return cases
  }()

  /// `file:line rule` for every `// expect:` marker.
  var expected: [String] { markers.map(\.place).sorted() }

  /// `file:line rule` → severity, for markers that name one (`// expect: sync-load:warning`).
  var expectedSeverities: [String: String] {
    Dictionary(markers.compactMap { marker in marker.severity.map { (marker.place, $0) } }) { first, _ in
      first
    }
  }

  private var markers: [(place: String, severity: String?)] {
    var markers: [(place: String, severity: String?)] = []
    for (path, text) in files where path.hasSuffix(".swift") {
      for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        guard let range = line.range(of: "// expect: ") else { continue }
        for entry in line[range.upperBound...].split(separator: ",") {
          let parts = entry.trimmingCharacters(in: .whitespaces).split(separator: ":", maxSplits: 1)
          markers.append(("\(path):\(offset + 1) \(parts[0])", parts.count > 1 ? String(parts[1]) : nil))
        }
      }
    }
    return markers
  }

  /// Writes the case into `folder`, passing each Swift file through `transform`.
  func write(to folder: TemporaryDirectory, transform: (String) -> String = { $0 }) throws {
    for (path, text) in files {
      try folder.write(path, path.hasSuffix(".swift") ? transform(text) : text)
    }
  }
}

/// Ways to hide a whole fixture inside non-code: every finding must disappear.
enum Hiding: String, CaseIterable, Sendable {
  case lineComments, blockComment, multilineString, rawMultilineString, stringLiterals

  func apply(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    switch self {
    case .lineComments:
      return lines.map { "// " + $0 }.joined(separator: "\n")
    case .blockComment:
      return "/*\n" + text + "\n*/\n"
    case .multilineString:
      // Backslashes and interpolations would be live in a plain multi-line string: escape them.
      let escaped = text.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "\"\"\"", with: "\\\"\"\"")
      return "let text = \"\"\"\n" + escaped + "\n\"\"\"\n"
    case .rawMultilineString:
      return "let text = ##\"\"\"\n" + text + "\n\"\"\"##\n"
    case .stringLiterals:
      return lines.enumerated().map { "let line\($0.offset) = ##\"\($0.element)\"##" }.joined(separator: "\n")
    }
  }
}
