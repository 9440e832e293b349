/// Finds the largest canvas a decoder may allocate for a still image: every frame, page, tile and grid, not
/// only the size the first header declares.
///
/// A file's declared size is not what decoders allocate. A GIF frame may lie outside its logical screen, and
/// decoders grow the screen to hold it (libnsgif does); an APNG or animated WebP frame, a later TIFF page or
/// tile, a HEIF grid or any other item may each be far larger than the image the headers announce. A bomb
/// guard that checks only ``MediaMetadata/width`` × ``MediaMetadata/height`` lets a 270 KB file with a 16×16
/// screen and a 20000×20000 frame through to a 1.7 GB allocation. This scan walks the structure without
/// decoding anything (GIF data sub-blocks are skipped by their length bytes) and returns the largest extent.
///
/// ```swift
/// let canvas = try CanvasScanner.largestCanvas(fileAt: path)
/// if let canvas, canvas.pixelCount > limit { /* refuse before any decoder sees the file */ }
/// ```
public enum CanvasScanner {
  /// The largest canvas of the file at `path`, or nil when its format has no frames to walk (JPEG, movies).
  ///
  /// A GIF is walked to its trailer, so the read budget grows with the file size.
  ///
  /// - Throws: ``MetadataError``: `.truncated` and `.corrupt` for damaged structures, `.limitExceeded`.
  public static func largestCanvas(fileAt path: String, limits: MetadataReader.Limits = .default)
    throws(MetadataError) -> PixelSize?
  {
    try scan(Input(path: path, budget: limits.maxBytesRead), limits: limits)
  }

  /// The in-memory form, for tests and fuzzers.
  public static func largestCanvas(bytes: [UInt8], limits: MetadataReader.Limits = .default)
    throws(MetadataError) -> PixelSize?
  {
    try scan(Input(bytes: bytes, budget: limits.maxBytesRead), limits: limits)
  }

