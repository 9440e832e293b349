import Foundation
import PhotoMetadata

/// What imaging needs from an EXIF block: orientation, the IFD1 thumbnail, and the camera and capture date for
/// the contact sheet.
struct ExifFacts: Sendable, Hashable {
  var orientation: Orientation?
  var make: String?
  var model: String?
  var captureDate: CaptureDate?
  /// The IFD1 JPEG thumbnail's bytes, as offsets from the start of the TIFF header.
  var thumbnail: Range<Int>?
}

/// Reads the few EXIF tags imaging needs from a TIFF structure (EXIF 2.32 §4.5, TIFF 6.0 §2).
///
/// Damaged EXIF is never an error: a picture decodes without it. Whatever can be read is returned.
enum ExifReader {
  /// Parses the TIFF header and IFDs in `tiff` (the bytes after "Exif\0\0" in a JPEG APP1 segment, a PNG
  /// eXIf chunk, or a WebP EXIF chunk).
  static func read(_ tiff: [UInt8]) -> ExifFacts {
    var facts = ExifFacts()
    guard tiff.count >= 8 else { return facts }
    let little: Bool
    switch (tiff[0], tiff[1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return facts
    }
    let view = ByteView(tiff, littleEndian: little)
    guard view.u16(2) == 42, let ifd0 = view.u32(4) else { return facts }
    var dateTimeOriginal: String?
    var offsetTimeOriginal: String?

    let ifd0Entries = entries(view, at: ifd0)
    for entry in ifd0Entries {
      switch entry.tag {
      case 0x0112:  // Orientation (EXIF 2.32 §4.6.5)
        facts.orientation = entry.integer(view).flatMap(Orientation.init(rawValue:))
      case 0x010F: facts.make = entry.ascii(view)
      case 0x0110: facts.model = entry.ascii(view)
      case 0x8769:  // Exif IFD pointer
        for sub in entries(view, at: entry.integer(view) ?? -1) {
          if sub.tag == 0x9003 { dateTimeOriginal = sub.ascii(view) }
          if sub.tag == 0x9011 { offsetTimeOriginal = sub.ascii(view) }
        }
      default: break
      }
    }
    // IFD1 follows IFD0; it describes the thumbnail (EXIF 2.32 §4.5.4, JPEGInterchangeFormat 0x0201/0x0202).
    if let next = nextIFDOffset(view, after: ifd0), next != 0, next != ifd0 {
      var offset: Int?
      var length: Int?
      for entry in entries(view, at: next) {
        if entry.tag == 0x0201 { offset = entry.integer(view) }
        if entry.tag == 0x0202 { length = entry.integer(view) }
      }
      if let offset, let length, offset > 0, length > 0, offset + length <= tiff.count {
        facts.thumbnail = offset..<(offset + length)
      }
    }
    if let dateTimeOriginal { facts.captureDate = captureDate(dateTimeOriginal, offset: offsetTimeOriginal) }
    return facts
  }

  struct Entry {
    var tag: Int
    var type: Int
    var count: Int
    /// Where the value is: inside the entry when it fits in 4 bytes, else at the offset the entry holds.
    var valueOffset: Int

    func integer(_ view: ByteView) -> Int? {
      switch type {
      case 3: view.u16(valueOffset)  // SHORT
      case 4: view.u32(valueOffset)  // LONG
      default: nil
      }
    }

    func ascii(_ view: ByteView) -> String? {
      guard type == 2, count > 0, count < 4096 else { return nil }
      let raw = view.slice(valueOffset, count)
      let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        .trimmingCharacters(in: .whitespaces)
      return text.isEmpty ? nil : text
    }
  }

  /// The entries of the IFD at `offset`, or none when the offset or count is out of range.
  static func entries(_ view: ByteView, at offset: Int) -> [Entry] {
    guard offset >= 8, let count = view.u16(offset), count > 0, count < 1000,
      offset + 2 + count * 12 <= view.count
    else { return [] }
    var result: [Entry] = []
    for index in 0..<count {
      let at = offset + 2 + index * 12
      guard let tag = view.u16(at), let type = view.u16(at + 2), let count = view.u32(at + 4) else { break }
      let size = [1: 1, 2: 1, 3: 2, 4: 4, 7: 1][type].map { $0 * count } ?? 5
      let valueOffset = size <= 4 ? at + 8 : (view.u32(at + 8) ?? -1)
      result.append(Entry(tag: tag, type: type, count: count, valueOffset: valueOffset))
    }
    return result
  }

  static func nextIFDOffset(_ view: ByteView, after offset: Int) -> Int? {
    guard let count = view.u16(offset) else { return nil }
    return view.u32(offset + 2 + count * 12)
  }

  /// "YYYY:MM:DD HH:MM:SS" (EXIF 2.32 §4.6.6, DateTimeOriginal) with "+HH:MM" (OffsetTimeOriginal).
  static func captureDate(_ text: String, offset: String?) -> CaptureDate? {
    let digits = Array(text.utf8)
    guard digits.count >= 19, digits[4] == 0x3A, digits[7] == 0x3A, digits[13] == 0x3A, digits[16] == 0x3A,
      String(decoding: digits[0..<4], as: UTF8.self) != "0000"
    else { return nil }
    let date =
      String(decoding: digits[0..<4], as: UTF8.self) + "-"
      + String(decoding: digits[5..<7], as: UTF8.self) + "-" + String(decoding: digits[8..<10], as: UTF8.self)
    let local = date + "T" + String(decoding: digits[11..<19], as: UTF8.self)
    var seconds: Int?
    if let offset, offset.utf8.count == 6, let sign = offset.first, sign == "+" || sign == "-",
      let hours = Int(offset.dropFirst().prefix(2)), let minutes = Int(offset.suffix(2))
    {
      seconds = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
    return CaptureDate(local: local, offsetSeconds: seconds)
  }
}
