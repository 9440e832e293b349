/// Reads JPEG files: SOF for the size, EXIF and XMP in APP1, ICC and MPF in APP2 (ITU T.81, EXIF 2.32 §4.5,
/// CIPA DC-007).
enum JPEGReader {
  static func read(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> MediaMetadata {
    let layout = try JPEGLayout(input, limits: limits, toleratingCut: true)
    var metadata = MediaMetadata(type: .jpeg, width: layout.width, height: layout.height)
    metadata.hasICCProfile = layout.hasICCProfile
    if let cut = layout.cutAt {
      let reason =
        layout.cutReason
        ?? (layout.cutIsDamage
          ? "the bytes at offset \(cut), after the frame header, lead to no JPEG marker"
          : "the file ends at offset \(input.size), inside the segment at offset \(cut)")
      metadata.warnings.append(MetadataWarning(part: .remainder, reason: reason))
    }
    for run in layout.extraneous {
      metadata.warnings.append(
        MetadataWarning(
          part: .extraneousBytes,
          reason:
            "\(run.count) bytes at offset \(run.lowerBound) belong to no segment; the headers were read on"
            + " from the marker at offset \(run.upperBound)"))
    }
    // Each optional part on its own: a damaged one becomes a warning, the others are still read.
    var exifFacts: ExifFacts?
    if let exif = layout.exif,
      let facts = try metadata.tolerating(
        .exif,
        { () throws(MetadataError) in try ExifFacts.read(Input(bytes: exif.bytes), base: 0, limits: limits) })
    {
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
    // A JPEG's gain map is an MPF image of its own (Ultra HDR 1.0, Adobe's gain-map JPEG, Apple's, ISO
    // 21496-1 Annex C), so only that image's metadata says which kind there is: the primary's `hdrgm:` XMP
    // or version-only ISO 21496-1 APP2 stay behind when an editor drops the trailing images (Photoshop
    // does), and promise a gain map the file no longer has.
    for packet in layout.xmp {
      let xmp = XMPPacket(bytes: packet.bytes)
      if xmp.mentionsDepth { metadata.hasDepth = true }
      let facts = xmp.facts
      xmpFacts = xmpFacts ?? facts
      metadata.merge(facts)
    }
    metadata.orientation = exifFacts?.orientation ?? xmpFacts?.orientation ?? .up
    if let mpf = layout.mpf,
      let images = try metadata.tolerating(
        .mpf,
        { () throws(MetadataError) in
          try MPFIndex.images(mpf.bytes, base: mpf.base, fileSize: input.size, limits: limits)
        })
    {
      for image in images.dropFirst() {
        let facts = secondaryImageFacts(input, at: image.offset, length: image.length, limits: limits)
        metadata.noteGainMap(facts.gainMap)
        if facts.depth { metadata.hasDepth = true }
        let code = Int(image.attribute & 0x00FF_FFFF)
        // MP Type 0x020002: Multi-Frame Image, Disparity (CIPA DC-007 §5.2.3.3.1) — a stereo view.
        if code == 0x02_0002 { metadata.isStereoPair = true }
        metadata.previews.append(
          EmbeddedPreview(
            kind: .mpfImage, type: .jpeg, width: facts.width, height: facts.height, offset: image.offset,
            length: image.length, mpfTypeCode: code))
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

  /// Size, gain-map kind and depth marking of an embedded JPEG (MPF image, EXIF thumbnail), from at most
  /// 256 KiB of it.
  static func secondaryImageFacts(_ input: Input, at offset: Int, length: Int, limits: MetadataReader.Limits)
    -> (width: Int?, height: Int?, gainMap: HDRGainMap, depth: Bool)
  {
    guard let bytes = try? input.read(at: offset, count: min(length, 256 << 10)) else {
      return (nil, nil, .none, false)
    }
    var inner = limits
    inner.maxSegments = min(limits.maxSegments, 256)
    guard let layout = try? JPEGLayout(Input(bytes: bytes), limits: inner) else {
      return (nil, nil, .none, false)
    }
    let packets = layout.xmp.map { XMPPacket(bytes: $0.bytes) }
    var gainMap = packets.map(\.gainMapKind).first { $0 != .none } ?? .none
    if layout.hasISOGainMapMetadata { gainMap = .iso }
    return (layout.width, layout.height, gainMap, packets.contains { $0.mentionsDepth })
  }
}
