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

  /// The first SOF segment, found by the walk that found the size the bomb guard checked (PhotoMetadata's,
  /// past the same extraneous bytes between segments); nil when there is none before the image data.
  private static func jpegFrame(_ file: HeaderFile) throws(ImagingError) -> JPEGFrame? {
    let header: JPEGFrameHeader?
    do {
      header = try JPEGFrameHeader.read(fileAt: file.path)
    } catch {
      // The metadata read of the same headers succeeded a moment ago; only the file's I/O can fail now.
      if case .io(let code) = error { throw .ioError(operation: "read", code: code) }
      return nil
    }
    guard let header, !header.sampling.isEmpty else { return nil }
    return JPEGFrame(
      process: header.marker & 0x0F, width: header.width, height: header.height,
      sampling: header.sampling.map { JPEGFrame.Sampling(horizontal: $0.horizontal, vertical: $0.vertical) })
  }
}
