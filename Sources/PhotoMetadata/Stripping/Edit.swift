/// A change to a file: `range` of the original is replaced by `replacement`. Patches keep the length (so
/// every offset in the file stays valid); removals drop whole chunks where the format has no offsets (PNG).
struct Edit {
  var range: Range<Int>
  var replacement: [UInt8]

  var isPatch: Bool { range.count == replacement.count }

  static func patch(at offset: Int, _ bytes: [UInt8]) -> Edit {
    Edit(range: offset..<(offset + bytes.count), replacement: bytes)
  }

  static func fill(_ range: Range<Int>, with byte: UInt8) -> Edit {
    Edit(range: range, replacement: [UInt8](repeating: byte, count: range.count))
  }

  func shifted(by offset: Int) -> Edit {
    Edit(range: (range.lowerBound + offset)..<(range.upperBound + offset), replacement: replacement)
  }
}

/// The edits that remove a file's location, and what they remove.
struct StripPlan {
  var edits: [Edit] = []
  var removed: [String] = []

  mutating func add(_ other: StripPlan) {
    edits += other.edits
    removed += other.removed
  }

  mutating func add(_ other: StripPlan, shiftedBy offset: Int) {
    edits += other.edits.map { $0.shifted(by: offset) }
    removed += other.removed
  }

  /// Maps edits made on an item's joined bytes onto the file ranges the item is stored in (HEIF `iloc`
  /// extents), splitting an edit that straddles two extents.
  mutating func add(_ other: StripPlan, through ranges: [Range<Int>]) throws(MetadataError) {
    for edit in other.edits {
      guard edit.isPatch else { throw .cannotStrip("an item cannot change size") }
      var logical = 0
      for range in ranges {
        let piece = logical..<(logical + range.count)
        let overlap = piece.clamped(to: edit.range)
        if !overlap.isEmpty {
          let bytes = Array(
            edit.replacement[
              (overlap.lowerBound - edit.range.lowerBound)..<(overlap.upperBound - edit.range.lowerBound)])
          edits.append(.patch(at: range.lowerBound + overlap.lowerBound - logical, bytes))
        }
        logical += range.count
      }
    }
    removed += other.removed
  }

  /// Sorted edits with overlapping patches merged (a later patch wins where two overlap).
  func normalized(original: (Range<Int>) throws(MetadataError) -> [UInt8]) throws(MetadataError) -> [Edit] {
    var result: [Edit] = []
    for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
      guard let last = result.last, last.range.overlaps(edit.range) else {
        result.append(edit)
        continue
      }
      guard last.isPatch, edit.isPatch else { throw .cannotStrip("overlapping edits") }
      let union = last.range.lowerBound..<max(last.range.upperBound, edit.range.upperBound)
      var bytes = try original(union)
      for piece in [last, edit] {
        bytes.replaceSubrange(
          (piece.range.lowerBound - union.lowerBound)..<(piece.range.upperBound - union.lowerBound),
          with: piece.replacement)
      }
      result[result.count - 1] = Edit(range: union, replacement: bytes)
    }
    return result
  }
}
