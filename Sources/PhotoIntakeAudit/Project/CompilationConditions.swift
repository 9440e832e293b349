import Foundation

/// The compilation conditions an app build of the project can set, and which `#if` branches they leave
/// out of every build.
///
/// A custom flag (`#if MOCK_CAMERA`, `#if LEGACY_PICKER`) is set only where the project says so: in
/// `SWIFT_ACTIVE_COMPILATION_CONDITIONS` or `OTHER_SWIFT_FLAGS` (`-D NAME`) of a `project.pbxproj` or
/// `.xcconfig`, or by `.define("NAME")` in a `Package.swift`. Code under a flag that none of them sets is
/// compiled by no app build, so nothing in it can harm anyone. `DEBUG` counts as set (Xcode's templates set
/// it for debug builds), and so does every condition the audit cannot decide (`os(…)`, `canImport(…)`,
/// `targetEnvironment(…)`, `swift(…)`): only a branch that is certainly off is left out. A project with no
/// build configuration at all (loose sources) leaves every flag undecided.
struct CompilationConditions: Sendable {
  /// Flags some build configuration of the project sets.
  private(set) var defined: Set<String> = ["DEBUG"]
  /// Whether any build configuration was read; without one no flag is known to be unset.
  private(set) var isKnown = false

  /// Reads `SWIFT_ACTIVE_COMPILATION_CONDITIONS = "DEBUG MOCK";`, `= (DEBUG, MOCK)` and
  /// `OTHER_SWIFT_FLAGS = "-D MOCK -DOTHER"` from a `project.pbxproj` or `.xcconfig`.
  mutating func addBuildSettings(_ data: Data) {
    isKnown = true
    let bytes = [UInt8](data)
    let settings: [(name: StaticString, isFlags: Bool)] = [
      ("SWIFT_ACTIVE_COMPILATION_CONDITIONS", false), ("OTHER_SWIFT_FLAGS", true),
    ]
    for (setting, isFlags) in settings {
      for found in ASCII.ends(of: setting, in: bytes) {
        // The value runs from the `=` to the `;` that ends a pbxproj setting or the end of the line, or to
        // the `)` of a list that spans lines.
        guard let assign = bytes[found...].prefix(64).firstIndex(of: UInt8(ascii: "=")) else { continue }
        var start = assign + 1
        while start < bytes.count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") {
          start += 1
        }
        let list = start < bytes.count && bytes[start] == UInt8(ascii: "(")
        var end = start
        while end < bytes.count {
          let byte = bytes[end]
          if list ? byte == UInt8(ascii: ")") : (byte == UInt8(ascii: ";") || byte == 0x0A) { break }
          end += 1
        }
        let value = String(decoding: bytes[start..<end], as: UTF8.self)
        let words = value.split { " \t\n\"(),\\".contains($0) }
        var afterD = false
        for word in words {
          if word == "-D" {
            afterD = true
            continue
          }
          var name = word
          if name.hasPrefix("-D") {
            name = name.dropFirst(2)
          } else if isFlags, !afterD {
            continue
          }
          afterD = false
          if name.first.map({ $0.isLetter || $0 == "_" }) == true { defined.insert(String(name)) }
        }
      }
    }
  }

  /// Reads `.define("NAME")` (with or without a condition) from a `Package.swift`.
  mutating func addPackageManifest(_ bytes: [UInt8]) {
    isKnown = true
    for found in ASCII.ends(of: ".define(\"", in: bytes) {
      let name = bytes[found...].prefix { $0 != UInt8(ascii: "\"") && $0 != 0x0A }
      if !name.isEmpty { defined.insert(String(decoding: name, as: UTF8.self)) }
    }
  }

  /// The token ranges that no app build compiles: branches of `#if`/`#elseif`/`#else` that are certainly
  /// off, with their directives. Sorted, not overlapping.
  func inactiveRanges(_ tokens: [Token], _ text: (Int) -> String) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    // Per open `#if`: whether the current branch may be compiled, and whether an earlier one certainly is.
    var frames: [(active: Bool, taken: Bool)] = []
    // How many of `frames` are off: the code is compiled when none is, a count kept as frames change so
    // that `#if` nested thousands deep is not rechecked frame by frame at every directive.
    var inactiveFrames = 0
    func setLast(_ frame: (active: Bool, taken: Bool)) {
      if !frames[frames.count - 1].active { inactiveFrames -= 1 }
      if !frame.active { inactiveFrames += 1 }
      frames[frames.count - 1] = frame
    }
    var offSince: Int?
    var index = 0
    while index < tokens.count {
      guard tokens[index].kind == .pound else {
        index += 1
        continue
      }
      let directive = text(index)
      let lineEnd = Self.endOfLine(tokens, after: index)
      let wasActive = inactiveFrames == 0
      switch directive {
      case "#if":
        let value = evaluate(tokens, (index + 1)..<lineEnd, text)
        frames.append((active: value != false, taken: value == true))
        if value == false { inactiveFrames += 1 }
      case "#elseif" where !frames.isEmpty:
        let value = evaluate(tokens, (index + 1)..<lineEnd, text)
        let taken = frames[frames.count - 1].taken
        setLast((active: !taken && value != false, taken: taken || value == true))
      case "#else" where !frames.isEmpty:
        setLast((active: !frames[frames.count - 1].taken, taken: true))
      case "#endif" where !frames.isEmpty:
        if !frames.removeLast().active { inactiveFrames -= 1 }
      default:
        index += 1
        continue
      }
      let isActive = inactiveFrames == 0
      if wasActive, !isActive {
        offSince = index
      } else if !wasActive, isActive, let start = offSince {
        ranges.append(start..<lineEnd)
        offSince = nil
      }
      index = lineEnd
    }
    if let start = offSince { ranges.append(start..<tokens.count) }
    return ranges
  }

  /// The first token after the directive's line.
  private static func endOfLine(_ tokens: [Token], after index: Int) -> Int {
    var end = index + 1
    while end < tokens.count, !tokens[end].startsLine { end += 1 }
    return end
  }

  /// `true`, `false`, or nil when undecided: flags, `!`, `&&`, `||`, parentheses; calls such as
  /// `os(iOS)` are undecided.
  private func evaluate(_ tokens: [Token], _ range: Range<Int>, _ text: (Int) -> String) -> Bool? {
    withoutActuallyEscaping(text) { text in
      var parser = Parser(
        tokens: tokens, end: range.upperBound, position: range.lowerBound, text: text, known: self)
      return parser.disjunction()
    }
  }

  fileprivate func flag(_ name: String) -> Bool? {
    switch name {
    case "true": return true
    case "false": return false
    default:
      if defined.contains(name) { return nil }  // set in some configurations: on in those builds
      return isKnown ? false : nil
    }
  }

  /// A small recursive-descent reader of a directive's condition, one line long.
  private struct Parser {
    let tokens: [Token]
    let end: Int
    var position: Int
    let text: (Int) -> String
    let known: CompilationConditions
    var depth = 0

    mutating func disjunction() -> Bool? {
      var value = conjunction()
      while position < end, text(position) == "||" {
        position += 1
        let right = conjunction()
        value = value == true || right == true ? true : (value == false && right == false ? false : nil)
      }
      return value
    }

    mutating func conjunction() -> Bool? {
      var value = unary()
      while position < end, text(position) == "&&" {
        position += 1
        let right = unary()
        value = value == false || right == false ? false : (value == true && right == true ? true : nil)
      }
      return value
    }

    mutating func unary() -> Bool? {
      guard position < end, depth < 64 else { return nil }
      let token = tokens[position]
      if token.kind == .op, text(position) == "!" {
        position += 1
        depth += 1
        defer { depth -= 1 }
        return unary().map { !$0 }
      }
      if token.kind == .leftParen {
        position += 1
        depth += 1
        let value = disjunction()
        depth -= 1
        if position < end, tokens[position].kind == .rightParen { position += 1 }
        return value
      }
      if token.kind == .identifier {
        let name = text(position)
        position += 1
        if position < end, tokens[position].kind == .leftParen {
          // `os(iOS)`, `canImport(UIKit)`, `swift(>=5.9)`: skip the call; undecided.
          var nesting = 0
          while position < end {
            if tokens[position].kind == .leftParen { nesting += 1 }
            if tokens[position].kind == .rightParen {
              nesting -= 1
              if nesting == 0 {
                position += 1
                break
              }
            }
            position += 1
          }
          return nil
        }
        return known.flag(name)
      }
      position += 1
      return nil
    }
  }
}
