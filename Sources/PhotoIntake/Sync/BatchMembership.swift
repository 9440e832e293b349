import Foundation

/// A batch's members and their order as a batch record carries them: for each photo (by SHA-256), its
/// `PositionKey`, whether it was taken out, and the stamp of the edit that set these.
///
/// **The merge** is last-writer-wins per member: of two entries for one photo, the one with the later
/// `HybridLogicalClock` stamp wins, and of equal stamps the one from the greater device id. Because it
/// picks per member and the choice depends only on the two entries, merging is commutative, associative and
/// idempotent (a state-based LWW-map CRDT): every device that has seen the same edits holds the same
/// membership, in whatever order the edits arrived. Moves of different photos on two devices both survive;
/// two moves of the same photo keep the later one; a removal beats an earlier move, a re-import (a later
/// entry) beats an earlier removal.
///
/// **The order** is the live members sorted by key, ties (two devices that moved two photos into the same gap
/// at once) by SHA-256.
package struct BatchMembership: Sendable, Hashable {
  /// One member's entry.
  package struct Entry: Sendable, Hashable {
    package var key: PositionKey
    package var removed: Bool
    package var stamp: Int64
    package var device: String

    package init(key: PositionKey, removed: Bool = false, stamp: Int64, device: String) {
      self.key = key
      self.removed = removed
      self.stamp = stamp
      self.device = device
    }

    /// Whether this entry wins over `other` (a later stamp, or the same stamp from a greater device id; for
    /// a full tie, the greater content, so that the choice never depends on which side is "local").
    package func wins(over other: Entry) -> Bool {
      if stamp != other.stamp { return stamp > other.stamp }
      if device != other.device { return device > other.device }
      if removed != other.removed { return removed }
      return key > other.key
    }
  }

  /// Entries by the member's SHA-256 hex.
  package var entries: [String: Entry]

  package init(entries: [String: Entry] = [:]) { self.entries = entries }

  /// The members in order: live entries by key, then by SHA-256.
  package var order: [String] {
    entries.filter { !$0.value.removed }
      .sorted { ($0.value.key, $0.key) < ($1.value.key, $1.key) }
      .map(\.key)
  }

  /// Both memberships merged, entry by entry (see the type's documentation).
  package func merged(with other: BatchMembership) -> BatchMembership {
    var result = entries
    for (member, theirs) in other.entries {
      if let ours = result[member], !theirs.wins(over: ours) { continue }
      result[member] = theirs
    }
    return BatchMembership(entries: result)
  }

  /// The greatest stamp of any entry (0 when empty), for the clock to observe.
  package var latestStamp: Int64 { entries.values.map(\.stamp).max() ?? 0 }

  // MARK: Encoding

  /// The membership as a record field: one line per member, `sha256 key stamp device removed`, sorted by
  /// SHA-256 so that equal memberships encode to equal text.
  package var encoded: String {
    entries.sorted { $0.key < $1.key }
      .map {
        "\($0.key) \($0.value.key.rawValue) \($0.value.stamp) \($0.value.device) \($0.value.removed ? 1 : 0)"
      }
      .joined(separator: "\n")
  }

  /// Reads ``encoded`` text; lines that are not well-formed are skipped (a newer version may add members in a
  /// form this one does not know, and they must not stop the rest from syncing).
  package init(encoded text: String) {
    var entries: [String: Entry] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: " ")
      guard parts.count >= 5, parts[0].count == 64, SHA256Digest(hex: String(parts[0])) != nil,
        let stamp = Int64(parts[2])
      else { continue }
      let entry = Entry(
        key: PositionKey(rawValue: String(parts[1])), removed: parts[4] == "1", stamp: stamp,
        device: String(parts[3]))
      let member = String(parts[0])
      if let existing = entries[member], !entry.wins(over: existing) { continue }
      entries[member] = entry
    }
    self.entries = entries
  }
}
