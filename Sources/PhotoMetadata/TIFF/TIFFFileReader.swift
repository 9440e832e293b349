/// Reads TIFF files and the raw formats built on TIFF (DNG, CR2, NEF, ARW): IFD0's facts, the
/// full-resolution image's size, EXIF, GPS and the XMP of tag 700.
enum TIFFFileReader {
  static func read(_ input: Input, type: MediaType, limits: MetadataReader.Limits) throws(MetadataError)
    -> MediaMetadata
  {
    let facts = try ExifFacts.read(input, base: 0, limits: limits)
    var metadata = MediaMetadata(type: type == .tiff && facts.isDNG ? .dng : type)
    metadata.width = facts.imageWidth ?? facts.pixelXDimension
    metadata.height = facts.imageHeight ?? facts.pixelYDimension
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
    return metadata
  }
}
