import Foundation

/// The privacy usage-description keys an app declares, from its `Info.plist` files and from
/// `INFOPLIST_KEY_*` build settings (Xcode 13's generated Info.plist) in `project.pbxproj` and `.xcconfig`.
struct UsageKeyIndex: Sendable {
  /// Keys found, such as `NSCameraUsageDescription`.
  private(set) var keys: Set<String> = []
  /// Whether the folder holds any app configuration at all. A Swift package library has none, and its
  /// host app declares the keys, so the `missing-usage-key` rule stays silent there. Neither has an Xcode
  /// project whose targets all build frameworks, libraries or bundles (a framework's own `Info.plist`
  /// declares no usage keys: the app that embeds it does).
  var hasAppConfiguration: Bool { hasConfiguration && (!hasProducts || hasAppProduct) }
  private var hasConfiguration = false
  /// Whether a `project.pbxproj` names any target product type, and whether one of them is an app, an
  /// app extension or a tool (anything but `framework`, `library` and `bundle` products).
  private var hasProducts = false
  private var hasAppProduct = false

  static let watched = [
    "NSPhotoLibraryUsageDescription", "NSPhotoLibraryAddUsageDescription", "NSCameraUsageDescription",
    "NSMicrophoneUsageDescription",
  ]

  func contains(_ key: String) -> Bool { keys.contains(key) }

  /// Reads an `Info.plist`, XML or binary.
  mutating func addPropertyList(_ data: Data) {
    hasConfiguration = true
    if let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
      let dictionary = plist as? [String: Any]
    {
      for key in Self.watched where dictionary[key] != nil { keys.insert(key) }
    } else {
      // Unparsable (a template with build-time substitutions, a merge conflict): fall back to looking
      // for `<key>NAME</key>`, so a damaged file does not produce a false "missing key".
      let text = String(decoding: data, as: UTF8.self)
      for key in Self.watched where text.contains("<key>\(key)</key>") { keys.insert(key) }
    }
  }

  /// Reads `INFOPLIST_KEY_<name> = …` settings from a `project.pbxproj` or `.xcconfig`.
  mutating func addBuildSettings(_ data: Data) {
    let bytes = [UInt8](data)
    let settings = ASCII.ends(of: "INFOPLIST_", in: bytes)
    if !settings.isEmpty || !ASCII.ends(of: "PBXProject", in: bytes).isEmpty { hasConfiguration = true }
    for end in ASCII.ends(of: "com.apple.product-type.", in: bytes) {
      hasProducts = true
      let kind = bytes[end...].prefix { Lexer.isIdentifierBody($0) || $0 == UInt8(ascii: "-") }
      let name = String(decoding: kind, as: UTF8.self)
      if !["framework", "library", "bundle"].contains(where: { name.hasPrefix($0) }) { hasAppProduct = true }
    }
    for end in ASCII.ends(of: "INFOPLIST_KEY_", in: bytes) {
      // The setting name runs to a space, tab or `=` (not `…DescriptionOld`), then `=` after spaces.
      var cursor = end
      while cursor < bytes.count, Lexer.isIdentifierBody(bytes[cursor]) { cursor += 1 }
      let name = String(decoding: bytes[end..<cursor], as: UTF8.self)
      guard Self.watched.contains(name) else { continue }
      while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") {
        cursor += 1
      }
      if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") { keys.insert(name) }
    }
  }
}
