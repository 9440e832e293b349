/// The view controllers a storyboard shows for as long as the app runs: its initial view controller and, through
/// relationship segues, the root of a navigation controller and the tabs of a tab bar controller it starts with.
/// A screen the app starts on is never dismissed, so what it registers lives as long as the app.
///
/// Storyboards are XML; this reads their tags in one pass without an XML parser: a scene's view controller
/// (`sceneMemberID="viewController"`, its `id` and `customClass`), the relationship segues inside it
/// (`<segue destination="…" kind="relationship" relationship="rootViewController"/>`), and the document's
/// `initialViewController`.
enum StoryboardRoots {
  /// The `customClass` names of the view controllers `bytes` (a storyboard) starts with, following at most 64
  /// relationship segues.
  static func classes(in bytes: [UInt8]) -> [String] {
    var initial: String?
    var current: String?
    var classOf: [String: String] = [:]
    var relationships: [String: [String]] = [:]
    var index = 0
    while index < bytes.count {
      guard bytes[index] == 0x3C else {
        index += 1
        continue
      }
      // No `>` after this `<`: no tag is left to read.
      guard let end = bytes[index...].firstIndex(of: 0x3E) else { break }
      let tag = bytes[(index + 1)..<end]
      // Only three kinds of tag matter; the thousands of others (views, constraints, colours) are passed
      // over without reading their attributes.
      guard Self.relevantFragments.contains(where: { ASCII.contains(tag, $0) }) else {
        index = end + 1
        continue
      }
      let attributes = Self.attributes(tag)
      if let start = attributes["initialViewController"] { initial = start }
      if attributes["sceneMemberID"] == "viewController", let id = attributes["id"] {
        current = id
        if let name = attributes["customClass"] { classOf[id] = name }
      }
      if attributes["kind"] == "relationship", let current, let destination = attributes["destination"],
        attributes["relationship"] == "rootViewController" || attributes["relationship"] == "viewControllers"
      {
        relationships[current, default: []].append(destination)
      }
      index = end + 1
    }
    guard let initial else { return [] }
    var seen: Set<String> = [initial]
    var queue = [initial]
    var names: [String] = []
    while !queue.isEmpty, seen.count <= 64 {
      let id = queue.removeFirst()
      if let name = classOf[id] { names.append(name) }
      for next in relationships[id] ?? [] where seen.insert(next).inserted { queue.append(next) }
    }
    return names
  }

  /// What a tag ``classes(in:)`` reads spells: the document's `initialViewController`, a scene member's
  /// `sceneMemberID`, or a segue's `relationship` kind.
  private static let relevantFragments: [StaticString] = [
    "sceneMemberID", "initialViewController", "relationship",
  ]

  /// The `name="value"` pairs of one tag's bytes (between `<` and `>`).
  private static func attributes(_ tag: ArraySlice<UInt8>) -> [String: String] {
    var result: [String: String] = [:]
    var cursor = tag.startIndex
    while let equals = tag[cursor...].firstIndex(of: 0x3D) {
      var nameStart = equals
      while nameStart > cursor, Self.isNameByte(tag[nameStart - 1]) { nameStart -= 1 }
      let quote = equals + 1
      guard quote < tag.endIndex, tag[quote] == 0x22,
        let close = tag[(quote + 1)...].firstIndex(of: 0x22)
      else { break }
      if nameStart < equals {
        result[String(decoding: tag[nameStart..<equals], as: UTF8.self)] = String(
          decoding: tag[(quote + 1)..<close], as: UTF8.self)
      }
      cursor = close + 1
    }
    return result
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
  }
}
