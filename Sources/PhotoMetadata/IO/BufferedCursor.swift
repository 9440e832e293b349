/// Sequential reads of small fields through a 64 KiB window, for formats made of many tiny blocks (GIF
/// sub-blocks), so that each byte does not cost a system call.
struct BufferedCursor {
  let input: Input
  private(set) var position: Int
  private var window: [UInt8] = []
  private var windowStart = 0
  private static let windowSize = 64 << 10

  init(_ input: Input, at position: Int) {
    self.input = input
    self.position = position
  }

  mutating func u8() throws(MetadataError) -> UInt8 {
    if position < windowStart || position >= windowStart + window.count {
      window = try input.readAvailable(at: position, count: Self.windowSize)
      windowStart = position
      guard !window.isEmpty else { throw .truncated }
    }
    defer { position += 1 }
    return window[position - windowStart]
  }

  mutating func bytes(_ count: Int) throws(MetadataError) -> [UInt8] {
    if position >= windowStart, position + count <= windowStart + window.count {
      defer { position += count }
      return Array(window[(position - windowStart)..<(position - windowStart + count)])
    }
    defer { position += count }
    return try input.read(at: position, count: count)
  }

  mutating func skip(_ count: Int) throws(MetadataError) {
    guard count <= input.size - position else { throw .truncated }
    position += count
  }
}
