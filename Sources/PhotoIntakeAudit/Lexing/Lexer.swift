/// A Swift lexer over UTF-8 bytes: identifiers and keywords, attributes, numbers, string literals of every
/// form, operators and punctuation, with comments and whitespace dropped (but newlines remembered).
///
/// It follows "Lexical Structure" in The Swift Programming Language: nested block comments, raw strings
/// (`#"…"#` with any number of `#`, where only `\#(` interpolates), multi-line strings (`"""`), and string
/// interpolation whose code — nested parentheses, nested strings and closures — is lexed as ordinary tokens
/// between the literal parts. Extended regex literals (`#/…/#`) are skipped as literals; bare `/…/` regex
/// literals are lexed as operators, which is harmless unless one contains a quote.
///
/// Malformed input never traps: an unterminated literal or comment ends at the end of the line or file.
struct Lexer {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  private var tokens: [Token] = []
  private var lineStarts: [UInt32] = [0]
  private var suppressions: [Suppression] = []
  private var newlineSeen = true
  private let table = WordTable.shared
  /// String interpolations open around `index`; each is a level of recursion.
  private var nesting = 0
  private var tooDeep = false

  /// The deepest string interpolation lexed (`"\("\("…")")"`). Each level recurses, so a generated file
  /// of tens of thousands would overflow the stack; real code nests a handful. A deeper file is not
  /// audited (``LexedSource/tooDeep``).
  static let maximumNesting = 256

