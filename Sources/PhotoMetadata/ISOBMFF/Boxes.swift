/// A box (QuickTime: atom) header, ISO/IEC 14496-12 §4.2: 32-bit size and type, a 64-bit `largesize` when
/// size is 1, "to the end of the enclosing container" when size is 0.
struct Box {
  let type: String
  /// Absolute position of the header.
  let position: Int
  let headerSize: Int
  /// Absolute end (exclusive).
  let end: Int

  var payload: Range<Int> { (position + headerSize)..<end }
  var size: Int { end - position }
}

/// Counts boxes across a whole parse so that the total, not only each level, is capped.
struct BoxBudget {
  let limits: MetadataReader.Limits
  var visited = 0

  init(_ limits: MetadataReader.Limits) { self.limits = limits }

  mutating func charge(depth: Int) throws(MetadataError) {
    visited += 1
    guard visited <= limits.maxBoxes else { throw .limitExceeded("\(limits.maxBoxes) boxes") }
    guard depth <= limits.maxBoxDepth else { throw .limitExceeded("boxes nested \(depth) deep") }
  }
}

enum Boxes {
  /// A four-character code as text, byte for byte (ISO 8859-1), so that QuickTime's "©xyz" (0xA9) survives.
  static func fourCC(_ bytes: ArraySlice<UInt8>) -> String {
    String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
  }

  /// The boxes directly inside `range` of `input`.
  ///
  /// - Parameter isFile: whether `range` is the whole file. There, a box past the end means the file is
  ///   `.truncated`; inside a box it means the box is `.corrupt`. Inside a box, fewer than 8 bytes or a
  ///   zero size end the list (QuickTime user-data lists end with a 32-bit zero).
  static func children(
    of range: Range<Int>, in input: Input, isFile: Bool, depth: Int, budget: inout BoxBudget,
    first: Bool = false
  ) throws(MetadataError) -> [Box] {
    var boxes: [Box] = []
    var position = range.lowerBound
    while position < range.upperBound {
      let remaining = range.upperBound - position
      if remaining < 8 {
        if isFile { throw .truncated }
        break
      }
      let head = try input.read(at: position, count: 8)
      let size32 = Int(head.u32(at: 0, bigEndian: true))
      let type = fourCC(head[4..<8])
      var headerSize = 8
      let size: Int
      switch size32 {
      case 0:
        if !isFile { return boxes }
        size = remaining
      case 1:
        guard remaining >= 16 else {
          throw isFile ? .truncated : .corrupt("box '\(type)' largesize cut short")
        }
        let large = try input.read(at: position + 8, count: 8)
        let value =
          UInt64(large.u32(at: 0, bigEndian: true)) << 32 | UInt64(large.u32(at: 4, bigEndian: true))
        guard value <= UInt64(Int.max / 2) else { throw .corrupt("box '\(type)' largesize \(value)") }
        size = Int(value)
        headerSize = 16
      default:
        size = size32
      }
      if type == "uuid" { headerSize += 16 }
      guard size >= headerSize else {
        throw .corrupt("box '\(type)' size \(size) is smaller than its header")
      }
      guard size <= remaining else {
        throw isFile ? .truncated : .corrupt("box '\(type)' overruns its parent")
      }
      try budget.charge(depth: depth)
      boxes.append(Box(type: type, position: position, headerSize: headerSize, end: position + size))
      if first { return boxes }
      position += size
    }
    return boxes
  }

  /// The boxes directly inside `range`, as ``children(of:in:isFile:depth:budget:)``, up to the first box
  /// that cannot be delimited (a size smaller than its header, one that overruns its parent or the file):
  /// the boxes before it, and why the list stopped. A box cut by the end of the file is kept, ending at the
  /// end of the file, so that a file cut inside its media data still shows the boxes before the cut.
  ///
  /// Readers use it where the boxes after a damaged one are optional to the facts (exiftool reads such files
  /// the same way); limits still throw.
  static func childrenTolerating(
    of range: Range<Int>, in input: Input, isFile: Bool, depth: Int, budget: inout BoxBudget
  ) throws(MetadataError) -> (boxes: [Box], damage: MetadataError?) {
    var boxes: [Box] = []
    var position = range.lowerBound
    while position < range.upperBound {
      do {
        let next = try children(
          of: position..<range.upperBound, in: input, isFile: isFile, depth: depth, budget: &budget,
          first: true)
        guard let box = next.first else { return (boxes, nil) }
        boxes.append(box)
        position = box.end
      } catch {
        switch error {
        case .truncated where isFile:
          // The box at `position` runs past the end of the file: keep it, cut at the end.
          let head = try input.readAvailable(at: position, count: 8)
          if head.count == 8 {
            try budget.charge(depth: depth)
            boxes.append(
              Box(type: fourCC(head[4..<8]), position: position, headerSize: 8, end: range.upperBound))
          }
          return (boxes, error)
        case .truncated, .corrupt: return (boxes, error)
        default: throw error
        }
      }
    }
    return (boxes, nil)
  }

  /// The payload of a full box (§4.2: version, 24-bit flags) as a reader positioned after the flags.
  static func fullBox(_ box: Box, in input: Input, limit: Int) throws(MetadataError) -> (
    version: UInt8, ByteReader
  ) {
    guard box.payload.count >= 4 else { throw .corrupt("box '\(box.type)' has no version") }
    guard box.payload.count <= limit else {
      throw .limitExceeded("a \(box.payload.count)-byte '\(box.type)' box")
    }
    let bytes = try input.read(at: box.payload.lowerBound, count: box.payload.count)
    let reader = ByteReader(
      bytes, at: 4, shortError: .corrupt("box '\(box.type)' is shorter than its fields"))
    return (bytes[0], reader)
  }
}
