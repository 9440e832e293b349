/// Where a JPEG stream keeps its metadata: the segments PhotoMetadata reads or rewrites.
struct JPEGLayout {
  static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]
  static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
  static let iccSignature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
  static let mpfSignature: [UInt8] = Array("MPF".utf8) + [0]
  /// ISO 21496-1 gain-map metadata in APP2 (ISO/TS 21496-1 Annex C, as Ultra HDR 1.1 and Android 15 write).
  static let isoGainMapSignature: [UInt8] = Array("urn:iso:std:iso:ts:21496:-1".utf8) + [0]

  var width: Int?
  var height: Int?
  /// Absolute position of the TIFF header inside the first EXIF APP1 segment (EXIF 2.32 §4.5.4), and
  /// the segment's payload bytes from there on.
  var exif: (base: Int, bytes: [UInt8])?
  /// Absolute position and bytes of each standard XMP packet in APP1 (XMP Part 3 §1.1.3).
  var xmp: [(position: Int, bytes: [UInt8])] = []
  var hasICCProfile = false
  /// Absolute position of the MPF TIFF header in APP2 (CIPA DC-007 §5.2) and the bytes from there.
  var mpf: (base: Int, bytes: [UInt8])?
  /// Whether an APP2 segment carries ISO 21496-1 gain-map metadata.
  var hasISOGainMapMetadata = false

  /// Reads the segments before the image data of the JPEG stream at `start`.
  init(_ input: Input, from start: Int = 0, limits: MetadataReader.Limits) throws(MetadataError) {
    for segment in try JPEGSegments.read(input, from: start, limits: limits) {
      if segment.isStartOfFrame, width == nil {
        // SOFn: P (1 byte), Y (2), X (2) (ITU T.81 §B.2.2). Y = 0 means "defined by DNL" and stays unknown.
        let header = try input.read(at: segment.payload.lowerBound, count: min(5, segment.payload.count))
        guard header.count == 5 else { throw .corrupt("SOF segment shorter than its header") }
        let y = Int(header.u16(at: 1, bigEndian: true)), x = Int(header.u16(at: 3, bigEndian: true))
        width = x == 0 ? nil : x
        height = y == 0 ? nil : y
      } else if segment.marker == 0xE1 {
        let payload = try input.read(at: segment.payload.lowerBound, count: segment.payload.count)
        if exif == nil, payload.matches(Self.exifSignature, at: 0) {
          exif = (segment.payload.lowerBound + 6, Array(payload[6...]))
        } else if payload.matches(Self.xmpSignature, at: 0) {
          xmp.append(
            (segment.payload.lowerBound + Self.xmpSignature.count, Array(payload[Self.xmpSignature.count...]))
          )
        }
      } else if segment.marker == 0xE2 {
        let head = try input.read(
          at: segment.payload.lowerBound, count: min(Self.isoGainMapSignature.count, segment.payload.count))
        if head.matches(Self.iccSignature, at: 0) {
          hasICCProfile = true
        } else if head.matches(Self.isoGainMapSignature, at: 0) {
          hasISOGainMapMetadata = true
        } else if mpf == nil, head.matches(Self.mpfSignature, at: 0) {
          let payload = try input.read(at: segment.payload.lowerBound, count: segment.payload.count)
          mpf = (segment.payload.lowerBound + 4, Array(payload[4...]))
        }
      }
    }
  }
}
