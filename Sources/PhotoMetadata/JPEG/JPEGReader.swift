/// Reads JPEG files: SOF for the size, EXIF and XMP in APP1, ICC and MPF in APP2 (ITU T.81, EXIF 2.32 §4.5,
/// CIPA DC-007).
enum JPEGReader {
  static func read(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> MediaMetadata {
    let layout = try JPEGLayout(input, limits: limits)
    var metadata = MediaMetadata(type: .jpeg, width: layout.width, height: layout.height)
    metadata.hasICCProfile = layout.hasICCProfile
    var exifFacts: ExifFacts?
    if let exif = layout.exif {
      let facts = try ExifFacts.read(Input(bytes: exif.bytes), base: 0, limits: limits)
      exifFacts = facts
      metadata.merge(facts)
      if let range = facts.thumbnail {
        let absolute = exif.base + range.lowerBound
        let size = thumbnailSize(input, at: absolute, length: range.count, limits: limits)
        metadata.previews.append(
          EmbeddedPreview(
            kind: .exifThumbnail, type: .jpeg, width: size?.0, height: size?.1, offset: absolute,
            length: range.count))
      }
    }
    var xmpFacts: ExifFacts?
    for packet in layout.xmp {
      let xmp = XMPPacket(bytes: packet.bytes)
      if xmp.mentionsGainMap { metadata.hasGainMap = true }
      let facts = xmp.facts
      xmpFacts = xmpFacts ?? facts
      metadata.merge(facts)
    }
    metadata.orientation = exifFacts?.orientation ?? xmpFacts?.orientation ?? .up
    if let mpf = layout.mpf {
      for image in try MPFIndex.images(mpf.bytes, base: mpf.base, fileSize: input.size, limits: limits)
        .dropFirst()
      {
        let facts = secondaryImageFacts(input, at: image.offset, length: image.length, limits: limits)
        if facts.gainMap { metadata.hasGainMap = true }
        metadata.previews.append(
          EmbeddedPreview(
            kind: .mpfImage, type: .jpeg, width: facts.width, height: facts.height, offset: image.offset,
            length: image.length, mpfTypeCode: Int(image.attribute & 0x00FF_FFFF)))
      }
    }
    return metadata
  }

  /// The size of an embedded JPEG from its own SOF; nil when it cannot be read (the preview is still listed).
  static func thumbnailSize(_ input: Input, at offset: Int, length: Int, limits: MetadataReader.Limits)
    -> (Int, Int)?
  {
    let facts = secondaryImageFacts(input, at: offset, length: length, limits: limits)
    guard let width = facts.width, let height = facts.height else { return nil }
    return (width, height)
  }

  /// Size and gain-map marking of an embedded JPEG (MPF image, EXIF thumbnail), from at most 256 KiB of it.
  static func secondaryImageFacts(_ input: Input, at offset: Int, length: Int, limits: MetadataReader.Limits)
    -> (width: Int?, height: Int?, gainMap: Bool)
  {
    guard let bytes = try? input.read(at: offset, count: min(length, 256 << 10)) else {
      return (nil, nil, false)
    }
    var inner = limits
    inner.maxSegments = min(limits.maxSegments, 256)
    guard let layout = try? JPEGLayout(Input(bytes: bytes), limits: inner) else { return (nil, nil, false) }
    let gainMap = layout.xmp.contains { XMPPacket(bytes: $0.bytes).mentionsGainMap }
    return (layout.width, layout.height, gainMap)
  }
}
