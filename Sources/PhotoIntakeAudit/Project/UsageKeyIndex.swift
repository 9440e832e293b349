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

  /// Adds what `other` read: its keys, and whether it saw app configuration and products.
  mutating func formUnion(_ other: UsageKeyIndex) {
    keys.formUnion(other.keys)
    hasConfiguration = hasConfiguration || other.hasConfiguration
    hasProducts = hasProducts || other.hasProducts
    hasAppProduct = hasAppProduct || other.hasAppProduct
  }

  /// Whether an Xcode project named products and none of them is an app, an app extension or a tool.
  var buildsOnlyLibraries: Bool { hasProducts && !hasAppProduct }

  /// The values of `INFOPLIST_FILE = …` settings in a `project.pbxproj` or `.xcconfig` (not
  /// `GENERATE_INFOPLIST_FILE`), quotes removed, in file order.
  static func infoPlistFiles(in bytes: [UInt8]) -> [String] {
    var values: [String] = []
    for end in ASCII.ends(of: "INFOPLIST_FILE", in: bytes) {
      let start = end - 14
      if start > 0, Lexer.isIdentifierBody(bytes[start - 1]) || bytes[start - 1] == UInt8(ascii: "$") {
        continue
      }
      var cursor = end
      while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") {
        cursor += 1
      }
      guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else { continue }
      cursor += 1
      while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") {
        cursor += 1
      }
      var value: [UInt8] = []
      if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") {
        cursor += 1
        while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "\""), bytes[cursor] != 0x0A {
          if bytes[cursor] == UInt8(ascii: "\\"), cursor + 1 < bytes.count { cursor += 1 }
          value.append(bytes[cursor])
          cursor += 1
        }
      } else {
        while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ";"), bytes[cursor] != 0x0A,
          bytes[cursor] != 0x0D
        {
          value.append(bytes[cursor])
          cursor += 1
        }
        while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
          value.removeLast()
        }
      }
      if !value.isEmpty { values.append(String(decoding: value, as: UTF8.self)) }
    }
    return values
  }

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
