/// The lexer's output for one file: the bytes, the code tokens, where lines start, and the suppression
/// comments found.
struct LexedSource: Sendable {
  let bytes: [UInt8]
  let tokens: [Token]
  /// Byte offset at which each line starts; `lineStarts[0] == 0` is line 1.
  let lineStarts: [UInt32]
  let suppressions: [Suppression]
  /// Which words occur in code, so a rule can skip a file that cannot concern it in O(1).
  let words: WordSet
  /// Whether lexing stopped at string interpolations nested deeper than ``Lexer/maximumNesting``: the
  /// tokens are incomplete and the file is not audited.
  let tooDeep: Bool

  init(
    bytes: [UInt8], tokens: [Token], lineStarts: [UInt32], suppressions: [Suppression], tooDeep: Bool = false
  ) {
    self.tooDeep = tooDeep
    self.bytes = bytes
    self.tokens = tokens
    self.lineStarts = lineStarts
    self.suppressions = suppressions
    var words = WordSet()
    for token in tokens where token.word != .none { words.insert(token.word) }
    self.words = words
  }

  /// 1-based line and column of a byte offset. Columns count Unicode scalars, as SARIF's
  /// `unicodeCodePoints` column kind does (SARIF 2.1.0 §3.14.20), so a line with an emoji in it still
  /// points at the right character.
  func location(ofByte offset: UInt32) -> (line: Int, column: Int) {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    var column = 1
    var position = Int(lineStarts[low])
    while position < Int(offset), position < bytes.count {
      // Count every byte that is not a UTF-8 continuation byte (10xxxxxx).
      if bytes[position] & 0xC0 != 0x80 { column += 1 }
      position += 1
    }
    return (low + 1, column)
  }

  func line(ofToken index: Int) -> Int { location(ofByte: tokens[index].start).line }

  /// The token's text, for messages and for comparing identifiers that are not interned words; empty for an
  /// index outside the file (as ``SourceFile/word(_:)`` is `.none` there), so a rule that looks one token too
  /// far, or at a scope's absent callee (-1), reads nothing instead of trapping.
  func text(_ index: Int) -> String {
    guard index >= 0, index < tokens.count else { return "" }
    let token = tokens[index]
    return String(decoding: bytes[Int(token.start)..<Int(token.end)], as: UTF8.self)
  }

  /// Whether two tokens spell the same text (never for an index outside the file).
  func sameText(_ first: Int, _ second: Int) -> Bool {
    guard first >= 0, second >= 0, first < tokens.count, second < tokens.count else { return false }
    let a = tokens[first]
    let b = tokens[second]
    guard a.end - a.start == b.end - b.start else { return false }
    var offset: UInt32 = 0
    while offset < a.end - a.start {
      if bytes[Int(a.start + offset)] != bytes[Int(b.start + offset)] { return false }
      offset += 1
    }
    return true
  }
}

/// A set of ``Word``s as a bit field.
struct WordSet: Sendable, Equatable {
  private var bits: [UInt64] = Array(repeating: 0, count: (Word.caseCount + 63) / 64)

  mutating func insert(_ word: Word) {
    bits[Int(word.number) >> 6] |= 1 << UInt64(word.number & 63)
  }

  func contains(_ word: Word) -> Bool {
    bits[Int(word.number) >> 6] & (1 << UInt64(word.number & 63)) != 0
  }

  func containsAny(_ words: [Word]) -> Bool { words.contains { contains($0) } }

  mutating func formUnion(_ other: WordSet) {
    for index in bits.indices { bits[index] |= other.bits[index] }
  }
}
