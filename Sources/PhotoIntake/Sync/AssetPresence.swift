/// Whether a photo is in the library, as its record says across devices: the stamp of the last import and of
/// the last removal, each with the device that made it. The photo is there when its last import is later than
/// its last removal.
///
/// A removal does not delete the record: it saves a **tombstone**, the record with a removal stamp and without
/// its bytes (which frees the user's iCloud storage). So an import and a removal of the same photo made at once
/// on two devices meet in one record, and the later one wins on every device, in whatever order they arrive —
/// a deletion, which CloudKit applies unconditionally, would let whichever device sent last decide. Merging
/// takes the later of each stamp, so it is commutative, associative and idempotent.
package struct AssetPresence: Sendable, Hashable {
  /// A stamp of a `HybridLogicalClock` and the device that made it; ordered by stamp, then device.
  package struct Mark: Sendable, Hashable, Comparable {
    package var stamp: Int64
    package var device: String

    package init(stamp: Int64, device: String) {
      self.stamp = stamp
      self.device = device
    }

    /// No mark: before every other.
    package static let none = Mark(stamp: 0, device: "")

    package static func < (lhs: Mark, rhs: Mark) -> Bool { (lhs.stamp, lhs.device) < (rhs.stamp, rhs.device) }
  }

  /// The last import.
  package var added: Mark
  /// The last removal.
  package var removed: Mark

  package init(added: Mark = .none, removed: Mark = .none) {
    self.added = added
    self.removed = removed
  }

  /// Whether the photo is in the library.
  package var isPresent: Bool { added > removed }

  /// Both merged: the later of each mark.
  package func merged(with other: AssetPresence) -> AssetPresence {
    AssetPresence(added: max(added, other.added), removed: max(removed, other.removed))
  }

  /// The later of the two stamps, for the clock to observe.
  package var latestStamp: Int64 { max(added.stamp, removed.stamp) }
}
