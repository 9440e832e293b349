/// Finds the pictures a camera stores in a raw file beside its sensor data: the previews a raw developer, a
/// camera's own screen and every photo browser show until the raw is developed.
///
/// Where they are (exiftool's and libraw's documentation of each maker's layout, the DNG 1.6 specification):
/// - **a directory of the TIFF structure** that is not sensor data: IFD0 of a NEF, DNG, ARW, CR2 or SRW,
///   later IFDs of the chain (CR2's IFD1 and IFD2), and SubIFDs (a DNG's preview, NewSubfileType 1; a NEF's
///   full-size JPEG). Its image is either a JPEG (compression 6 or 7, in one strip or tile, or behind
///   JPEGInterchangeFormat) or 8-bit RGB samples (compression 1), as a DNG's IFD0 thumbnail is;
/// - **Panasonic RW2's JpgFromRaw** (IFD0 tag 0x2E), a complete JPEG with its own EXIF;
/// - **Fujifilm RAF's JPEG** (``RAFReader``).
///
/// Sensor data is never a preview: a directory whose PhotometricInterpretation is a colour filter array (32803)
/// or LinearRaw (34892), and a JPEG whose frame is not a DCT frame with one or three components (DNG and CR2
/// keep the sensor data as lossless JPEG, SOF3) are left out. A preview that cannot be read (past the end of
/// the file, no frame header) costs only itself.
enum RawPreviews {
  /// TIFF compression 1 (none), 6 (old-style JPEG), 7 (JPEG); PhotometricInterpretation 2 (RGB), 32803
  /// (colour filter array, TIFF/EP), 34892 (LinearRaw, DNG 1.6).
  private static let uncompressed = 1
  private static let jpegCompressions: Set<Int> = [6, 7]
  private static let rgb = 2
  private static let sensorPhotometrics: Set<Int> = [32803, 34892]

  /// The previews of the TIFF-based raw that `reader` reads: every JPEG or 8-bit RGB image of its
  /// directories (the IFD0 chain and every SubIFD) and RW2's JpgFromRaw, largest first, each once.
  static func find(_ reader: TIFFReader, _ structure: TIFFStructure) -> [EmbeddedPreview] {
    var found: [EmbeddedPreview] = []
    for directory in directories(reader, structure) {
      found += previews(in: directory, reader)
    }
    if let entry = structure.ifd0[TIFFTag.rw2JpgFromRaw], entry.byteCount > 0,
      let preview = jpeg(at: entry.valuePosition, length: entry.byteCount, reader.input, reader.limits)
    {
      found.append(preview)
    }
    return ordered(found)
  }

  /// Largest first, each byte range once (a NEF's SubIFD and IFD0 may both point at one JPEG).
  static func ordered(_ previews: [EmbeddedPreview]) -> [EmbeddedPreview] {
    var seen: Set<Int> = []
    return previews.sorted { ($0.width ?? 0) * ($0.height ?? 0) > ($1.width ?? 0) * ($1.height ?? 0) }
      .filter { preview in preview.offset.map { seen.insert($0).inserted } ?? true }
  }

  /// IFD0 and the rest of its chain (IFD1, IFD2, … as CR2 has them), then every SubIFD; each once.
  private static func directories(_ reader: TIFFReader, _ structure: TIFFStructure) -> [IFD] {
    var chain = [structure.ifd0]
    var visited: Set<Int> = [structure.ifd0.position]
    var next = structure.ifd0.nextOffset
    while next != 0, chain.count < reader.limits.maxIFDs {
      // A directory of the chain that cannot be read ends the chain, as it ends libtiff's.
      guard let directory = try? reader.directory(at: next, tolerating: true),
        visited.insert(directory.position).inserted
      else { break }
      chain.append(directory)
      next = directory.nextOffset
    }
    return chain + structure.subIFDs.filter { visited.insert($0.position).inserted }
  }

