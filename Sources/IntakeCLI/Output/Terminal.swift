/// Text that reaches a terminal: a path is the user's data and may hold control characters (an escape
/// sequence in a file name can rewrite the screen), so they are shown escaped.
enum Terminal {
  /// `text` with C0/C1 control characters and DEL written as `\xNN` (and a backslash as `\\`).
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x5C: result += "\\\\"
      case 0..<0x20, 0x7F, 0x80..<0xA0:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