  private init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    tokens.reserveCapacity(bytes.count / 5)
  }

  static func lex(_ source: [UInt8]) -> LexedSource {
    source.withUnsafeBufferPointer { buffer in
      var lexer = Lexer(buffer)
      lexer.lexCode(untilClosingParen: false)
      return LexedSource(
        bytes: source, tokens: lexer.tokens, lineStarts: lexer.lineStarts,
        suppressions: lexer.suppressions, tooDeep: lexer.tooDeep)
    }
  }

  // MARK: Code

  /// Lexes code until the end of input or, inside an interpolation, until the `)` that closes it.
  private mutating func lexCode(untilClosingParen: Bool) {
    var depth = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x20, 0x09, 0x0D, 0x0B, 0x0C, 0x00:
        index += 1
      case 0x0A:
        newline(at: index)
        index += 1
      case UInt8(ascii: "/"):
        let next = peek(1)
        if next == UInt8(ascii: "/") {
          lineComment()
        } else if next == UInt8(ascii: "*") {
          blockComment()
        } else {
          operatorRun()
        }
      case UInt8(ascii: "\""):
        stringLiteral(hashes: 0, start: index)
      case UInt8(ascii: "#"):
        pound()
      case UInt8(ascii: "("):
        depth += 1
        single(.leftParen)
      case UInt8(ascii: ")"):
        if untilClosingParen && depth == 0 {
          index += 1
          return
        }
        depth -= 1
        single(.rightParen)
      case UInt8(ascii: "["): single(.leftBracket)
      case UInt8(ascii: "]"): single(.rightBracket)
      case UInt8(ascii: "{"): single(.leftBrace)
      case UInt8(ascii: "}"): single(.rightBrace)
      case UInt8(ascii: ","): single(.comma)
      case UInt8(ascii: ":"): single(.colon)
      case UInt8(ascii: ";"): single(.semicolon)
      case UInt8(ascii: "\\"): single(.backslash)
      case UInt8(ascii: "."):
        // `...` and `..<` are operators; a lone dot is member access.
        if peek(1) == UInt8(ascii: ".") { operatorRun() } else { single(.dot) }
      case UInt8(ascii: "@"):
        let start = index
        index += 1
        if index < bytes.count, Self.isIdentifierStart(bytes[index]) {
          let (end, word) = identifierBody(from: index)
          index = end
          emit(.attribute, start, end, word)
        } else {
          emit(.op, start, index, .none)
        }
      case UInt8(ascii: "`"):
        backtickIdentifier()
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        number()
      default:
        if Self.isIdentifierStart(byte) || byte == UInt8(ascii: "$") {
          let start = index
          let (end, word) = identifierBody(from: byte == UInt8(ascii: "$") ? index + 1 : index)
          index = end
          emit(.identifier, start, end, byte == UInt8(ascii: "$") ? .none : word)
        } else if Self.isOperator(byte) {
          operatorRun()
        } else {
          index += 1
        }
      }
    }
  }

  private mutating func single(_ kind: Token.Kind) {
    emit(kind, index, index + 1, .none)
    index += 1
  }

  private mutating func emit(_ kind: Token.Kind, _ start: Int, _ end: Int, _ word: Word) {
    tokens.append(
      Token(kind: kind, startsLine: newlineSeen, word: word, start: UInt32(start), end: UInt32(end)))
    newlineSeen = false
  }

  private mutating func newline(at offset: Int) {
    lineStarts.append(UInt32(offset + 1))
    newlineSeen = true
  }

  @inline(__always) private func peek(_ distance: Int) -> UInt8 {
    index + distance < bytes.count ? bytes[index + distance] : 0
  }

  // MARK: Identifiers, numbers, operators

  @inline(__always) static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
      || byte >= 0x80
  }

  @inline(__always) static func isIdentifierBody(_ byte: UInt8) -> Bool {
    isIdentifierStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
  }

  @inline(__always) static func isOperator(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "!"), UInt8(ascii: "*"),
      UInt8(ascii: "%"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "|"),
      UInt8(ascii: "^"), UInt8(ascii: "~"), UInt8(ascii: "?"), UInt8(ascii: "/"):
      true
    default: false
    }
  }

  /// Scans identifier characters from `start`, hashing as it goes, and interns the result.
  private func identifierBody(from start: Int) -> (end: Int, word: Word) {
    var end = start
    var hash = WordTable.seed
    while end < bytes.count, Self.isIdentifierBody(bytes[end]) {
      hash = WordTable.step(hash, bytes[end])
      end += 1
    }
    guard end > start else { return (end, .none) }
    return (end, table.lookup(bytes, start, end, hash: hash, isMember: tokens.last?.kind == .dot))
  }

  private mutating func backtickIdentifier() {
    let start = index
    var end = index + 1
    while end < bytes.count, bytes[end] != UInt8(ascii: "`"), bytes[end] != 0x0A { end += 1 }
    var hash = WordTable.seed
    for offset in (start + 1)..<end { hash = WordTable.step(hash, bytes[offset]) }
    let word = end > start + 1 ? table.lookup(bytes, start + 1, end, hash: hash) : .none
    index = end < bytes.count && bytes[end] == UInt8(ascii: "`") ? end + 1 : end
    emit(.identifier, start, index, word)
  }

  private mutating func number() {
    let start = index
    index += 1
    while index < bytes.count {
      let byte = bytes[index]
      if Self.isIdentifierBody(byte) {
        index += 1
      } else if byte == UInt8(ascii: "."), index + 1 < bytes.count,
        bytes[index + 1] >= UInt8(ascii: "0"), bytes[index + 1] <= UInt8(ascii: "9")
      {
        index += 1
      } else if (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")),
        bytes[index - 1] | 0x20 == UInt8(ascii: "e") || bytes[index - 1] | 0x20 == UInt8(ascii: "p")
      {
        index += 1  // exponent sign: 1e-3, 0x1p+4
      } else {
        break
      }
    }
    emit(.number, start, index, .none)
  }

  private mutating func operatorRun() {
    let start = index
    index += 1
    while index < bytes.count {
      let byte = bytes[index]
      // A `//` or `/*` after an operator starts a comment, not more operator.
      if byte == UInt8(ascii: "/"), index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*")
      {
        break
      }
      if Self.isOperator(byte) || (byte == UInt8(ascii: ".") && bytes[start] == UInt8(ascii: ".")) {
        index += 1
      } else {
        break
      }
    }
    var hash = WordTable.seed
    for offset in start..<index { hash = WordTable.step(hash, bytes[offset]) }
    emit(.op, start, index, table.lookup(bytes, start, index, hash: hash))
  }

  /// `#` starts a raw string (`#"`, `##"`), an extended regex literal (`#/`), or a pound keyword.
  private mutating func pound() {
    let start = index
    var hashes = 0
    while index + hashes < bytes.count, bytes[index + hashes] == UInt8(ascii: "#") { hashes += 1 }
    let after = index + hashes < bytes.count ? bytes[index + hashes] : 0
    if after == UInt8(ascii: "\"") {
      index += hashes
      stringLiteral(hashes: hashes, start: start)
    } else if after == UInt8(ascii: "/") {
      regexLiteral(hashes: hashes, start: start)
    } else {
      index += 1
      let (end, word) = identifierBody(from: index)
      index = end
      emit(.pound, start, end, word)
    }
  }

  private mutating func regexLiteral(hashes: Int, start: Int) {
    index += hashes + 1
    while index < bytes.count {
      if bytes[index] == 0x0A { newline(at: index) }
      if bytes[index] == UInt8(ascii: "/"), closingHashes(at: index + 1, count: hashes) {
        index += 1 + hashes
        break
      }
      index += 1
    }
    emit(.string, start, index, .none)
  }

  @inline(__always) private func closingHashes(at offset: Int, count: Int) -> Bool {
    guard offset + count <= bytes.count else { return false }
    var position = offset
    while position < offset + count {
      if bytes[position] != UInt8(ascii: "#") { return false }
      position += 1
    }
    return true
  }
}