  /// The previews one directory holds: none for sensor data.
  private static func previews(in ifd: IFD, _ reader: TIFFReader) -> [EmbeddedPreview] {
    func integer(_ tag: UInt16) -> Int? { (try? reader.integer(ifd[tag])) ?? nil }
    func integers(_ tag: UInt16) -> [Int] { ifd[tag].flatMap { try? reader.integers($0) } ?? [] }
    if let photometric = integer(TIFFTag.photometricInterpretation), sensorPhotometrics.contains(photometric)
    {
      return []
    }
    var found: [EmbeddedPreview] = []
    // JPEGInterchangeFormat and its length (TIFF 6.0 §22): the old-style JPEG of IFD1 thumbnails, NEF previews.
    if let offset = integer(TIFFTag.jpegInterchangeFormat),
      let length = integer(TIFFTag.jpegInterchangeFormatLength),
      let preview = jpeg(at: reader.base + offset, length: length, reader.input, reader.limits)
    {
      found.append(preview)
    }
    let compression = integer(TIFFTag.compression) ?? uncompressed
    let (offsets, counts) =
      ifd[TIFFTag.tileOffsets] != nil
      ? (integers(TIFFTag.tileOffsets), integers(TIFFTag.tileByteCounts))
      : (integers(TIFFTag.stripOffsets), integers(TIFFTag.stripByteCounts))
    guard !offsets.isEmpty, offsets.count == counts.count else { return found }
    if jpegCompressions.contains(compression) {
      // One strip or tile holding a whole JPEG stream (a DNG preview, CR2's IFD0); a JPEG cut into several
      // strips shares tables between them and is no stream a decoder reads on its own.
      if offsets.count == 1,
        let preview = jpeg(at: reader.base + offsets[0], length: counts[0], reader.input, reader.limits)
      {
        found.append(preview)
      }
    } else if compression == uncompressed,
      let preview = rgbImage(ifd, reader, offsets: offsets, counts: counts)
    {
      found.append(preview)
    }
    return found
  }

  /// Uncompressed 8-bit RGB, chunky, in strips that follow one another in the file: the only layout a decoder
  /// reads here as rows of width × 3 bytes (a DNG's IFD0 thumbnail, CR2's IFD2).
  private static func rgbImage(_ ifd: IFD, _ reader: TIFFReader, offsets: [Int], counts: [Int])
    -> EmbeddedPreview?
  {
    func integer(_ tag: UInt16) -> Int? { (try? reader.integer(ifd[tag])) ?? nil }
    guard ifd[TIFFTag.tileOffsets] == nil, integer(TIFFTag.photometricInterpretation) == rgb,
      integer(TIFFTag.samplesPerPixel) == 3, (integer(TIFFTag.planarConfiguration) ?? 1) == 1,
      let bits = ifd[TIFFTag.bitsPerSample].flatMap({ try? reader.integers($0) }), !bits.isEmpty,
      bits.allSatisfy({ $0 == 8 }),
      let width = integer(TIFFTag.imageWidth), let height = integer(TIFFTag.imageLength), width > 0,
      height > 0
    else { return nil }
    let (rowBytes, overflow) = width.multipliedReportingOverflow(by: 3)
    let (length, overflow2) = rowBytes.multipliedReportingOverflow(by: height)
    guard !overflow, !overflow2, length <= reader.limits.maxValueBytes * 8 else { return nil }
    let start = reader.base + offsets[0]
    var end = start
    for (offset, count) in zip(offsets, counts) {
      guard reader.base + offset == end, count >= 0 else { return nil }
      end += count
    }
    guard end - start >= length, start >= 0, start <= reader.input.size, length <= reader.input.size - start
    else { return nil }
    return EmbeddedPreview(
      kind: .rawPreview, type: .tiff, width: width, height: height, offset: start, length: length)
  }

  /// A JPEG preview at `offset`, sized by its own frame header; nil for anything else (a lossless JPEG of
  /// sensor data, a range past the end, bytes that are not a JPEG).
  static func jpeg(at offset: Int, length: Int, _ input: Input, _ limits: MetadataReader.Limits)
    -> EmbeddedPreview?
  {
    guard length > 4, offset >= 0, offset <= input.size, length <= input.size - offset,
      let head = try? input.read(at: offset, count: min(length, 256 << 10)),
      head[0] == 0xFF, head[1] == 0xD8
    else { return nil }
    var inner = limits
    inner.maxSegments = min(limits.maxSegments, 256)
    guard let layout = try? JPEGLayout(Input(bytes: head), limits: inner, toleratingCut: true),
      let frame = layout.frame, let width = layout.width, let height = layout.height,
      // Baseline, extended and progressive DCT (SOF0, SOF1, SOF2), grey or colour: what a JPEG decoder shows.
      [0xC0, 0xC1, 0xC2].contains(frame.marker), [1, 3].contains(frame.sampling.count)
    else { return nil }
    return EmbeddedPreview(
      kind: .rawPreview, type: .jpeg, width: width, height: height, offset: offset, length: length)
  }
}
