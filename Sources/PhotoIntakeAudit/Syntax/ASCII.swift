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

  static func contains(_ bytes: ArraySlice<UInt8>, _ fragment: StaticString) -> Bool {
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
    guard let rest = needle.baseAddress, let base = haystack.baseAddress, !needle.isEmpty,
      needle.count <= haystack.count
    else { return nil }
    // `memchr` finds each place of the needle's least common byte (vectorised in the C library), `memcmp`
    // checks the whole needle around it. Anchored on a common byte (`.` of `.raw`, the `e` of most
    // words), `memchr` would stop every few dozen bytes of Swift code.
    let anchor = anchorOffset(needle)
    let byte = Int32(needle[anchor])
    let last = haystack.count - needle.count
    var index = start
    while index <= last {
      guard let found = memchr(base + index + anchor, byte, last - index + 1) else { return nil }
      let candidate = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base - anchor
      if needle.count == 1 || memcmp(base + candidate, rest, needle.count) == 0 { return candidate }
      index = candidate + 1
    }
    return nil
  }

  /// The offset in `needle` of its least common byte in Swift source (the first of equals), by
  /// ``commonBytes``.
  private static func anchorOffset(_ needle: UnsafeBufferPointer<UInt8>) -> Int {
    var best = 0
    var bestRank = Int.max
    for (offset, byte) in needle.enumerated() {
      let rank = commonness[Int(byte)]
      if rank < bestRank { (best, bestRank) = (offset, rank) }
    }
    return best
  }

  /// Bytes of Swift source from the most common (space, `e`, `t`, …), counted on 30 MB of public iOS
  /// projects; a byte not listed is rarer than all of them.
  private static let commonBytes: StaticString =
    " etiaronsl\ncdu.pmgfh:A)(/wCvybIS=,9{}\"VPTUxDk*0RBMLFN1-OE2_?zG[]"
  /// Per byte value, how common it is: the higher, the more common (0 for bytes ``commonBytes`` does not
  /// list).
  private static let commonness: [Int] = commonBytes.withUTF8Buffer { listed in
    var rank = [Int](repeating: 0, count: 256)
    for (position, byte) in listed.enumerated() { rank[Int(byte)] = listed.count - position }
    return rank
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
