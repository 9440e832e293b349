import PhotoMetadata

/// What imaging must know about a file before it decodes anything: the format (from the bytes), the declared
/// size, the orientation and the embedded previews.
///
/// **Seam for `PhotoMetadata.MetadataReader`.** This is a stand-in with bounded header reads for the formats
/// renditions meet most (JPEG with EXIF and MPF, PNG with eXIf, GIF, WebP, HEIF/AVIF). When
/// `MetadataReader.read(fileAt:)` is available, ``read(fileAt:)`` becomes a call to it (mapping its error to
/// ``ImagingError/malformed(reason:)``) and the readers in this folder can go. The rest of imaging only sees
/// the returned ``MediaMetadata``. Two rules the replacement must keep:
/// - MPF images are listed as previews only when their MP type code is a large thumbnail (0x010001/0x010002),
///   never a gain map or disparity image.
/// - For HEIF, ``MediaMetadata/previews`` lists the primary image's first `thmb` item (the one libheif loads).
package enum ImageHeaders {
  /// Reads the headers of the image at `path`.
  ///
  /// Formats without a reader here (TIFF, raw) come back with their type and no size; the decoder's own header
  /// then serves the bomb guard.
  ///
  /// - Throws: ``ImagingError/unsupportedContent(type:)`` for bytes that are not a still image,
  ///   ``ImagingError/malformed(reason:)`` for damaged headers, ``ImagingError/fileNotFound`` and other I/O
  ///   errors.
  package static func read(fileAt path: String) throws(ImagingError) -> MediaMetadata {
    try read(HeaderFile(path: path))
  }

  static func read(_ file: some HeaderBytes) throws(ImagingError) -> MediaMetadata {
    let prefix = try file.bytes(at: 0, length: MediaType.sniffLength)
    guard let type = MediaType.sniff(prefix) else { throw .unsupportedContent(type: nil) }
    guard type.isImage else { throw .unsupportedContent(type: type) }
    var metadata = MediaMetadata(type: type)
    switch type {
    case .jpeg: try JPEGHeaders.read(file, into: &metadata)
    case .png: try readPNG(file, into: &metadata)
    case .gif: try readGIF(ByteView(prefix, littleEndian: true), into: &metadata)
    case .webp: try readWebP(file, into: &metadata)
    case .heic, .heif, .avif: try HEIFHeaders.read(file, into: &metadata)
    default: break
    }
    return metadata
  }

  /// PNG: IHDR must come first (PNG spec §11.2.2); an eXIf chunk before IDAT carries the orientation
  /// (PNG Extensions 1.5.0 §3.7).
  private static func readPNG(_ file: some HeaderBytes, into metadata: inout MediaMetadata)
    throws(ImagingError)
  {
    let header = ByteView(try file.bytes(at: 8, length: 16))
    guard header.fourCC(4) == "IHDR", let width = header.u32(8), let height = header.u32(12) else {
      throw .malformed(reason: "the PNG header chunk (IHDR) is missing")
    }
    // PNG spec §11.2.2: each dimension is 1…2^31−1.
    guard width > 0, height > 0, width < 1 << 31, height < 1 << 31 else {
      throw .malformed(reason: "the PNG header declares a size of \(width)×\(height)")
    }
    metadata.width = width
    metadata.height = height
    var offset = 8
    for _ in 0..<1024 {
      let chunk = ByteView(try file.bytes(at: offset, length: 8))
      guard let length = chunk.u32(0), let type = chunk.fourCC(4), type != "IDAT", type != "IEND" else {
        break
      }
      if type == "eXIf", length <= 1 << 20 {
        let exif = ExifReader.read(try file.bytes(at: offset + 8, length: length))
        metadata.orientation = exif.orientation ?? .up
        metadata.make = exif.make
        metadata.model = exif.model
        metadata.captureDate = exif.captureDate
        break
      }
      offset += 12 + length
    }
  }

  /// GIF: the logical screen size (GIF89a §18), which bounds every frame libnsgif composes.
  private static func readGIF(_ header: ByteView, into metadata: inout MediaMetadata) throws(ImagingError) {
    guard let width = header.u16(6), let height = header.u16(8), width > 0, height > 0 else {
      throw .malformed(reason: "the GIF screen descriptor declares no size")
    }
    metadata.width = width
    metadata.height = height
  }

  /// WebP: the first chunk is VP8, VP8L or VP8X and gives the canvas size (WebP Container Specification);
  /// an EXIF chunk may follow VP8X.
  private static func readWebP(_ file: some HeaderBytes, into metadata: inout MediaMetadata)
    throws(ImagingError)
  {
    let head = ByteView(try file.bytes(at: 12, length: 30), littleEndian: true)
    let size: (Int, Int)?
    switch head.fourCC(0) {
    case "VP8 ":
      // Key frame header: 3-byte frame tag, start code 9D 01 2A, then 14-bit width and height (RFC 6386 §9.1).
      if head.u8(11) == 0x9D, head.u8(12) == 0x01, head.u8(13) == 0x2A, let w = head.u16(14),
        let h = head.u16(16)
      {
        size = (w & 0x3FFF, h & 0x3FFF)
      } else {
        size = nil
      }
    case "VP8L":
      // Signature 0x2F, then 14-bit width − 1 and height − 1 (WebP Lossless Bitstream §3.2.1).
      if head.u8(8) == 0x2F, let bits = head.u32(9) {
        size = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
      } else {
        size = nil
      }
    case "VP8X":
      if let w = head.u24(12), let h = head.u24(15) { size = (w + 1, h + 1) } else { size = nil }
      try readWebPExif(file, into: &metadata)
    default:
      size = nil
    }
    guard let (width, height) = size, width > 0, height > 0 else {
      throw .malformed(reason: "the WebP header declares no size")
    }
    metadata.width = width
    metadata.height = height
  }

  private static func readWebPExif(_ file: some HeaderBytes, into metadata: inout MediaMetadata)
    throws(ImagingError)
  {
    var offset = 12
    for _ in 0..<64 {
      let chunk = ByteView(try file.bytes(at: offset, length: 8), littleEndian: true)
      guard let type = chunk.fourCC(0), let length = chunk.u32(4) else { return }
      if type == "EXIF", length <= 1 << 20 {
        var payload = try file.bytes(at: offset + 8, length: length)
        // Some writers keep JPEG's "Exif\0\0" prefix; the container spec says the chunk starts at the TIFF header.
        if payload.starts(with: Array("Exif\0\0".utf8)) { payload.removeFirst(6) }
        let exif = ExifReader.read(payload)
        metadata.orientation = exif.orientation ?? .up
        metadata.make = exif.make
        metadata.model = exif.model
        metadata.captureDate = exif.captureDate
        return
      }
      offset += 8 + length + (length & 1)
    }
  }
}
