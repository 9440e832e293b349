import Testing

@testable import PhotoIntakeAudit

struct LexerTests {
  /// The identifiers the lexer sees as code, in order.
  static func codeIdentifiers(_ source: String) -> [String] {
    let lexed = Lexer.lex(Array(source.utf8))
    return lexed.tokens.indices.filter { lexed.tokens[$0].kind == .identifier }.map { lexed.text($0) }
  }

  @Test(arguments: [
    // Comments, including nested block comments, hide code.
    ("a // b c\nd", ["a", "d"]),
    ("a /* b /* c */ still comment */ d", ["a", "d"]),
    ("/** doc */ func f() {}", ["func", "f"]),
    // String literals hide code; interpolations are code, with nested parentheses and strings.
    (#"let s = "UIImage(data: x)" + y"#, ["let", "s", "y"]),
    (#"let s = "a \(f(g(1), "b)\(c)")) d" ; e"#, ["let", "s", "f", "g", "c", "e"]),
    (#"let s = "\("\("\(deep)")")" ; after"#, ["let", "s", "deep", "after"]),
    (#"let s = "escaped \" quote" ; after"#, ["let", "s", "after"]),
    (#"let s = "backslash \\" ; after"#, ["let", "s", "after"]),
    // Raw strings: quotes and `\(` inside are text; only `\#(` interpolates.
    (##"let s = #"a "quoted" \(notCode) b"# ; after"##, ["let", "s", "after"]),
    (##"let s = #"a \#(code) b"# ; after"##, ["let", "s", "code", "after"]),
    (###"let s = ##"a "# still "## ; after"###, ["let", "s", "after"]),
    // Multi-line strings, with quotes inside and interpolation.
    (
      "let s = \"\"\"\n  hidden \"quoted\" \"\" more\n  \\(shown)\n  \"\"\"\nafter",
      ["let", "s", "shown", "after"]
    ),
    ("let s = #\"\"\"\n  \"\"\" not the end\n  \"\"\"#\nafter", ["let", "s", "after"]),
    // Extended regex literals are literals.
    ("let r = #/UIImage\\(data:/# ; after", ["let", "r", "after"]),
    // Backticked identifiers, `$0`, attributes and pound keywords.
    ("let `default` = $0 ; @MainActor #if os(iOS)", ["let", "`default`", "$0", "os", "iOS"]),
    // Numbers with dots, exponents and underscores; ranges.
    ("let n = 1_000.5e-3 + 0x1p4 ; for i in 0..<n {}", ["let", "n", "for", "i", "in", "n"]),
  ])
  func identifiersInCode(_ source: String, _ expected: [String]) {
    #expect(Self.codeIdentifiers(source) == expected)
  }

  @Test func wordsAreInterned() {
    let lexed = Lexer.lex(Array("PHPhotoLibrary.requestAuthorization(for: .readWrite) == != -> x".utf8))
    let words = lexed.tokens.map(\.word)
    #expect(
      words == [
        .PHPhotoLibrary, .none, .requestAuthorization, .none, .for, .none, .none, .readWrite, .none, .opEqual,
        .opNotEqual, .opArrow, .none,
      ])
  }

  @Test(arguments: [
    ("a\nbb\n  ccc", [(1, 1), (2, 1), (3, 3)]),
    ("/* x\n y */ a \"\"\"\nz\n\"\"\" b", [(2, 7), (4, 5)]),
    // Columns count Unicode scalars: `é` and `😀` (an identifier here) are one column each.
    ("é = 1 ; 😀 ; b", [(1, 1), (1, 9), (1, 13)]),
  ])
  func linesAndColumns(_ source: String, _ expected: [(Int, Int)]) {
    let lexed = Lexer.lex(Array(source.utf8))
    let positions = lexed.tokens.filter { $0.kind == .identifier }.map { lexed.location(ofByte: $0.start) }
    #expect(positions.map(\.line) == expected.map(\.0))
    #expect(positions.map(\.column) == expected.map(\.1))
  }

  /// Truncated and malformed input ends cleanly, without trapping or looping.
  @Test(arguments: [
    "let s = \"unterminated", "let s = \"\"\"\nnever closed", "/* open /* nested */", "let s = \"\\(f(\"",
    "#\"raw", "#/regex", "`unclosed", "@", "#", "\\", "let s = \"\\", "x = 1e", "\"\\(\"\\(\"\\(",
  ])
  func malformedInputTerminates(_ source: String) {
    let lexed = Lexer.lex(Array(source.utf8))
    #expect(lexed.tokens.allSatisfy { $0.end <= UInt32(source.utf8.count) && $0.start <= $0.end })
  }

  /// Every prefix of a real fixture lexes, so truncation at any byte is safe.
  @Test func everyPrefixOfAFixtureLexes() throws {
    let text = try #require(
      Fixture.all.first { $0.name == "temp-url-escapes/bad-url-kept" }?.files.values.first)
    let bytes = Array(text.utf8)
    for end in stride(from: 0, through: bytes.count, by: 7) {
      let lexed = Lexer.lex(Array(bytes[..<end]))
      #expect(lexed.tokens.allSatisfy { $0.end <= UInt32(end) })
    }
  }

  @Test(arguments: [
    ("x // intake-audit:disable picker-legacy", 1, ["picker-legacy"]),
    ("\n/* intake-audit:disable sync-load, temp-url-escapes */", 2, ["sync-load", "temp-url-escapes"]),
    ("// intake-audit:disable all", 1, ["all"]),
  ])
  func suppressionComments(_ source: String, _ line: Int, _ ids: [String]) {
    #expect(Lexer.lex(Array(source.utf8)).suppressions == [Suppression(line: line, ruleIDs: ids)])
  }
}
