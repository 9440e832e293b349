/// Apple's maker note: "Apple iOS\0", a version, "MM", then a big-endian IFD whose value offsets count from
/// the start of the note. Tag 0x0011 holds the Live Photo content identifier that pairs a still with its
/// movie's `com.apple.quicktime.content.identifier` (not in the EXIF specification; documented by Apple's
/// ImageIO `kCGImagePropertyMakerAppleDictionary` and exiftool's Apple tag table).
enum AppleMakerNote {
  static let signature: [UInt8] = Array("Apple iOS".utf8) + [0]
  static let contentIdentifierTag: UInt16 = 0x0011

  /// The content identifier, or nil when the note is not Apple's or is damaged.
  static func contentIdentifier(_ note: [UInt8]) -> String? {
    guard note.matches(signature, at: 0), note.matches([0x4D, 0x4D], at: 12) else { return nil }
    var reader = ByteReader(note, at: 14)
    guard let count = try? reader.u16(), count <= 512 else { return nil }
    for _ in 0..<count {
      guard let tag = try? reader.u16(), let type = try? reader.u16(), let length = try? reader.u32(),
        let value = try? reader.u32()
      else { return nil }
      guard tag == contentIdentifierTag, type == 2, length > 4, length <= 256 else { continue }
      let start = Int(value), end = start + Int(length)
      guard end <= note.count else { return nil }
      var bytes = Array(note[start..<end])
      if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
      let text = String(decoding: bytes, as: UTF8.self).trimmingSpaces()
      return text.isEmpty ? nil : text
    }
    return nil
  }
}
