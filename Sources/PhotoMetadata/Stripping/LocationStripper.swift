/// Writes a copy of a photo or movie without its location, changing only metadata bytes.
///
/// Pixel and sample data are copied byte for byte. EXIF GPS is removed by dropping IFD0's GPS pointer and
/// zeroing the GPS IFD in place; XMP `exif:GPS*` properties are blanked with spaces; QuickTime location
/// atoms become `free` atoms and location keys are renamed and blanked. All of these keep every length, so
/// no offset in the file moves (HEIF `iloc`, MPF, EXIF thumbnails stay valid). Only in PNG, which has no
/// offsets, are legacy text chunks that may hold EXIF ("Raw profile type exif") removed whole.
///
/// ```swift
/// let report = try LocationStripper.strip(fileAt: staged, to: staged + ".noloc")
/// print(report.removed)   // ["EXIF GPS IFD (9 tags)", "XMP exif:GPSLatitude", …]
/// ```
public enum LocationStripper {
  /// Streams `source` to a new file at `destination`, with location removed. `destination` must not exist:
  /// nothing is ever overwritten (an existing file or link there fails with ``MetadataError/io(_:)``).
  ///
  /// Memory stays bounded whatever the file size: only metadata is read into memory, the rest is copied
  /// in 1 MiB chunks. The copy is verified by reading it back. The caller makes it durable (fsync, rename);
  /// on failure `destination` is removed.
  ///
  /// - Throws: ``MetadataError``; `.cannotStrip` for formats or layouts where it is not possible without
  ///   re-encoding (e.g. CR3), and when location is still found in the copy.
  public static func strip(
    fileAt source: String, to destination: String, limits: MetadataReader.Limits = .default
  ) throws(MetadataError) -> StripReport {
    let input = try Input(path: source, budget: limits.maxBytesRead)
    // Stripping walks whole files (GIF blocks), so its budget grows with the file.
    input.extendBudget(by: input.size)
    let (type, plan) = try self.plan(input, limits: limits)
    let edits = try plan.normalized { range throws(MetadataError) in
      try input.read(at: range.lowerBound, count: range.count)
    }
    let fd = try Platform.createForWriting(destination)
    var written = 0
    do throws(MetadataError) {
      defer { Platform.close(fd) }
      try write(input, edits) { buffer throws(MetadataError) in
        try Platform.write(fd, buffer)
        written += buffer.count
      }
    } catch {
      Platform.remove(destination)
      throw error
    }
    do throws(MetadataError) {
      let check = try MetadataReader.read(fileAt: destination, limits: limits)
      guard check.location == nil else { throw .cannotStrip("a location is still present after stripping") }
    } catch {
      Platform.remove(destination)
      throw error
    }
    return report(type, plan, edits, original: input.size, stripped: written)
  }

  /// The in-memory form, for tests and fuzzers.
  public static func strip(bytes: [UInt8], limits: MetadataReader.Limits = .default) throws(MetadataError)
    -> (bytes: [UInt8], report: StripReport)
  {
    let input = Input(bytes: bytes, budget: limits.maxBytesRead)
    input.extendBudget(by: input.size)
    let (type, plan) = try self.plan(input, limits: limits)
    let edits = try plan.normalized { range throws(MetadataError) in Array(bytes[range]) }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    try write(input, edits) { buffer throws(MetadataError) in output += buffer }
    let check = try MetadataReader.read(bytes: output, limits: limits)
    guard check.location == nil else { throw .cannotStrip("a location is still present after stripping") }
    return (output, report(type, plan, edits, original: bytes.count, stripped: output.count))
  }

  static func plan(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> (
    MediaType, StripPlan
  ) {
    let type = try MetadataReader.sniff(input)
    switch type {
    case .jpeg: return (type, try jpeg(input, limits: limits))
    case .png: return (type, try png(input, limits: limits))
    case .gif: return (type, try gif(input, limits: limits))
    case .webp: return (type, try webp(input, limits: limits))
    case .tiff, .dng, .cr2, .nef, .arw, .orf, .rw2, .pef, .srw: return (type, try tiff(input, limits: limits))
    case .heic, .heif, .avif: return (type, try heif(input, limits: limits))
    case .mov, .mp4, .m4v, .heics: return (type, try quickTime(input, limits: limits))
    case .cr3: throw .cannotStrip("Canon CR3 keeps GPS in a box PhotoIntake does not rewrite")
    case .raf:
      throw .cannotStrip("Fujifilm RAF keeps GPS in its embedded JPEG, which PhotoIntake does not rewrite")
    case .crw, .mrw, .x3f:
      // Their metadata lies in records of the maker's own (CIFF, MRW blocks, X3F properties); a file that cannot
      // be shown to hold no location is refused rather than passed on as stripped.
      throw .cannotStrip("\(type.rawValue.uppercased()) raws are not rewritten by PhotoIntake")
    }
  }

  private static func write(
    _ input: Input, _ edits: [Edit], to sink: (UnsafeRawBufferPointer) throws(MetadataError) -> Void
  ) throws(MetadataError) {
    var cursor = 0
    for edit in edits {
      try input.copy(cursor..<edit.range.lowerBound, to: sink)
      try edit.replacement.withUnsafeBytes { buffer in
        capturing { () throws(MetadataError) in try sink(buffer) }
      }.unwrapped()
      cursor = edit.range.upperBound
    }
    try input.copy(cursor..<input.size, to: sink)
  }

  private static func report(
    _ type: MediaType, _ plan: StripPlan, _ edits: [Edit], original: Int, stripped: Int
  )
    -> StripReport
  {
    let changed = edits.reduce(0) { $0 + max($1.range.count, $1.replacement.count) }
    return StripReport(
      type: type, removed: plan.removed, changedByteCount: changed, originalSize: original,
      strippedSize: stripped)
  }
}
