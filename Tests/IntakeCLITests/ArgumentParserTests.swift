import Testing

@testable import IntakeCLI

struct ArgumentParserTests {
  let spec = CommandSpec(
    name: "demo", abstract: "A demo.",
    options: [.json, .library, .value("--size", "N", "Size.", repeatable: true)],
    arguments: [ArgumentSpec(name: "PATH", arity: .oneOrMore, help: "Paths.")],
    run: { _, _ in 0 })

  @Test func parsesFlagsValuesAndPositionals() throws {
    let parsed = try ArgumentParser.parse(
      ["a", "--json", "--library", "/lib", "b", "--size=3", "--size", "4", "--", "--c"], for: spec)
    #expect(parsed.flag("--json"))
    #expect(parsed.value("--library") == "/lib")
    #expect(parsed.allValues("--size") == ["3", "4"])
    #expect(parsed.positionals == ["a", "b", "--c"])
  }

  @Test(arguments: [
    (["--nope", "a"], "unknown option '--nope'"),
    (["a", "--library"], "needs a value"),
    (["a", "--json=1"], "takes no value"),
    (["--library", "x", "--library", "y", "a"], "more than once"),
    ([String](), "needs PATH"),
    (["-x", "a"], "unknown option '-x'"),
  ])
  func rejectsMistakes(_ arguments: [String], _ message: String) {
    #expect {
      try ArgumentParser.parse(arguments, for: spec)
    } throws: { error in
      (error as? UsageError)?.description.contains(message) == true
    }
  }
}