  static func scan(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> PixelSize? {
    switch try MetadataReader.sniff(input) {
    case .gif:
      input.extendBudget(by: input.size)
      return try gif(input, limits: limits)
    case .png: return try png(input, limits: limits)
    case .webp: return try webp(input, limits: limits)
    case .tiff, .dng, .cr2, .nef, .arw: return try tiff(input, limits: limits)
    case .heic, .heif, .heics, .avif: return try heif(input, limits: limits)
    case .jpeg, .mov, .mp4, .m4v, .cr3: return nil
    }
  }

  /// GIF: the logical screen grown to hold every image descriptor's `left + width` × `top + height`
  /// (GIF89a §18, §20), as libnsgif grows it.
  static func gif(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> PixelSize {
    let header = try input.read(at: 0, count: 13)
    var canvas = PixelSize(
      width: Int(header.u16(at: 6, bigEndian: false)), height: Int(header.u16(at: 8, bigEndian: false)))
    var cursor = BufferedCursor(input, at: 13)
    if header[10] & 0x80 != 0 { try cursor.skip(3 << (Int(header[10] & 0x07) + 1)) }
    var count = 0
    while true {
      count += 1
      guard count <= limits.maxChunks else { throw .limitExceeded("\(limits.maxChunks) GIF blocks") }
      switch try cursor.u8() {
      case 0x3B:
        return canvas
      case 0x2C:
        // Image descriptor: left, top, width, height (little-endian), packed fields; then an optional local
        // colour table, the LZW minimum code size and the data sub-blocks, skipped unread.
        let descriptor = try cursor.bytes(9)
        canvas.grow(
          toWidth: Int(descriptor.u16(at: 0, bigEndian: false))
            + Int(descriptor.u16(at: 4, bigEndian: false)),
          height: Int(descriptor.u16(at: 2, bigEndian: false)) + Int(descriptor.u16(at: 6, bigEndian: false)))
        if descriptor[8] & 0x80 != 0 { try cursor.skip(3 << (Int(descriptor[8] & 0x07) + 1)) }
        _ = try cursor.u8()
        try GIFReader.skipSubBlocks(&cursor)
      case 0x21:
        _ = try cursor.u8()
        try GIFReader.skipSubBlocks(&cursor)
      case let byte:
        throw .corrupt("unknown GIF block 0x\(String(byte, radix: 16))")
      }
    }
  }

  /// PNG: IHDR, and every APNG frame control chunk's `x_offset + width` × `y_offset + height` (PNG 3rd ed.
  /// §11.3.6.2 `fcTL`).
  static func png(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> PixelSize? {
    var canvas: PixelSize?
    for chunk in try PNGChunks.read(input, limits: limits) {
      switch chunk.type {
      case "IHDR":
        guard chunk.data.count >= 8 else { throw .corrupt("IHDR shorter than 13 bytes") }
        let data = try input.read(at: chunk.data.lowerBound, count: 8)
        canvas.grow(
          toWidth: Int(data.u32(at: 0, bigEndian: true)), height: Int(data.u32(at: 4, bigEndian: true)))
      case "fcTL":
        guard chunk.data.count >= 20 else { throw .corrupt("fcTL shorter than 26 bytes") }
        let data = try input.read(at: chunk.data.lowerBound, count: 20)
        // Sequence number, width, height, x offset, y offset: 4 bytes each.
        canvas.grow(
          toWidth: Int(data.u32(at: 4, bigEndian: true)) + Int(data.u32(at: 12, bigEndian: true)),
          height: Int(data.u32(at: 8, bigEndian: true)) + Int(data.u32(at: 16, bigEndian: true)))
      default:
        continue
      }
    }
    return canvas
  }

  /// WebP: the VP8X canvas, every VP8/VP8L bitstream's own size, and every animation frame's
  /// `2 × X + width` × `2 × Y + height` together with the bitstream inside it (WebP Container Specification,
  /// "Extended File Format", ANMF).
  static func webp(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> PixelSize? {
    var canvas: PixelSize?
    for chunk in try RIFFChunks.read(input, limits: limits) {
      switch chunk.fourCC {
      case "VP8X":
        guard chunk.data.count >= 10 else { throw .corrupt("chunk 'VP8X' is too short") }
        let data = try input.read(at: chunk.data.lowerBound, count: 10)
        var reader = ByteReader(data, at: 4, bigEndian: false)
        canvas.grow(toWidth: Int(try reader.u24()) + 1, height: Int(try reader.u24()) + 1)
      case "VP8 ", "VP8L":
        let head = try input.read(at: chunk.data.lowerBound, count: min(chunk.data.count, 10))
        if let size = try WebPReader.bitstreamSize(chunk.fourCC, head) { canvas.grow(to: size) }
      case "ANMF":
        guard chunk.data.count >= 16 else { throw .corrupt("chunk 'ANMF' is too short") }
        let data = try input.read(at: chunk.data.lowerBound, count: min(chunk.data.count, 16 + 8 + 10))
        var reader = ByteReader(data, at: 0, bigEndian: false)
        let x = Int(try reader.u24()) * 2, y = Int(try reader.u24()) * 2
        let width = Int(try reader.u24()) + 1, height = Int(try reader.u24()) + 1
        canvas.grow(toWidth: x + width, height: y + height)
        // The frame's first sub-chunk is usually its bitstream (ALPH may come first; then it is skipped here
        // and the decoder checks the bitstream against the frame size).
        if data.count >= 24 + 5 {
          let fourCC = String(decoding: data[16..<20], as: UTF8.self)
          if let size = try WebPReader.bitstreamSize(fourCC, Array(data[24...])) {
            canvas.grow(toWidth: x + size.width, height: y + size.height)
          }
        }
      default:
        continue
      }
    }
    return canvas
  }

  /// TIFF: every page of IFD0's chain and every SubIFD, each with its image and its tiles (TIFF 6.0 §2,
  /// §15 TileWidth/TileLength).
  static func tiff(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> PixelSize? {
    let reader = try TIFFReader(input: input, base: 0, limits: limits)
    var directories = try reader.structure().subIFDs
    var visited: Set<Int> = []
    var offset = reader.firstIFDOffset
    while offset != 0 {
      guard visited.insert(offset).inserted else { throw .corrupt("IFD loop at offset \(offset)") }
      guard visited.count <= limits.maxIFDs else { throw .limitExceeded("more than \(limits.maxIFDs) IFDs") }
      let directory = try reader.directory(at: offset)
      directories.append(directory)
      offset = directory.nextOffset
    }
    var canvas: PixelSize?
    for directory in directories {
      for (widthTag, heightTag) in [(TIFFTag.imageWidth, TIFFTag.imageLength), (0x0142, 0x0143)] {
        if let width = try reader.integer(directory[widthTag]),
          let height = try reader.integer(directory[heightTag])
        {
          canvas.grow(toWidth: width, height: height)
        }
      }
    }
    return canvas
  }

  /// HEIF: the `ispe` of every item, and the output size of every `grid` item (ISO/IEC 23008-12 §6.6.2.3.2
  /// ImageGrid), which libheif allocates whatever `ispe` says.
  static func heif(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> PixelSize? {
    // An image sequence has no items: its frames are the track's samples, of the sample entry's size.
    if let sequence = try HEIFReader.sequenceLayout(input, limits: limits) {
      return sequence.videoSize.map { PixelSize(width: $0.0, height: $0.1) }
    }
    let meta = try HEIFReader.meta(input, limits: limits)
    var canvas: PixelSize?
    for item in meta.itemOrder {
      if let (width, height) = meta.size(of: item) { canvas.grow(toWidth: width, height: height) }
      guard meta.items[item]?.type == "grid" else { continue }
      // version (1), flags (1), rows − 1 (1), columns − 1 (1), then width and height: 32-bit when flags & 1.
      let data = try HEIFReader.data(of: item, meta, input, limits: limits)
      guard data.count >= 8 else { throw .corrupt("grid item shorter than 8 bytes") }
      if data[1] & 1 != 0 {
        guard data.count >= 12 else { throw .corrupt("grid item shorter than 12 bytes") }
        canvas.grow(
          toWidth: Int(data.u32(at: 4, bigEndian: true)), height: Int(data.u32(at: 8, bigEndian: true)))
      } else {
        canvas.grow(
          toWidth: Int(data.u16(at: 4, bigEndian: true)), height: Int(data.u16(at: 6, bigEndian: true)))
      }
    }
    return canvas
  }
}
