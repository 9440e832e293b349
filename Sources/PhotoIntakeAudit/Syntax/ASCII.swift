#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
      guard !needle.isEmpty else { return true }
      return bytes.withUnsafeBufferPointer { offset(of: needle, in: $0, from: 0) != nil }
    }
  }

  /// The first offset at or after `start` where `needle` (not empty) occurs in `haystack`: a byte loop on
  /// buffers, which project files of megabytes are searched with many times.
  private static func offset(
    of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, from start: Int
  ) -> Int? {
    guard let first = needle.first, let rest = needle.baseAddress, let base = haystack.baseAddress,
      needle.count <= haystack.count
    else { return nil }
    let last = haystack.count - needle.count
    var index = start
    // `memchr` finds each candidate first byte (vectorised in the C library), `memcmp` checks the rest.
    while index <= last {
      guard let found = memchr(base + index, Int32(first), last - index + 1) else { return nil }
      let candidate = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
      if needle.count == 1 || memcmp(base + candidate + 1, rest + 1, needle.count - 1) == 0 {
        return candidate
      }
      index = candidate + 1
    }
    return nil
  }

  static func containsAny(_ bytes: [UInt8], _ fragments: [StaticString]) -> Bool {
    fragments.contains { contains(bytes, $0) }
  }

  /// The offsets just past each occurrence of `needle` in `bytes`, in order. A byte loop: Foundation's
  /// `range(of:)` on a `String` goes through `NSString` and was the top of the profile on large
  /// `project.pbxproj` files.
  static func ends(of needle: StaticString, in bytes: [UInt8]) -> [Int] {
    needle.withUTF8Buffer { needle in
      guard !needle.isEmpty else { return [] }
      return bytes.withUnsafeBufferPointer { haystack in
        var found: [Int] = []
        var start = 0
        while let match = offset(of: needle, in: haystack, from: start) {
          found.append(match + needle.count)
          start = match + needle.count
        }
        return found
      }
    }
  }
}
