/// Text that reaches a terminal. A path, an EXIF Make or Model, a lens name or a line of a Swift file is the
/// user's data, and may hold control characters: an escape sequence can set the terminal's title or clear the
/// screen, a carriage return or line feed can forge a line of output, and a bidirectional override (U+202E) can
/// show text in another order than it is stored (CVE-2021-42574, "Trojan Source"). They are shown escaped.
enum Terminal {
  /// `text` with control characters shown as escapes and a backslash as `\\`, for a value shown inside a line
  /// (a path), where the escapes must not be confused with the value's own backslashes.
  static func escaped(_ text: String) -> String { escape(text, backslashes: true) }

  /// `text` with control characters shown as escapes, backslashes kept: what every line we print goes through
  /// (``TextSink/line(_:)``), so no field can reach the terminal raw even where a command forgot to escape it.
  static func sanitized(_ text: String) -> String { escape(text, backslashes: false) }

  /// Whether a scalar may not reach a terminal as it is: C0 and C1 controls, DEL, and the Unicode controls that
  /// reorder or break lines (bidirectional embeddings, overrides, isolates and marks; line and paragraph
  /// separators). A tab is kept.
  static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09: false
    case 0..<0x20, 0x7F, 0x80..<0xA0: true
    case 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  private static func escape(_ text: String, backslashes: Bool) -> String {
    guard text.unicodeScalars.contains(where: { mustEscape($0) || (backslashes && $0 == "\\") }) else {
      return text
    }
    var result = ""
    for scalar in text.unicodeScalars {
      if backslashes, scalar == "\\" {
        result += "\\\\"
      } else if mustEscape(scalar) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += scalar.value < 0x100 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
