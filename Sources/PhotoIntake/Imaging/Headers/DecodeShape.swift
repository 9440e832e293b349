import PhotoMetadata

/// What the headers say about the cost of a decode beyond the declared size: frames and tiles
/// (``PhotoMetadata/CanvasScanner/Survey``), a JPEG's frame header, a PNG's pixel layout. ``DecodeCost`` turns
/// it into bytes and work.
package struct DecodeShape: Sendable, Hashable {
  /// A JPEG frame header (ITU-T T.81 §B.2.2): the coding process and each component's sampling factors.
  package struct JPEGFrame: Sendable, Hashable {
    /// The SOF marker's low nibble (0 baseline, 1 extended, 2 progressive, 3 lossless; +4, +8, +12 for the
    /// differential and arithmetic variants).
    var process: UInt8
    var width: Int
    var height: Int
    /// Each component's sampling factors.
    var sampling: [Sampling]

    /// A component's horizontal and vertical sampling factors (T.81 §A.1.1).
    struct Sampling: Sendable, Hashable {
      var horizontal: Int
      var vertical: Int
    }

    /// Progressive (SOF2, SOF6, SOF10, SOF14): libjpeg keeps every coefficient of the whole image until the
    /// last scan (T.81 Annex G), 128 bytes per 8×8 block of each component, whatever the output scale.
    var isProgressive: Bool { process & 0x3 == 2 }
  }

  /// A PNG image header (PNG 3rd ed. §11.2.1 IHDR).
  package struct PNGHeader: Sendable, Hashable {
    var bitDepth: Int
    var colourType: Int
    /// Adam7: a decoder needs the whole image before it has a single complete row.
    var isInterlaced: Bool

    /// Bytes per decoded pixel (samples × bytes per sample).
    var bytesPerPixel: Int {
      let samples = [0: 1, 2: 3, 3: 3, 4: 2, 6: 4][colourType] ?? 4
      return samples * max(1, bitDepth / 8)
    }
  }

  var survey: CanvasScanner.Survey
  var jpeg: JPEGFrame?
  var png: PNGHeader?

  /// Reads the JPEG or PNG frame header from `file` (nothing for other formats).
  static func read(_ file: HeaderFile, type: MediaType, survey: CanvasScanner.Survey) throws(ImagingError)
    -> DecodeShape
  {
    var shape = DecodeShape(survey: survey)
    switch type {
    case .jpeg: shape.jpeg = try jpegFrame(file)
    case .png:
      // Signature (8), IHDR length and type (8), width, height (8), then bit depth, colour type, compression,
      // filter, interlace.
      let ihdr = try file.bytes(at: 24, length: 5)
      if ihdr.count == 5 {
        shape.png = PNGHeader(bitDepth: Int(ihdr[0]), colourType: Int(ihdr[1]), isInterlaced: ihdr[4] == 1)
      }
    default: break
    }
    return shape
  }

  /// The first SOF segment, found by walking the marker segments from SOI (T.81 §B.1.1.4); nil when there
  /// is none within the first 64 segments or 4 MB (the EXIF and ICC segments that precede it are smaller).
  private static func jpegFrame(_ file: HeaderFile) throws(ImagingError) -> JPEGFrame? {
    var offset = 2
    for _ in 0..<64 where offset < min(file.count, 4 << 20) {
      let head = try file.bytes(at: offset, length: 4)
      guard head.count == 4, head[0] == 0xFF else { return nil }
      if head[1] == 0xFF {
        offset += 1  // fill byte (T.81 §B.1.1.2)
        continue
      }
      let marker = head[1]
      let length = Int(head[2]) << 8 | Int(head[3])
      // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC).
      if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
        let body = try file.bytes(at: offset + 4, length: max(0, length - 2))
        guard body.count >= 6 else { return nil }
        let count = Int(body[5])
        guard body.count >= 6 + 3 * count, count > 0 else { return nil }
        let sampling = (0..<count).map { index in
          JPEGFrame.Sampling(
            horizontal: Int(body[6 + 3 * index + 1] >> 4), vertical: Int(body[6 + 3 * index + 1] & 0x0F))
        }
        return JPEGFrame(
          process: marker & 0x0F, width: Int(body[3]) << 8 | Int(body[4]),
          height: Int(body[1]) << 8 | Int(body[2]), sampling: sampling)
      }
      if marker == 0xDA || marker == 0xD9 { return nil }
      offset += 2 + length
    }
    return nil
  }
}
