/// Case-insensitive ASCII matching of identifier names on UTF-8 bytes.
///
/// Rules compare identifier names with a handful of fragments (`asset`, `identifier`) for every stored
/// property of every persisted model. `String.lowercased()` and Foundation's `contains(_:)` go through
/// Unicode case mapping and `NSString`, which showed up at the top of a profile; identifiers' ASCII
/// letters are all these checks need.
enum ASCII {
  /// The UTF-8 bytes of `text` with `A`–`Z` lowered; other bytes unchanged.
  static func lowercased(_ text: String) -> [UInt8] {
    text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
  }

  static func hasPrefix(_ bytes: [UInt8], _ prefix: StaticString) -> Bool {
    prefix.withUTF8Buffer { bytes.starts(with: $0) }
  }

  static func equals(_ bytes: [UInt8], _ text: StaticString) -> Bool {
    text.withUTF8Buffer { bytes.elementsEqual($0) }
  }

  static func hasSuffix(_ bytes: [UInt8], _ suffix: StaticString) -> Bool {
    let count = suffix.utf8CodeUnitCount
    guard bytes.count >= count else { return false }
    return suffix.withUTF8Buffer { Array(bytes[(bytes.count - count)...]).elementsEqual($0) }
  }

  static func contains(_ bytes: [UInt8], _ fragment: StaticString) -> Bool {
    fragment.withUTF8Buffer { needle in
      guard needle.count <= bytes.count, let first = needle.first else { return needle.isEmpty }
      var start = 0
      while start + needle.count <= bytes.count {
        if bytes[start] == first, bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        start += 1
      }
      return false
    }
  }

  static func containsAny(_ bytes: [UInt8], _ fragments: [StaticString]) -> Bool {
    fragments.contains { contains(bytes, $0) }
  }

  /// The offsets just past each occurrence of `needle` in `bytes`, in order. A byte loop: Foundation's
  /// `range(of:)` on a `String` goes through `NSString` and was the top of the profile on large
  /// `project.pbxproj` files.
  static func ends(of needle: StaticString, in bytes: [UInt8]) -> [Int] {
    needle.withUTF8Buffer { needle in
      guard let first = needle.first, needle.count <= bytes.count else { return [] }
      var found: [Int] = []
      var start = 0
      let last = bytes.count - needle.count
      while start <= last {
        if bytes[start] == first, bytes[start..<(start + needle.count)].elementsEqual(needle) {
          found.append(start + needle.count)
          start += needle.count
        } else {
          start += 1
        }
      }
      return found
    }
  }
}
