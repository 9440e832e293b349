/// Reads Fujifilm RAF raws: a header of Fujifilm's own, a JPEG the camera made (which carries the EXIF), then
/// the sensor data.
///
/// The layout, big-endian, as exiftool (`FujiFilm.pm`, `ProcessRAF`) and libraw read it: the 16-byte magic
/// `FUJIFILMCCD-RAW `, a version, the camera's ID and name; at byte 84 the JPEG's offset and length, at byte 92
/// those of the RAF directory: a count, then records of a 16-bit tag, a 16-bit length and the value. The size
/// is the directory's RawImageCroppedSize (tag 0x111, height then width), as exiftool's ImageSize gives it, or
/// its RawImageFullSize (0x100); without either, the EXIF's or the JPEG's size.
enum RAFReader {
  static func read(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> MediaMetadata {
    let header = try input.read(at: 0, count: 0x70)
    let jpegOffset = Int(header.u32(at: 84, bigEndian: true))
    let jpegLength = Int(header.u32(at: 88, bigEndian: true))
    var metadata = MediaMetadata(type: .raf)
    if jpegOffset > 0, jpegLength > 0 {
      // The camera's JPEG carries the EXIF: its segments before the image data are all that is read.
      guard jpegOffset <= input.size, jpegLength <= input.size - jpegOffset else { throw .truncated }
      let head = try input.read(at: jpegOffset, count: min(jpegLength, 1 << 20))
      let embedded = try JPEGReader.read(Input(bytes: head), limits: limits)
      metadata.width = embedded.width
      metadata.height = embedded.height
      metadata.orientation = embedded.orientation
      metadata.captureDate = embedded.captureDate
      metadata.location = embedded.location
      metadata.make = embedded.make
      metadata.model = embedded.model
      metadata.lens = embedded.lens
      metadata.hasICCProfile = embedded.hasICCProfile
      // The head was read only as far as the JPEG's metadata: a cut there is no damage to the file.
      metadata.warnings = embedded.warnings.filter { $0.part != .remainder }
      if let preview = RawPreviews.jpeg(at: jpegOffset, length: jpegLength, input, limits) {
        metadata.previews.append(preview)
      }
    }
    if let size = try rawSize(input, directoryAt: Int(header.u32(at: 92, bigEndian: true))) {
      (metadata.width, metadata.height) = (size.width, size.height)
    }
    guard metadata.width != nil, metadata.height != nil else {
      throw .corrupt("the RAF header states no image size")
    }
    return metadata
  }

  /// RawImageCroppedSize, else RawImageFullSize, from the RAF directory at `offset`; nil without either.
  private static func rawSize(_ input: Input, directoryAt offset: Int) throws(MetadataError) -> PixelSize? {
    guard offset > 0, offset <= input.size - 4 else { return nil }
    let count = Int(try input.read(at: offset, count: 4).u32(at: 0, bigEndian: true))
    var at = offset + 4
    var full: PixelSize?
    // Cameras write a few dozen records; more is damage, and the walk stops where the file does.
    for _ in 0..<min(count, 256) {
      guard let record = try? input.read(at: at, count: 4) else { break }
      let tag = record.u16(at: 0, bigEndian: true)
      let length = Int(record.u16(at: 2, bigEndian: true))
      if (tag == 0x111 || tag == 0x100), length == 4, let value = try? input.read(at: at + 4, count: 4) {
        let size = PixelSize(
          width: Int(value.u16(at: 2, bigEndian: true)), height: Int(value.u16(at: 0, bigEndian: true)))
        if size.width > 0, size.height > 0 {
          if tag == 0x111 { return size }
          full = size
        }
      }
      at += 4 + length
    }
    return full
  }
}
