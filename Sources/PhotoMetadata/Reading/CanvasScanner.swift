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
  /// What a decoder would do with every frame, page and tile of a file: the largest canvas it allocates and
  /// how many pixels it passes through the decoder, counting each frame on its canvas and each grid tile as
  /// often as it is referenced (a 46 KB HEIF grid can reference one 512² tile 729 times).
  public struct Survey: Sendable, Hashable {
    /// The largest canvas of any frame, page, tile or grid; nil when the format has none to walk.
    public var largestCanvas: PixelSize?
    /// Frames of an animation (GIF image descriptors, APNG `fcTL`, WebP `ANMF`); 1 for a still image.
    public var frames = 1
    /// Pixels a decoder producing every frame passes through: the canvas times the frames for animations
    /// (decoders composite each frame on the canvas), the sum of every tile referenced for a HEIF grid, the
    /// largest page of a TIFF (only one is decoded). 0 when nothing was walked.
    public var decodedPixels = 0
    /// HEIF grid tiles referenced (`dimg`), counted with repeats; 0 without a grid.
    public var tilesReferenced = 0

    /// A survey of a still image whose largest canvas is `largestCanvas`, decoded once.
    public init(largestCanvas: PixelSize?) {
      self.largestCanvas = largestCanvas
      decodedPixels = largestCanvas?.pixelCount ?? 0
    }
  }

  /// The largest canvas of the file at `path`, or nil when its format has no frames to walk (JPEG, movies).
  ///
  /// A GIF is walked to its trailer, so the read budget grows with the file size.
  ///
  /// - Throws: ``MetadataError``: `.truncated` and `.corrupt` for damaged structures, `.limitExceeded`.
  public static func largestCanvas(fileAt path: String, limits: MetadataReader.Limits = .default)
    throws(MetadataError) -> PixelSize?
  {
    try survey(fileAt: path, limits: limits).largestCanvas
  }

  /// The in-memory form, for tests and fuzzers.
  public static func largestCanvas(bytes: [UInt8], limits: MetadataReader.Limits = .default)
    throws(MetadataError) -> PixelSize?
  {
    try survey(bytes: bytes, limits: limits).largestCanvas
  }

  /// The largest canvas, the frames and the pixels decoded for every frame of the file at `path`.
  ///
  /// - Throws: as ``largestCanvas(fileAt:limits:)``.
  public static func survey(fileAt path: String, limits: MetadataReader.Limits = .default)
    throws(MetadataError) -> Survey
  {
    try scan(Input(path: path, budget: limits.maxBytesRead), limits: limits)
  }

  /// The in-memory form of ``survey(fileAt:limits:)``, for tests and fuzzers.
  public static func survey(bytes: [UInt8], limits: MetadataReader.Limits = .default)
    throws(MetadataError) -> Survey
  {
    try scan(Input(bytes: bytes, budget: limits.maxBytesRead), limits: limits)
  }

  /// A survey of `frames` frames (at least one) composited on `canvas`.
  private static func animation(_ canvas: PixelSize?, frames: Int) -> Survey {
    var survey = Survey(largestCanvas: canvas)
    survey.frames = max(1, frames)
    let (product, overflow) = survey.decodedPixels.multipliedReportingOverflow(by: survey.frames)
    survey.decodedPixels = overflow ? .max : product
    return survey
  }

  static func scan(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> Survey {
    switch try MetadataReader.sniff(input) {
    case .gif:
      input.extendBudget(by: input.size)
      return try gif(input, limits: limits)
    case .png: return try png(input, limits: limits)
    case .webp: return try webp(input, limits: limits)
    case .tiff, .dng, .cr2, .nef, .arw, .orf, .rw2, .pef, .srw:
      return Survey(largestCanvas: try tiff(input, limits: limits))
    case .heic, .heif, .heics, .avif: return try heif(input, limits: limits)
    case .jpeg, .mov, .mp4, .m4v, .cr3, .raf, .crw, .mrw, .x3f: return Survey(largestCanvas: nil)
    }
  }

  /// GIF: the logical screen grown to hold every image descriptor's `left + width` × `top + height`
  /// (GIF89a §18, §20), as libnsgif grows it.
  ///
  /// A file cut short, or a byte that starts no block, ends the walk as it ends a decoder's: the frames before
  /// it are all a decoder can allocate for (libnsgif shows them and stops).
  static func gif(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> Survey {
    let header = try input.read(at: 0, count: 13)
    var canvas = PixelSize(
      width: Int(header.u16(at: 6, bigEndian: false)), height: Int(header.u16(at: 8, bigEndian: false)))
    var cursor = BufferedCursor(input, at: 13)
    var count = 0
    var frames = 0
    do throws(MetadataError) {
      if header[10] & 0x80 != 0 { try cursor.skip(3 << (Int(header[10] & 0x07) + 1)) }
      walk: while true {
        count += 1
        guard count <= limits.maxChunks else { throw .limitExceeded("\(limits.maxChunks) GIF blocks") }
        switch try cursor.u8() {
        case 0x2C:
          frames += 1
          // Image descriptor: left, top, width, height (little-endian), packed fields; then an optional local
          // colour table, the LZW minimum code size and the data sub-blocks, skipped unread.
          let descriptor = try cursor.bytes(9)
          canvas.grow(
            toWidth: Int(descriptor.u16(at: 0, bigEndian: false))
              + Int(descriptor.u16(at: 4, bigEndian: false)),
            height: Int(descriptor.u16(at: 2, bigEndian: false))
              + Int(descriptor.u16(at: 6, bigEndian: false)))
          if descriptor[8] & 0x80 != 0 { try cursor.skip(3 << (Int(descriptor[8] & 0x07) + 1)) }
          _ = try cursor.u8()
          try GIFReader.skipSubBlocks(&cursor)
        case 0x21:
          _ = try cursor.u8()
          try GIFReader.skipSubBlocks(&cursor)
        default:
          // The trailer (0x3B), or a byte that starts no block.
          break walk
        }
      }
    } catch {
      switch error {
      case .truncated, .corrupt: break
      default: throw error
      }
    }
    return animation(canvas, frames: frames)
  }

  /// PNG: IHDR, and every APNG frame control chunk's `x_offset + width` × `y_offset + height` (PNG 3rd ed.
  /// §11.3.6.2 `fcTL`).
  static func png(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> Survey {
    var canvas: PixelSize?
    var frames = 0
    // A file cut short is walked to the cut: a decoder cannot allocate for a frame it never reads.
    for chunk in try PNGChunks.walk(input, limits: limits, toleratingCut: true).chunks {
      switch chunk.type {
      case "IHDR":
        // A later, short IHDR is damage decoders stop at (libpng: "out of place"); a later whole one still
        // counts, whatever decoders make of it.
        guard chunk.data.count >= 8 else {
          if canvas == nil { throw .corrupt("IHDR shorter than 13 bytes") }
          continue
        }
        let data = try input.read(at: chunk.data.lowerBound, count: 8)
        canvas.grow(
          toWidth: Int(data.u32(at: 0, bigEndian: true)), height: Int(data.u32(at: 4, bigEndian: true)))
      case "fcTL":
        frames += 1
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
    return animation(canvas, frames: frames)
  }

  /// WebP: the VP8X canvas, every VP8/VP8L bitstream's own size, and every animation frame's
  /// `2 × X + width` × `2 × Y + height` together with the bitstream inside it (WebP Container Specification,
  /// "Extended File Format", ANMF).
  static func webp(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> Survey {
    var canvas: PixelSize?
    var frames = 0
    // Each chunk's first bytes come with the walk (one read per window of small chunks, not one per frame).
    _ = try RIFFChunks.read(input, limits: limits, headLength: 16 + 8 + 10) {
      chunk, data throws(MetadataError) in
      switch chunk.fourCC {
      case "VP8X":
        guard data.count >= 10 else { throw .corrupt("chunk 'VP8X' is too short") }
        var reader = ByteReader(data, at: 4, bigEndian: false)
        canvas.grow(toWidth: Int(try reader.u24()) + 1, height: Int(try reader.u24()) + 1)
      case "VP8 ", "VP8L":
        if let size = try WebPReader.bitstreamSize(chunk.fourCC, Array(data.prefix(10))) {
          canvas.grow(to: size)
        }
      case "ANMF":
        frames += 1
        guard data.count >= 16 else { throw .corrupt("chunk 'ANMF' is too short") }
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
        break
      }
    }
    return animation(canvas, frames: frames)
  }

  /// TIFF: every page of IFD0's chain and every SubIFD, each with its image and its tiles (TIFF 6.0 §2,
  /// §15 TileWidth/TileLength).
  static func tiff(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> PixelSize? {
    let reader = try TIFFReader(input: input, base: 0, limits: limits)
    // The Exif and GPS IFDs hold no image: their damage does not change what a decoder allocates.
    var directories = try reader.structure(tolerating: true).subIFDs
    var visited: Set<Int> = []
    var offset = reader.firstIFDOffset
    // A loop back to a page already read, or more pages than the limit, ends the walk as it ends libtiff's
    // chain; renditions decode the first page.
    while offset != 0, visited.insert(offset).inserted, visited.count <= limits.maxIFDs {
      let directory: IFD
      do {
        directory = try reader.directory(at: offset, tolerating: true)
      } catch {
        // A later page that cannot be read is one no decoder reads either (libtiff stops its chain there, and
        // renditions decode the first page): the pages before it are what a decoder may allocate.
        if case .io = error { throw error }
        if offset == reader.firstIFDOffset { throw error }
        break
      }
      // A later page whose directory is damaged (a count no file holds, a table cut short) is one whose sizes
      // cannot be trusted and that renditions never decode (they take the first page, or a smaller level of
      // a pyramid, which needs sound sizes); the first page counts whatever its damage.
      if directory.damage.isEmpty || offset == reader.firstIFDOffset { directories.append(directory) }
      offset = directory.nextOffset
    }
    var canvas: PixelSize?
    // A size is one SHORT or LONG (TIFF 6.0 §8); libtiff refuses another count ("incorrect count"), and with
    // it the page, so a size given as a list is no size a decoder uses.
    func size(_ entry: IFDEntry?) throws(MetadataError) -> Int? {
      guard let entry, entry.count == 1 else { return nil }
      return try reader.integer(entry)
    }
    for directory in directories {
      for (widthTag, heightTag) in [(TIFFTag.imageWidth, TIFFTag.imageLength), (0x0142, 0x0143)] {
        if let width = try size(directory[widthTag]), let height = try size(directory[heightTag]) {
          canvas.grow(toWidth: width, height: height)
        }
      }
    }
    return canvas
  }

  /// HEIF: the `ispe` of every item, and the output size of every `grid` item (ISO/IEC 23008-12 §6.6.2.3.2
  /// ImageGrid), which libheif allocates whatever `ispe` says.
  ///
  /// The pixels decoded are the largest item's, or, for a grid, its tiles' as often as the grid references
  /// them (`dimg`, ISO/IEC 23008-12 §6.6.2.3.1: the same tile may be listed many times, and each listing is
  /// decoded again).
  static func heif(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> Survey {
    // An image sequence has no items: its frames are the track's samples, of the sample entry's size; a
    // rendition decodes the first one only.
    if let sequence = try HEIFReader.sequenceLayout(input, limits: limits) {
      return Survey(largestCanvas: sequence.videoSize.map { PixelSize(width: $0.0, height: $0.1) })
    }
    let meta = try HEIFReader.meta(input, limits: limits)
    var canvas: PixelSize?
    var tilePixels = 0
    var tiles = 0
    for item in meta.allItems {
      if let (width, height) = meta.size(of: item) { canvas.grow(toWidth: width, height: height) }
      guard meta.items[item]?.type == "grid" else { continue }
      for reference in meta.references where reference.type == "dimg" && reference.from == item {
        for tile in reference.to {
          tiles += 1
          let pixels = meta.size(of: tile).map { PixelSize(width: $0.0, height: $0.1).pixelCount } ?? 0
          let (sum, overflow) = tilePixels.addingReportingOverflow(pixels)
          tilePixels = overflow ? .max : sum
        }
      }
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
    var survey = Survey(largestCanvas: canvas)
    survey.decodedPixels = max(survey.decodedPixels, tilePixels)
    survey.tilesReferenced = tiles
    return survey
  }
}