extension Lexer {
  // MARK: Strings

  /// Lexes a string literal whose opening quote is at `index`, preceded by `hashes` `#` from `start`.
  private mutating func stringLiteral(hashes: Int, start: Int) {
    let multiline = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
    index += multiline ? 3 : 1
    var segmentStart = start
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\\") {
        if closingHashes(at: index + 1, count: hashes) {
          let afterHashes = index + 1 + hashes
          if afterHashes < bytes.count, bytes[afterHashes] == UInt8(ascii: "(") {
            emit(.string, segmentStart, index, .none)
            guard nesting < Self.maximumNesting else {
              tooDeep = true
              index = bytes.count
              return
            }
            index = afterHashes + 1
            nesting += 1
            lexCode(untilClosingParen: true)
            nesting -= 1
            segmentStart = index
            continue
          }
          // An escape: skip the escaped character so `\"` does not end the literal.
          index = afterHashes
          if index < bytes.count {
            if bytes[index] == 0x0A { newline(at: index) }
            index += 1
          }
          continue
        }
        index += 1
      } else if byte == UInt8(ascii: "\"") {
        let quotes = multiline ? 3 : 1
        if (!multiline || (peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")))
          && closingHashes(at: index + quotes, count: hashes)
        {
          index += quotes + hashes
          emit(.string, segmentStart, index, .none)
          return
        }
        index += 1
      } else if byte == 0x0A {
        if !multiline {
          // Unterminated single-line literal: end it here rather than swallow the file.
          emit(.string, segmentStart, index, .none)
          return
        }
        newline(at: index)
        index += 1
      } else {
        index += 1
      }
    }
    emit(.string, segmentStart, index, .none)
  }

  // MARK: Comments

  private mutating func lineComment() {
    let start = index
    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
    scanForSuppression(start, index)
  }

  /// Block comments nest in Swift: `/* a /* b */ c */` is one comment.
  private mutating func blockComment() {
    let start = index
    let line = lineStarts.count
    var depth = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
        depth += 1
        index += 2
      } else if byte == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
        depth -= 1
        index += 2
        if depth == 0 { break }
      } else {
        if byte == 0x0A { newline(at: index) }
        index += 1
      }
    }
    scanForSuppression(start, index, line: line)
  }

  private static let marker = Array("intake-audit:disable".utf8)

  /// Records `intake-audit:disable id[, id…]` found in the comment `bytes[start..<end]`.
  private mutating func scanForSuppression(_ start: Int, _ end: Int, line: Int? = nil) {
    let marker = Self.marker
    var position = start
    while position + marker.count <= end {
      if bytes[position] == marker[0] {
        var matched = true
        for offset in 1..<marker.count where bytes[position + offset] != marker[offset] {
          matched = false
          break
        }
        if matched {
          var cursor = position + marker.count
          var ids: [String] = []
          var current: [UInt8] = []
          while cursor < end {
            let byte = bytes[cursor]
            if Self.isIdentifierBody(byte) || byte == UInt8(ascii: "-") {
              current.append(byte)
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || byte == 0x09 {
              if !current.isEmpty {
                ids.append(String(decoding: current, as: UTF8.self))
                current = []
              }
            } else {
              break
            }
            cursor += 1
          }
          if !current.isEmpty { ids.append(String(decoding: current, as: UTF8.self)) }
          suppressions.append(Suppression(line: line ?? lineStarts.count, ruleIDs: ids))
          return
        }
      }
      position += 1
    }
  }
}
