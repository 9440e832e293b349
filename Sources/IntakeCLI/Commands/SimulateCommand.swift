import Foundation
import PhotoIntake
import PhotoIntakeTesting

let simulateCommand = CommandSpec(
  name: "simulate", abstract: "Run a PhotoKit scenario on the simulator and print its timeline.",
  discussion: """
    Each scenario runs a simulated device (PhotoKit's picker, limited access, iCloud downloads, change
    notifications) against a real library in a temporary folder, on a simulated clock, and prints what happened.
    Where a scenario compares a naive app with PhotoIntake, --json puts the two side by side under "naive" and
    "photoIntake".

    SCENARIOS:
    \(SimulationScenario.allCases.map { "  \($0.rawValue.padding(toLength: 25, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))

    Exit status: 0 when PhotoIntake did what the scenario shows, 1 when it did not, 2 for usage errors, 3 when
    the scenario could not run.
    """,
  options: [Flag.json],
  arguments: [ArgumentSpec(name: "SCENARIO", arity: .one, help: "The scenario to run (see above).")],
  run: { parsed, context in await SimulateRun(parsed: parsed, context: context).run() })

/// One `intake simulate` invocation.
struct SimulateRun {
  var parsed: ParsedCommand
  var context: CommandContext

  func run() async -> Int32 {
    let name = parsed.positionals.first ?? ""
    guard let scenario = SimulationScenario(rawValue: name) else {
      context.stderr.line(
        "intake simulate: unknown scenario '\(name)'. Choose one of: "
          + SimulationScenario.allCases.map(\.rawValue).joined(separator: ", ") + ".")
      return 2
    }
    let base = context.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    var template = ((base.hasSuffix("/") ? base : base + "/") + "intake-simulate-XXXXXX").utf8CString
    guard
      let folder = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({
        String(cString: $0)
      })
    else {
      context.stderr.line(
        "intake simulate: cannot create a temporary folder in \(base). Set TMPDIR to a writable folder.")
      return 3
    }
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let report: ScenarioReport
    do {
      report = try await scenario.run(in: folder)
    } catch {
      context.stderr.line("intake simulate: the scenario could not run: \(error)")
      return 3
    }
    if parsed.isSet(Flag.json) {
      context.stdout.line(JSON.object(Self.jsonFields(report)))
    } else {
      context.stdout.lines(Self.text(report))
    }
    return report.succeeded ? 0 : 1
  }

  static func jsonFields(_ report: ScenarioReport) -> [(String, JSON)] {
    var fields: [(String, JSON)] = [
      ("scenario", .string(report.scenario.rawValue)), ("succeeded", .bool(report.succeeded)),
    ]
    if case .object(let outcome) = report.outcome {
      fields += outcome.map { ($0.key, json($0.value)) }
    }
    fields.append(
      (
        "timeline",
        .array(
          report.timeline.map { entry in
            .object([
              ("time", .string(entry.time.description)), ("actor", .string(entry.actor)),
              ("text", .string(entry.text)),
            ])
          })
      ))
    return fields
  }

  static func json(_ value: ScenarioValue) -> JSON {
    switch value {
    case .string(let text): .string(text)
    case .int(let number): .int(number)
    case .bool(let flag): .bool(flag)
    case .array(let values): .array(values.map(json))
    case .object(let fields): .object(fields.map { ($0.key, json($0.value)) })
    }
  }

  static func text(_ report: ScenarioReport) -> String {
    var text = "\(report.scenario.rawValue): \(report.scenario.summary)\n\n"
    let width = (report.timeline.map(\.actor.count).max() ?? 0) + 2
    let timeWidth = report.timeline.map(\.time.description.count).max() ?? 0
    for entry in report.timeline {
      let time = entry.time.description
      text +=
        "  " + String(repeating: " ", count: timeWidth - time.count) + time + "  "
        + entry.actor.padding(toLength: width, withPad: " ", startingAt: 0) + entry.text + "\n"
    }
    text += "\noutcome:\n"
    text += lines(report.outcome, indent: "  ")
    text += report.succeeded ? "\nPhotoIntake: as expected.\n" : "\nPhotoIntake: NOT as expected.\n"
    return text
  }

  /// An outcome as indented `key: value` lines; arrays of plain values on one line.
  static func lines(_ value: ScenarioValue, indent: String) -> String {
    guard case .object(let fields) = value else { return indent + scalar(value) + "\n" }
    var text = ""
    for field in fields {
      switch field.value {
      case .object:
        text += "\(indent)\(field.key):\n" + lines(field.value, indent: indent + "  ")
      case .array(let values) where values.contains(where: { if case .object = $0 { true } else { false } }):
        text += "\(indent)\(field.key):\n"
        for element in values {
          let body = lines(element, indent: indent + "    ")
          text += indent + "  - " + body.dropFirst(indent.count + 4)
        }
      default:
        text += "\(indent)\(field.key): \(scalar(field.value))\n"
      }
    }
    return text
  }

  static func scalar(_ value: ScenarioValue) -> String {
    switch value {
    case .string(let text): text
    case .int(let number): String(number)
    case .bool(let flag): flag ? "yes" : "no"
    case .array(let values): values.isEmpty ? "(none)" : values.map(scalar).joined(separator: ", ")
    case .object: "…"
    }
  }
}
