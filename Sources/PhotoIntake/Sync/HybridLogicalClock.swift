/// A hybrid logical clock (Kulkarni et al., "Logical Physical Clocks", 2014): a time stamp that follows the
/// wall clock but never goes backwards and is always later than every stamp this device has seen from others.
///
/// An order edit is stamped with it, so that when two devices changed the same photo's place the later edit
/// wins, and an edit made after seeing another's always wins over it, whatever the two wall clocks say. A
/// stamp is the wall time in milliseconds times 2¹⁶ plus a counter; equal stamps are ordered by device id.
package struct HybridLogicalClock: Sendable, Hashable {
  /// The last stamp issued or seen.
  package private(set) var last: Int64

  package init(last: Int64 = 0) { self.last = last }

  /// The wall time of `milliseconds` as a stamp with a zero counter.
  package static func stamp(milliseconds: Int64) -> Int64 { max(0, milliseconds) << 16 }

  /// A new stamp, later than every stamp issued or seen: the wall time if it moved on, else one more.
  package mutating func tick(wallMilliseconds: Int64) -> Int64 {
    last = max(Self.stamp(milliseconds: wallMilliseconds), last + 1)
    return last
  }

  /// Takes note of a stamp made by another device, so that the next edit here comes after it.
  package mutating func observe(_ stamp: Int64) {
    last = max(last, stamp)
  }
}
