import Foundation

/// The privacy usage-description keys an app declares, from its `Info.plist` files and from
/// `INFOPLIST_KEY_*` build settings (Xcode 13's generated Info.plist) in `project.pbxproj` and `.xcconfig`.
struct UsageKeyIndex: Sendable {
  /// Keys found, such as `NSCameraUsageDescription`.
  private(set) var keys: Set<String> = []
  /// Whether the folder holds any app configuration at all. A Swift package library has none, and its
  /// host app declares the keys, so the `missing-usage-key` rule stays silent there.
  private(set) var hasAppConfiguration = false

  static let watched = [
    "NSPhotoLibraryUsageDescription", "NSPhotoLibraryAddUsageDescription", "NSCameraUsageDescription",
    "NSMicrophoneUsageDescription",
  ]

  func contains(_ key: String) -> Bool { keys.contains(key) }

  /// Reads an `Info.plist`, XML or binary.
  mutating func addPropertyList(_ data: Data) {
    hasAppConfiguration = true
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
    let text = String(decoding: data, as: UTF8.self)
    if text.contains("INFOPLIST_") || text.contains("PBXProject") { hasAppConfiguration = true }
    for key in Self.watched {
      var searchRange = text.startIndex..<text.endIndex
      let setting = "INFOPLIST_KEY_\(key)"
      while let found = text.range(of: setting, range: searchRange) {
        searchRange = found.upperBound..<text.endIndex
        // The setting name must end there (not `…DescriptionOld`), followed by `=` after spaces.
        let rest = text[found.upperBound...].drop { $0 == " " || $0 == "\t" }
        if rest.first == "=" {
          keys.insert(key)
          break
        }
      }
    }
  }
}
