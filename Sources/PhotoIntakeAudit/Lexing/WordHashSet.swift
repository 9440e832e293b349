/// A set of ``WordTable/hash(_:)`` values: open addressing with linear probing over a power-of-two table.
///
/// The values are hashes already, so they are not hashed again (a `Set<UInt64>` runs SipHash over every
/// one): a multiplication spreads a value's bits over the slot index. ``InterfaceNames`` keeps the tens of
/// thousands of words of a project's storyboards and xibs here, one insertion per word read.
struct WordHashSet: Sendable {
  /// The table; 0 marks an empty slot, so the value 0 is kept in ``holdsZero``.
  private var slots: [UInt64] = Array(repeating: 0, count: 64)
  private var holdsZero = false
  /// Values in ``slots``.
  private var stored = 0

  /// The slot a probe for `value` starts at, from its high bits after a Fibonacci multiplication.
  private func start(_ value: UInt64) -> Int {
    let bits = UInt64(slots.count.trailingZeroBitCount)
    return Int(truncatingIfNeeded: (value &* 0x9E37_79B9_7F4A_7C15) >> (64 - bits))
  }

  func contains(_ value: UInt64) -> Bool {
    if value == 0 { return holdsZero }
    let mask = slots.count - 1
    var slot = start(value)
    while true {
      let held = slots[slot]
      if held == value { return true }
      if held == 0 { return false }
      slot = (slot + 1) & mask
    }
  }

  mutating func insert(_ value: UInt64) {
    if value == 0 {
      holdsZero = true
      return
    }
    // At most half full, so probes stay short.
    if (stored + 1) * 2 > slots.count { grow() }
    let mask = slots.count - 1
    var slot = start(value)
    while true {
      let held = slots[slot]
      if held == value { return }
      if held == 0 {
        slots[slot] = value
        stored += 1
        return
      }
      slot = (slot + 1) & mask
    }
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: 0, count: old.count * 2)
    stored = 0
    for value in old where value != 0 { insert(value) }
  }
}
