import Foundation

/// Turns a suggested name into a safe display name. Names are never used as storage paths (objects are named
/// by hash), but they are shown, exported and written into HTML, so they must not carry paths or controls.
enum NameSanitizer {
  /// The longest name kept, in UTF-8 bytes (the usual NAME_MAX).
  static let maximumLength = 255

  /// - Returns: the last path component without control characters or leading dots, NFC-normalised and at most
  ///   255 UTF-8 bytes (keeping the extension); nil if nothing usable is left.
  static func sanitize(_ name: String?) -> String? {
    guard let name else { return nil }
    let lastComponent =
      name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
    var cleaned = String(
      String.UnicodeScalarView(
        lastComponent.precomposedStringWithCanonicalMapping.unicodeScalars.filter {
          !$0.properties.generalCategory.isControlOrFormat
        }))
    cleaned = cleaned.trimmingCharacters(in: .whitespaces)
    while cleaned.hasPrefix(".") { cleaned.removeFirst() }
    cleaned = cleaned.trimmingCharacters(in: .whitespaces)
    guard !cleaned.isEmpty else { return nil }
    if cleaned.utf8.count > maximumLength {
      let dot = cleaned.lastIndex(of: ".")
      let ext = dot.map { String(cleaned[$0...]) } ?? ""
      var stem = dot.map { String(cleaned[..<$0]) } ?? cleaned
      let keep = ext.utf8.count < 32 ? ext : ""
      while stem.utf8.count + keep.utf8.count > maximumLength { stem.removeLast() }
      cleaned = stem + keep
    }
    return cleaned
  }
}

extension Unicode.GeneralCategory {
  fileprivate var isControlOrFormat: Bool {
    switch self {
    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: true
    default: false
    }
  }
}
