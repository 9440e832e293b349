/// Reads TIFF files and the raw formats built on TIFF (DNG, CR2, NEF, ARW, ORF, RW2, PEF, SRW): IFD0's
/// facts, the full-resolution image's size, EXIF, GPS, the XMP of tag 700, and a raw's embedded previews.
enum TIFFFileReader {
  static func read(_ input: Input, type: MediaType, limits: MetadataReader.Limits) throws(MetadataError)
    -> MediaMetadata
  {
    let reader = try TIFFReader(input: input, base: 0, limits: limits)
    let structure = try reader.structure(tolerating: true)
    let facts = try ExifFacts.read(reader, structure)
    var metadata = MediaMetadata(type: type == .tiff ? try refinedType(reader, structure, facts) : type)
    metadata.width = facts.imageWidth ?? facts.pixelXDimension
    metadata.height = facts.imageHeight ?? facts.pixelYDimension
    if type == .rw2, let size = try rw2ImageSize(reader, structure.ifd0) {
      (metadata.width, metadata.height) = (size.width, size.height)
    }
    // Canon CR2 and Phase One IIQ state the picture's size in the Exif IFD only: IFD0 holds a preview (or a
    // 1×1 placeholder), and the sensor's own directory has no size tags exiftool or libraw trust. exiftool's
    // ImageSize takes ExifImageWidth and ExifImageHeight for these two.
    // (An IIQ is a TIFF whose header is followed by Phase One's own "IIII" and "CwaR".)
    let isPhaseOne = (try? input.readAvailable(at: 8, count: 8)) == Array("IIIICwaR".utf8)
    if type == .cr2 || isPhaseOne, let width = facts.pixelXDimension, let height = facts.pixelYDimension,
      width > 0, height > 0
    {
      (metadata.width, metadata.height) = (width, height)
    }
    // Damage to IFD0 that cost the image its size fails the read; other damage costs only what it touched.
    if metadata.width == nil || metadata.height == nil, let damage = facts.ifd0Damage.first {
      throw damage.hasPrefix("the file ends") ? .truncated : .corrupt("IFD0: \(damage)")
    }
    metadata.merge(facts)
    var xmpOrientation: Orientation?
    if let bytes = facts.xmp {
      let xmp = XMPPacket(bytes: bytes)
      metadata.merge(xmp.facts)
      xmpOrientation = xmp.facts.orientation
    }
    metadata.orientation = facts.orientation ?? xmpOrientation ?? .up
    if let range = facts.thumbnail {
      let size = JPEGReader.thumbnailSize(input, at: range.lowerBound, length: range.count, limits: limits)
      metadata.previews.append(
        EmbeddedPreview(
          kind: .exifThumbnail, type: .jpeg, width: size?.0, height: size?.1, offset: range.lowerBound,
          length: range.count))
    }
    if metadata.type.isRaw {
      let thumbnail = facts.thumbnail?.lowerBound
      metadata.previews += RawPreviews.find(reader, structure).filter { $0.offset != thumbnail }
    }
    return metadata
  }

  /// A TIFF that sniffing could not tell from a raw, decided from the whole of IFD0: DNGVersion, or the Make
  /// and layout of a NEF, ARW, PEF or SRW whose Make lies past the first 4 KiB.
  private static func refinedType(_ reader: TIFFReader, _ structure: TIFFStructure, _ facts: ExifFacts)
    throws(MetadataError) -> MediaType
  {
    if facts.isDNG { return .dng }
    let ifd0 = structure.ifd0
    let subfileType = (try? reader.integer(ifd0[TIFFTag.newSubfileType])) ?? nil
    return MediaType.rawTIFFType(
      make: facts.make ?? "", hasSubIFDs: ifd0[TIFFTag.subIFDs] != nil,
      isReduced: (subfileType ?? 0) & 1 == 1,
      photometric: (try? reader.integer(ifd0[TIFFTag.photometricInterpretation])) ?? nil)
  }

  /// The size of an RW2's image area (exiftool's Composite ImageWidth and ImageHeight): the sensor between its
  /// borders (IFD0 tags 4–7), or the whole sensor (tags 2 and 3) when the borders are not stated.
  private static func rw2ImageSize(_ reader: TIFFReader, _ ifd0: IFD) throws(MetadataError) -> PixelSize? {
    let top = try reader.integer(ifd0[TIFFTag.rw2SensorTopBorder])
    let left = try reader.integer(ifd0[TIFFTag.rw2SensorLeftBorder])
    let bottom = try reader.integer(ifd0[TIFFTag.rw2SensorBottomBorder])
    let right = try reader.integer(ifd0[TIFFTag.rw2SensorRightBorder])
    if let top, let left, let bottom, let right, right > left, bottom > top {
      return PixelSize(width: right - left, height: bottom - top)
    }
    guard let width = try reader.integer(ifd0[TIFFTag.rw2SensorWidth]),
      let height = try reader.integer(ifd0[TIFFTag.rw2SensorHeight]), width > 0, height > 0
    else { return nil }
    return PixelSize(width: width, height: height)
  }
}
