/// A small JSON writer with stable key order, so output can be snapshot-tested and diffed.
indirect enum JSON: Sendable, Equatable {
  case string(String)
  case int(Int)
  case double(Double)
  case bool(Bool)
  case null
  case array([JSON])
  case object([(String, JSON)])

  static func == (lhs: JSON, rhs: JSON) -> Bool { lhs.text == rhs.text }

  static func object(_ fields: [(String, JSON)]) -> String { JSON.object(fields).text }

  static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
  static func optional(_ value: Int?) -> JSON { value.map(JSON.int) ?? .null }
  static func optional(_ value: Double?) -> JSON { value.map(JSON.double) ?? .null }

  /// Compact JSON text.
  var text: String {
    switch self {
    case .string(let value): return Self.quote(value)
    case .int(let value): return String(value)
    case .double(let value):
      guard value.isFinite else { return "null" }
      if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
      return String(value)
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
    case .object(let fields):
      return "{" + fields.map { Self.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
    }
  }

  static func quote(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      // Controls and bidirectional overrides as \u escapes: the same string to a JSON reader, and inert when the
      // JSON itself is shown on a terminal.
      case _ where Terminal.mustEscape(scalar):
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
