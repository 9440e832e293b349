import Foundation
import PhotoIntakeTesting
import Testing

@testable import IntakeCLI

struct ArgumentParserTests {
  static let size = ValueOption("--size", "N", "Size.", repeatable: true)
  static let out = ValueOption("--out", "PATH", "Where.")
  let spec = CommandSpec(
    name: "demo", abstract: "A demo.",
    options: [Flag.json, ValueOption.library, Self.size, Self.out],
    arguments: [ArgumentSpec(name: "PATH", arity: .oneOrMore, help: "Paths.")],
    run: { _, _ in 0 })

  @Test func parsesFlagsValuesAndPositionals() throws {
    let parsed = try ArgumentParser.parse(
      ["a", "--json", "--library", "/lib", "b", "--size=3", "--size", "4", "--", "--c"], for: spec)
    #expect(parsed.isSet(Flag.json))
    #expect(parsed.value(ValueOption.library) == "/lib")
    #expect(parsed.allValues(Self.size) == ["3", "4"])
    #expect(parsed.value(Self.out) == nil)
    #expect(parsed.positionals == ["a", "b", "--c"])
  }

  /// A value that starts with `-` is given with `=`; `-` alone (standard input) and negative numbers are values.
  @Test func takesDashValuesOnlyWhereTheyCannotBeOptions() throws {
    let parsed = try ArgumentParser.parse(["--library=--odd", "--out", "-", "--size", "-3", "a"], for: spec)
    #expect(parsed.value(ValueOption.library) == "--odd")
    #expect(parsed.value(Self.out) == "-")
    #expect(parsed.allValues(Self.size) == ["-3"])
    #expect(!parsed.isSet(Flag.json))
  }

  /// `--` ends the options, for help too: `intake import -- -h` imports a file named `-h`.
  @Test func helpIsAskedOnlyBeforeTheEndOfOptions() {
    #expect(ArgumentParser.asksForHelp(["a", "-h"]))
    #expect(ArgumentParser.asksForHelp(["--help", "--", "a"]))
    #expect(!ArgumentParser.asksForHelp(["--", "-h"]))
    #expect(!ArgumentParser.asksForHelp(["a", "--", "--help"]))
  }

  @Test(arguments: [
    (["--nope", "a"], "unknown option '--nope'"),
    (["a", "--library"], "needs a value"),
    (["a", "--json=1"], "takes no value"),
    (["--library", "x", "--library", "y", "a"], "more than once"),
    ([String](), "needs PATH"),
    (["-x", "a"], "unknown option '-x'"),
    // A value option never swallows the next option: the folder was forgotten.
    (["a", "--library", "--json"], "needs a value (DIR), but '--json' is an option"),
    (["a", "--out", "-h"], "but '-h' is an option"),
  ])
  func rejectsMistakes(_ arguments: [String], _ message: String) {
    #expect {
      try ArgumentParser.parse(arguments, for: spec)
    } throws: { error in
      (error as? UsageError)?.description.contains(message) == true
    }
  }
}

/// The same rules through `intake` itself, as a user meets them.
struct CommandLineEndOfOptionsTests {
  /// `intake metadata -- -h` reads a file named `-h` (there is none here: exit 1), it does not print help.
  @Test func aFileNamedLikeAnOptionAfterDoubleDashIsAFile() async {
    let folder = TemporaryDirectory().path
    let result = await runIntake(["metadata", "--", "-h"], in: folder)
    #expect(result.status == 1)
    #expect(!result.stdout.contains("USAGE"))
    let help = await runIntake(["metadata", "-h"], in: folder)
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE"))
  }

  /// `--library --json` is a forgotten folder, not a library named `--json` (exit 2, nothing created).
  @Test func aValueOptionDoesNotSwallowAFlag() async {
    let folder = TemporaryDirectory().path
    let result = await runIntake(["list", "--library", "--json"], in: folder)
    #expect(result.status == 2)
    #expect(result.stderr.contains("'--json' is an option"))
    #expect(!FileManager.default.fileExists(atPath: folder + "/--json"))
  }
}
