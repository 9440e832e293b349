import Testing

@testable import PhotoIntakeAudit

/// `WordHashSet` keeps word hashes without hashing them again: it must answer as `Set<UInt64>` does, through
/// its growth, for 0 (its empty-slot marker), and for values that share their high bits (one probe run).
struct WordHashSetTests {
  @Test func answersAsASetDoes() {
    var generator = SystemRandomNumberGenerator()
    var set = WordHashSet()
    var reference: Set<UInt64> = []
    // Random values, small values, 0, values differing only in their low bits, and repeats of each.
    var values = (0..<20_000).map { _ in UInt64.random(in: .min ... .max, using: &generator) }
    values += (0..<500).map { UInt64($0) }
    values += (0..<500).map { 0xABCD_0000_0000_0000 | UInt64($0) }
    values += values.prefix(3_000)
    for (index, value) in values.enumerated() {
      set.insert(value)
      reference.insert(value)
      if index % 997 == 0 {
        #expect(set.contains(value))
      }
    }
    for value in values { #expect(set.contains(value), "\(value)") }
    // Values never inserted are absent.
    var absent = 0
    for _ in 0..<20_000 {
      let value = UInt64.random(in: .min ... .max, using: &generator)
      #expect(set.contains(value) == reference.contains(value))
      if !reference.contains(value) { absent += 1 }
    }
    #expect(absent > 19_000)
    #expect(!WordHashSet().contains(0))
    #expect(!WordHashSet().contains(42))
  }
}
