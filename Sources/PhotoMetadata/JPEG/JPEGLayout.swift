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
  /// The first frame header, the one the size comes from.
  var frame: JPEGFrameHeader?
  /// Runs of extraneous bytes skipped between segments (``JPEGSegments/walk(_:from:limits:toleratingCut:)``).
  var extraneous: [Range<Int>] = []
  /// Where the file ends before its scan header is whole, when read with `toleratingCut`.
  var cutAt: Int?
  /// Whether the walk stopped at ``cutAt`` on damage rather than at the end of the file.
  var cutIsDamage = false
  /// What that damage is, when the walk names it (``JPEGSegments/Walk/cutReason``).
  var cutReason: String?

  /// Reads the segments before the image data of the JPEG stream at `start`.
  ///
  /// - Parameter toleratingCut: as ``JPEGSegments/walk(_:from:limits:toleratingCut:)``.
  init(_ input: Input, from start: Int = 0, limits: MetadataReader.Limits, toleratingCut: Bool = false)
    throws(MetadataError)
  {
    let walk = try JPEGSegments.walk(input, from: start, limits: limits, toleratingCut: toleratingCut)
    extraneous = walk.extraneous
    cutAt = walk.cutAt
    cutIsDamage = walk.cutIsDamage
    cutReason = walk.cutReason
    for segment in walk.segments {
      if segment.isStartOfFrame, frame == nil {
        let header = try JPEGFrameHeader(input, segment)
        frame = header
        // Y = 0 means "defined by DNL" (ITU T.81 §B.2.5) and stays unknown.
        width = header.width == 0 ? nil : header.width
        height = header.height == 0 ? nil : header.height
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

/// A JPEG frame header (ITU T.81 §B.2.2): the coding process, the size and each component's sampling factors.
///
/// Imaging prices a decode from it (a progressive frame keeps every coefficient), so it is found by the same
/// walk as the size the bomb guard checks, past the same extraneous bytes.
package struct JPEGFrameHeader: Sendable, Hashable {
  /// The SOFn marker (0xC0 baseline, 0xC2 progressive, …).
  package var marker: UInt8
  /// X: samples per line.
  package var width: Int
  /// Y: lines; 0 when a DNL segment defines it later.
  package var height: Int
  /// Each component's horizontal and vertical sampling factors, as the header states them (T.81 §A.1.1);
  /// empty when the header is shorter than its components.
  package var sampling: [Sampling]

  /// A component's sampling factors.
  package struct Sampling: Sendable, Hashable {
    package var horizontal: Int
    package var vertical: Int
  }

  init(_ input: Input, _ segment: JPEGSegment) throws(MetadataError) {
    // P (1 byte), Y (2), X (2), Nf (1), then Nf × (C, H|V, Tq).
    let body = try input.read(at: segment.payload.lowerBound, count: min(6 + 3 * 255, segment.payload.count))
    guard body.count >= 5 else { throw .corrupt("SOF segment shorter than its header") }
    marker = segment.marker
    height = Int(body.u16(at: 1, bigEndian: true))
    width = Int(body.u16(at: 3, bigEndian: true))
    // Empty unless every component the header counts is there.
    let components = body.count >= 6 ? Int(body[5]) : 0
    sampling =
      body.count >= 6 + 3 * components
      ? (0..<components).map { index in
        Sampling(horizontal: Int(body[6 + 3 * index + 1] >> 4), vertical: Int(body[6 + 3 * index + 1] & 0x0F))
      } : []
  }

  /// The first frame header of the JPEG file at `path`, found past extraneous bytes as
  /// ``MetadataReader/read(fileAt:hint:limits:)`` finds it; nil when there is none before the image data.
  ///
  /// - Throws: ``MetadataError`` as the reader does.
  package static func read(fileAt path: String, limits: MetadataReader.Limits = .default)
    throws(MetadataError) -> JPEGFrameHeader?
  {
    let input = try Input(path: path, budget: limits.maxBytesRead)
    for segment in try JPEGSegments.walk(input, limits: limits, toleratingCut: true).segments
    where segment.isStartOfFrame {
      return try JPEGFrameHeader(input, segment)
    }
    return nil
  }
}
