/// One marker segment of a JPEG stream (ITU T.81 §B.1.1.4): the marker and its payload after the length.
struct JPEGSegment {
  let marker: UInt8
  /// Absolute position of the 0xFF that starts the marker.
  let position: Int
  /// Absolute range of the payload (after the 2-byte length).
  let payload: Range<Int>

  /// SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) (ITU T.81 Table B.1).
  var isStartOfFrame: Bool {
    marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
  }
}

enum JPEGSegments {
  static let startOfScan: UInt8 = 0xDA
  static let endOfImage: UInt8 = 0xD9

  /// The segments of the JPEG stream starting at `start`, up to and including the first SOS; the
  /// entropy-coded data after it is never read.
  ///
  /// - Throws: `.corrupt` without SOI or with a length below 2, `.truncated` when a segment runs past the
  ///   end, `.limitExceeded` after `maxSegments` segments.
  static func read(_ input: Input, from start: Int = 0, limits: MetadataReader.Limits) throws(MetadataError)
    -> [JPEGSegment]
  {
    let soi = try input.read(at: start, count: 2)
    guard soi == [0xFF, 0xD8] else { throw .corrupt("no JPEG start-of-image marker") }
    var segments: [JPEGSegment] = []
    var position = start + 2
    while true {
      guard segments.count < limits.maxSegments else {
        throw .limitExceeded("\(limits.maxSegments) JPEG segments")
      }
      let head = try input.read(at: position, count: 2)
      guard head[0] == 0xFF else { throw .corrupt("no marker at offset \(position)") }
      let marker = head[1]
      // Fill bytes: any number of 0xFF may precede a marker (ITU T.81 §B.1.1.2).
      if marker == 0xFF {
        position += 1
        continue
      }
      // Markers without a length: TEM and RSTn (ITU T.81 §B.1.1.3).
      if marker == 0x01 || (0xD0...0xD7).contains(marker) {
        position += 2
        continue
      }
      if marker == endOfImage || marker == 0xD8 || marker == 0x00 {
        throw .corrupt("marker 0x\(String(marker, radix: 16)) before the image data")
      }
      let lengthBytes = try input.read(at: position + 2, count: 2)
      let length = Int(lengthBytes.u16(at: 0, bigEndian: true))
      guard length >= 2 else { throw .corrupt("segment 0x\(String(marker, radix: 16)) has length \(length)") }
      let payloadStart = position + 4
      let end = position + 2 + length
      guard end <= input.size else { throw .truncated }
      segments.append(JPEGSegment(marker: marker, position: position, payload: payloadStart..<end))
      if marker == startOfScan { return segments }
      position = end
    }
  }
}
