/// The MP Index IFD of a Multi-Picture Format file (CIPA DC-007-2009 §5.2.3): where each image starts.
enum MPFIndex {
  static let maxImages = 256

  struct Image {
    /// The MP Entry's individual image attribute (CIPA DC-007 §5.2.3.3.1): flags and MP type code.
    var attribute: UInt32
    /// Absolute offset of the image's SOI in the file.
    var offset: Int
    var length: Int
  }

  /// The images listed in an MPF APP2 segment, whose TIFF header is at absolute `base`.
  ///
  /// - Throws: `.corrupt` for a malformed index, `.truncated` when an image lies past the end of the file.
  static func images(_ bytes: [UInt8], base: Int, fileSize: Int, limits: MetadataReader.Limits)
    throws(MetadataError) -> [Image]
  {
    let reader = try TIFFReader(input: Input(bytes: bytes), base: 0, limits: limits)
    let index = try reader.directory(at: reader.firstIFDOffset)
    guard let entry = index[TIFFTag.mpfEntry], entry.type == 7 else { return [] }
    let table = try reader.bytes(entry)
    guard table.count % 16 == 0 else {
      throw .corrupt("MP Entry size \(table.count) is not a multiple of 16")
    }
    // Cameras write 2 to 4 images; the cap leaves room for multi-angle files and bounds the work per file.
    guard table.count / 16 <= maxImages else { throw .limitExceeded("\(table.count / 16) MPF images") }
    var images: [Image] = []
    for at in stride(from: 0, to: table.count, by: 16) {
      let attribute = table.u32(at: at, bigEndian: reader.bigEndian)
      let size = Int(table.u32(at: at + 4, bigEndian: reader.bigEndian))
      let relative = Int(table.u32(at: at + 8, bigEndian: reader.bigEndian))
      // The first image's offset is 0 by definition (§5.2.3.3.3): it is the file's primary image.
      let offset = images.isEmpty ? 0 : base + relative
      if !images.isEmpty {
        guard relative != 0 else { throw .corrupt("MP Entry \(images.count + 1) has offset 0") }
        guard offset <= fileSize, size <= fileSize - offset else { throw .truncated }
      }
      images.append(Image(attribute: attribute, offset: offset, length: size))
    }
    return images
  }
}
