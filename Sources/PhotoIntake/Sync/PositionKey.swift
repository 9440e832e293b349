/// A place in a batch's order that two devices can make without talking to each other: a string of base-62
/// digits read as a fraction (`"V"` is 0.5), compared as plain strings.
///
/// Moving one photo changes only that photo's key, to one strictly between its new neighbours' keys, so a move
/// made on one device and a move of another photo made on another device both survive the merge (see
/// `BatchMembership`). There is always room between two keys: a key never ends in the smallest digit, so
/// ``between(_:_:)`` can always append a digit (the fractional indexing of Greenspan's "Implementing
/// Fractional Indexing", 2020, with base-62 digits).
///
/// Two devices that move two different photos into the same gap at once make equal keys; the order of such a
/// tie is decided by the photos' SHA-256, the same way on every device.
package struct PositionKey: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible
{
  package let rawValue: String

  package init(rawValue: String) { self.rawValue = rawValue }

  /// The digits, in ASCII order so that string order is numeric order.
  static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
  private static let base = digits.count

  package static func < (lhs: PositionKey, rhs: PositionKey) -> Bool { lhs.rawValue < rhs.rawValue }
  package var description: String { rawValue }

  /// The key of the `index`-th photo of a batch that has never been reordered: four digits of the index then
  /// a middle digit, so that keys of consecutive indexes are ordered, never end in "0", and leave room
  /// between them (62⁴ = 14.7 million places).
  package static func initial(_ index: Int) -> PositionKey {
    var value = max(0, min(index, 62 * 62 * 62 * 62 - 1))
    var text = [UInt8](repeating: digits[0], count: 4)
    for slot in stride(from: 3, through: 0, by: -1) {
      text[slot] = digits[value % base]
      value /= base
    }
    return PositionKey(rawValue: String(decoding: text + [digits[base / 2]], as: UTF8.self))
  }

  /// A key strictly between `lower` and `upper` (nil: the start or the end of the order).
  ///
  /// When `lower` is not below `upper` (two devices' keys crossed), the result is just above `lower`: the
  /// merge breaks the tie, and the order stays deterministic.
  package static func between(_ lower: PositionKey?, _ upper: PositionKey?) -> PositionKey {
    let low = lower.map { digitValues($0.rawValue) } ?? []
    var high = upper.map { digitValues($0.rawValue) }
    if let upper = high, !(low.lexicographicallyPrecedes(upper)) { high = nil }
    return PositionKey(rawValue: String(decoding: midpoint(low, high).map { digits[$0] }, as: UTF8.self))
  }

  /// The keys for `count` photos in a row between `lower` and `upper`, in order.
  package static func sequence(_ count: Int, between lower: PositionKey?, _ upper: PositionKey?)
    -> [PositionKey]
  {
    var keys: [PositionKey] = []
    var previous = lower
    for _ in 0..<count {
      let key = between(previous, upper)
      keys.append(key)
      previous = key
    }
    return keys
  }

  private static func digitValues(_ text: String) -> [Int] {
    text.utf8.map { byte in digits.firstIndex(of: byte) ?? 0 }
  }

  /// The digits of a fraction between `low` (missing digits are 0) and `high` (nil: 1), neither of which ends
  /// in 0, such that the result does not end in 0 either.
  private static func midpoint(_ low: [Int], _ high: [Int]?) -> [Int] {
    if let high {
      // A common prefix stays; the rest is the midpoint of what follows it.
      var shared = 0
      while shared < high.count, (shared < low.count ? low[shared] : 0) == high[shared] { shared += 1 }
      if shared > 0 {
        return Array(high[..<shared])
          + midpoint(Array(low.dropFirst(min(shared, low.count))), Array(high.dropFirst(shared)))
      }
    }
    let first = low.first ?? 0
    let limit = high?.first ?? base
    if limit - first > 1 { return [(first + limit) / 2] }
    // Consecutive first digits: `high`'s first digit alone is between when `high` goes on (it never ends in 0);
    // otherwise keep `low`'s first digit and go one digit deeper, with no upper bound there.
    if let high, high.count > 1 { return [high[0]] }
    return [first] + midpoint(Array(low.dropFirst()), nil)
  }
}
