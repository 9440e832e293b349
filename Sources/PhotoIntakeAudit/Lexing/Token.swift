/// One lexical token of Swift source: its kind, the interned ``Word`` if the rules care about it, and its
/// byte range. Line and column are derived on demand from ``LexedSource/lineStarts`` (see
/// ``LexedSource/location(ofByte:)``), which keeps the token at 12 bytes.
struct Token: Sendable {
  enum Kind: UInt8, Sendable {
    /// Identifiers and keywords, including `` `escaped` `` ones and `$0`.
    case identifier
    /// `@Name`: ``Token/word`` is the name's word.
    case attribute
    /// `#if`, `#available`, `#selector`…
    case pound
    case number
    /// A string, multi-line string or raw string literal, or the literal part of one around an
    /// interpolation (the interpolated code is lexed as ordinary tokens in between).
    case string
    /// A run of operator characters (`==`, `!`, `->`, `...`).
    case op
    case leftParen, rightParen, leftBracket, rightBracket, leftBrace, rightBrace
    case comma, colon, semicolon, dot, backslash
  }

  var kind: Kind
  /// Whether a newline separates this token from the previous one: Swift ends statements at newlines.
  var startsLine: Bool
  var word: Word
  var start: UInt32
  var end: UInt32

  var isOpening: Bool { kind == .leftParen || kind == .leftBracket || kind == .leftBrace }
  var isClosing: Bool { kind == .rightParen || kind == .rightBracket || kind == .rightBrace }
}

/// A `// intake-audit:disable rule-id` comment: suppresses those rules on its own line and the next.
struct Suppression: Sendable, Equatable {
  /// 1-based line of the comment.
  var line: Int
  /// The rule ids named; `all` suppresses every rule.
  var ruleIDs: [String]
}
