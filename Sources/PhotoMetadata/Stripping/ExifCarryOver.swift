/// The EXIF block of a photo, made ready to travel with a re-encoded copy of it (a JPEG made from a HEIC).
///
/// The original block is kept byte for byte — capture date and offset, camera and lens, exposure, the Apple
/// MakerNote (whose offsets count from the MakerNote itself) — with only values patched in place, so that no
/// offset inside it moves:
/// - Orientation (0x0112) becomes 1: the copy's pixels are stored upright (EXIF 2.32 §4.6.4 Table 4).
/// - PixelXDimension and PixelYDimension (0xA002, 0xA003) become the copy's size (§4.6.5 Table 7).
/// - IFD0's next-IFD offset becomes 0, unlinking IFD1: its thumbnail shows the original's orientation and
///   size (§4.5.4). Its bytes stay inside the block, unreferenced.
/// - With `removeLocation`, the GPS IFD goes as ``LocationStripper`` removes it (`ExifGPSEraser`).
///
/// ```swift
/// let app1 = try ExifCarryOver.app1Payload(fileAt: heic, width: 4032, height: 3024, removeLocation: true)
/// ```
public enum ExifCarryOver {
  /// The largest APP1 payload a JPEG segment can hold (its 16-bit length counts itself: 65535 − 2).
  public static let maximumPayload = 65533

  /// The EXIF block of the JPEG, HEIF/HEIC/AVIF, PNG (`eXIf`) or WebP (`EXIF`) file at `path`, as a JPEG APP1
  /// payload ("Exif\0\0" and the TIFF structure), patched for a copy of `width` × `height` upright pixels.
  ///
  /// - Returns: nil when the file has no EXIF block, or one too large for a JPEG segment (over
  ///   ``maximumPayload`` bytes; cameras write 10–60 KB).
  /// - Throws: ``MetadataError`` when the block is damaged (a copy without it would lose the capture date
  ///   silently, so the caller decides).
  public static func app1Payload(
    fileAt path: String, width: Int, height: Int, removeLocation: Bool,
    limits: MetadataReader.Limits = .default
  ) throws(MetadataError) -> [UInt8]? {
    let input = try Input(path: path, budget: limits.maxBytesRead)
    guard var tiff = try tiffBlock(input, limits: limits) else { return nil }
    guard tiff.count + JPEGLayout.exifSignature.count <= maximumPayload else { return nil }
    try patch(&tiff, width: width, height: height, removeLocation: removeLocation, limits: limits)
    return JPEGLayout.exifSignature + tiff
  }

  /// The TIFF structure of the file's EXIF block (from its byte-order mark on), if there is one.
  static func tiffBlock(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> [UInt8]? {
    switch try MetadataReader.sniff(input) {
    case .jpeg:
      return try JPEGLayout(input, limits: limits).exif?.bytes
    case .heic, .heif, .avif:
      let meta = try HEIFReader.meta(input, limits: limits)
      guard let item = HEIFReader.exifItem(meta) else { return nil }
      let bytes = try HEIFReader.data(of: item, meta, input, limits: limits)
      return Array(bytes[try HEIFReader.tiffBase(ofExifItem: bytes)...])
    case .heics:
      return nil  // a sequence keeps no Exif item; sniffing never names it anyway
    case .png:
      guard let chunk = try PNGChunks.read(input, limits: limits).first(where: { $0.type == "eXIf" }) else {
        return nil
      }
      guard chunk.data.count <= limits.maxValueBytes else { throw .limitExceeded("a large eXIf chunk") }
      return try input.read(at: chunk.data.lowerBound, count: chunk.data.count)
    case .webp:
      guard let chunk = try RIFFChunks.read(input, limits: limits).first(where: { $0.fourCC == "EXIF" })
      else {
        return nil
      }
      guard chunk.data.count <= limits.maxValueBytes else { throw .limitExceeded("a large EXIF chunk") }
      let data = try input.read(at: chunk.data.lowerBound, count: chunk.data.count)
      // Some writers keep JPEG's "Exif\0\0" prefix in the chunk; the WebP specification has none.
      return data.matches(JPEGLayout.exifSignature, at: 0) ? Array(data[6...]) : data
    default:
      return nil
    }
  }

  /// Patches `tiff` in place (see the type's description).
  static func patch(
    _ tiff: inout [UInt8], width: Int, height: Int, removeLocation: Bool, limits: MetadataReader.Limits
  ) throws(MetadataError) {
    // The GPS eraser rewrites IFD0's table (its entries move up), so it goes first and the other patches
    // are found in its result.
    if removeLocation {
      let reader = try TIFFReader(input: Input(bytes: tiff), base: 0, limits: limits)
      apply(try ExifGPSEraser.plan(reader, reader.structure()).edits, to: &tiff)
    }
    let reader = try TIFFReader(input: Input(bytes: tiff), base: 0, limits: limits)
    let structure = try reader.structure()
    let big = reader.bigEndian
    var edits: [Edit] = []
    func integer(_ value: Int, type: UInt16) -> [UInt8] {
      if type == 3 {
        let short = UInt16(clamping: value)
        return big ? [UInt8(short >> 8), UInt8(short & 0xFF)] : [UInt8(short & 0xFF), UInt8(short >> 8)]
      }
      let long = UInt32(clamping: value)
      let bytes = [UInt8(long >> 24), UInt8(long >> 16 & 0xFF), UInt8(long >> 8 & 0xFF), UInt8(long & 0xFF)]
      return big ? bytes : bytes.reversed()
    }
    // Only single SHORT or LONG values, which sit inside their 12-byte entry: nothing else is touched.
    func set(_ entry: IFDEntry?, to value: Int) {
      guard let entry, entry.count == 1, entry.type == 3 || entry.type == 4 else { return }
      edits.append(.patch(at: entry.valuePosition, integer(value, type: entry.type)))
    }
    set(structure.ifd0[TIFFTag.orientation], to: 1)
    set(structure.exif?[TIFFTag.pixelXDimension], to: width)
    set(structure.exif?[TIFFTag.pixelYDimension], to: height)
    if structure.ifd1 != nil {
      let rawCount = Int(tiff.u16(at: structure.ifd0.position, bigEndian: big))
      edits.append(.patch(at: structure.ifd0.position + 2 + rawCount * 12, [0, 0, 0, 0]))
    }
    apply(edits, to: &tiff)
  }

  private static func apply(_ edits: [Edit], to tiff: inout [UInt8]) {
    for edit in edits where edit.isPatch && edit.range.upperBound <= tiff.count {
      tiff.replaceSubrange(edit.range, with: edit.replacement)
    }
  }
}
