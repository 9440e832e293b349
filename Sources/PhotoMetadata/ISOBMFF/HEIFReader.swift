/// Reads HEIF, HEIC and AVIF files: the primary item's size (`ispe`) and orientation (`irot`, `imir`),
/// its Exif and XMP items, thumbnail items, ICC profile and HDR gain map (ISO/IEC 23008-12).
enum HEIFReader {
  static let xmpContentType = "application/rdf+xml"

  /// The parsed `meta` box of a HEIF file, shared with the location stripper.
  static func meta(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> HEIFMeta {
    var budget = BoxBudget(limits)
    let (top, damage) = try topLevelBoxes(input, budget: &budget)
    guard let box = top.first(where: { $0.type == "meta" }) else { throw damage ?? .corrupt("no 'meta' box") }
    // A `meta` cut by the end of the file, or followed by damage, still holds whole boxes before it.
    var meta = try HEIFMeta(box, in: input, budget: &budget)
    if let damage, let last = top.last {
      meta.warnings.insert(remainderWarning(damage, after: last, input), at: 0)
      // A file cut short explains what overruns inside `meta` too.
      meta.damage = damage
    }
    // Damage that cost the primary item is the read's failure: nothing of the image itself is left. An item
    // whose `infe` entry alone was lost keeps its properties: its size is still read, as exiftool reads it.
    guard let primary = meta.primary, meta.hasItem(primary) else {
      throw meta.damage ?? .corrupt("no primary item")
    }
    return meta
  }

  /// The top-level boxes up to the first one that cannot be delimited (a file cut inside its media data keeps
  /// its `ftyp`, `meta` and `moov`), and the damage that stopped the walk.
  static func topLevelBoxes(_ input: Input, budget: inout BoxBudget) throws(MetadataError)
    -> (boxes: [Box], damage: MetadataError?)
  {
    try Boxes.childrenTolerating(of: 0..<input.size, in: input, isFile: true, depth: 1, budget: &budget)
  }

  /// The warning for a top-level walk stopped by `damage` at or after `last`.
  static func remainderWarning(_ damage: MetadataError, after last: Box, _ input: Input) -> MetadataWarning {
    if case .truncated = damage, last.end == input.size {
      return MetadataWarning(
        part: .remainder,
        reason: "the box '\(last.type)' at offset \(last.position) runs past the end of the file")
    }
    return MetadataWarning(part: .remainder, reason: "after offset \(last.end): \(damage.warningReason)")
  }

  /// The Exif item describing the primary image (`cdsc` reference), else the first Exif item.
  static func exifItem(_ meta: HEIFMeta) -> Int? {
    let described = meta.items(referencing: meta.primary ?? -1, type: "cdsc")
    return described.first { meta.items[$0]?.type == "Exif" }
      ?? meta.itemOrder.first { meta.items[$0]?.type == "Exif" }
  }

  static func xmpItems(_ meta: HEIFMeta) -> [Int] {
    meta.itemOrder.filter { meta.items[$0]?.type == "mime" && meta.items[$0]?.contentType == xmpContentType }
  }

  /// The bytes of an item, joined from its extents.
  static func data(of item: Int, _ meta: HEIFMeta, _ input: Input, limits: MetadataReader.Limits)
    throws(MetadataError) -> [UInt8]
  {
    let ranges = try meta.fileRanges(of: item, fileSize: input.size)
    let total = ranges.reduce(0) { $0 + $1.count }
    guard total <= limits.maxValueBytes else { throw .limitExceeded("a \(total)-byte item") }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(total)
    for range in ranges { bytes += try input.read(at: range.lowerBound, count: range.count) }
    return bytes
  }

  /// Where the TIFF header starts in an Exif item.
  ///
  /// ISO/IEC 23008-12 Annex A.2.1 puts a 32-bit `exif_tiff_header_offset` first, counted after itself
  /// (usually 6, skipping "Exif\0\0"). Older writers start the item with the TIFF header itself ("MM\0*",
  /// "II*\0") or with "Exif\0\0" and no offset; both are accepted, as exiftool and libheif accept them.
  ///
  /// - Throws: `.corrupt` for an empty item or one where no TIFF header is found.
  static func tiffBase(ofExifItem bytes: [UInt8]) throws(MetadataError) -> Int {
    guard !bytes.isEmpty else { throw .corrupt("the Exif item is empty") }
    func isTIFFHeader(at: Int) -> Bool {
      guard at >= 0, at + 8 <= bytes.count else { return false }
      return bytes.matches([0x4D, 0x4D, 0x00, 0x2A], at: at)
        || bytes.matches([0x49, 0x49, 0x2A, 0x00], at: at)
    }
    if isTIFFHeader(at: 0) { return 0 }
    if bytes.matches(Array("Exif".utf8) + [0, 0], at: 0), isTIFFHeader(at: 6) { return 6 }
    guard bytes.count >= 4 else { throw .corrupt("Exif item shorter than its header offset") }
    let offset = Int(bytes.u32(at: 0, bigEndian: true))
    if offset <= bytes.count - 4 - 8, isTIFFHeader(at: 4 + offset) { return 4 + offset }
    throw .corrupt("the Exif item has no TIFF header where its offset (\(offset)) points")
  }

  /// The layout of an image sequence or burst: no top-level `meta`, a `moov` whose track holds pictures
  /// (ISO/IEC 23008-12 §7); nil for a file of items.
  ///
  /// - Throws: `.corrupt` when there is neither a `meta` box nor a track of pictures.
  static func sequenceLayout(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError)
    -> QuickTimeLayout?
  {
    var budget = BoxBudget(limits)
    let (top, damage) = try topLevelBoxes(input, budget: &budget)
    guard !top.contains(where: { $0.type == "meta" }) else { return nil }
    guard top.contains(where: { $0.type == "moov" }) else { throw damage ?? .corrupt("no 'meta' box") }
    let layout = try QuickTimeLayout(input, limits: limits, toleratingCut: true)
    guard layout.videoSize != nil else { throw .corrupt("no 'meta' box and no track of pictures") }
    return layout
  }

  static func read(_ input: Input, type: MediaType, limits: MetadataReader.Limits) throws(MetadataError)
    -> MediaMetadata
  {
    if let layout = try sequenceLayout(input, limits: limits) {
      // Size, orientation, dates and place come from the track and the movie's metadata, as for a movie.
      var metadata = try QuickTimeReader.read(input, type: .heics, limits: limits)
      metadata.frameCount = layout.videoFrameCount
      // An untimed burst declares no duration (or 0); only a timed sequence has one.
      if let duration = metadata.duration, duration <= 0 { metadata.duration = nil }
      metadata.hdrGainMap = metadata.hdrGainMap ?? HDRGainMap.none
      return metadata
    }
    let meta = try meta(input, limits: limits)
    let primary = meta.primary ?? 0
    var metadata = MediaMetadata(type: type)
    metadata.hdrGainMap = HDRGainMap.none
    if let (width, height) = meta.size(of: primary) {
      metadata.width = width
      metadata.height = height
    } else if let damage = meta.damage {
      // Damage that cost the primary image its size (a `meta` cut before `iprp`, associations lost) fails the
      // read: a partial result is given only when the image's own facts survived.
      throw damage
    }
    // Transformative properties apply in association order (§6.5.1); EXIF orientation is ignored because
    // HEIF readers must not apply it on top of irot/imir (ISO/IEC 23008-12 Annex A.2.1 note).
    var transform = ImageTransform()
    for property in meta.properties(of: primary) {
      switch property {
      case .rotation(let angle): transform.rotate(anticlockwise: angle)
      case .mirror(let axis): transform.mirror(axis: axis)
      case .colour(let hasICC): metadata.hasICCProfile = metadata.hasICCProfile || hasICC
      default: break
      }
    }
    metadata.orientation = transform.orientation

    // Each optional part on its own: a damaged one becomes a warning, the others are still read.
    if let exif = exifItem(meta),
      let facts = try metadata.tolerating(
        .exif,
        { () throws(MetadataError) in
          let bytes = try data(of: exif, meta, input, limits: limits)
          return try ExifFacts.read(Input(bytes: bytes), base: tiffBase(ofExifItem: bytes), limits: limits)
        })
    {
      metadata.merge(facts)
    }
    for item in xmpItems(meta) {
      guard
        let bytes = try metadata.tolerating(
          .xmp, { () throws(MetadataError) in try data(of: item, meta, input, limits: limits) })
      else { continue }
      let xmp = XMPPacket(bytes: bytes)
      metadata.noteGainMap(xmp.gainMapKind)
      metadata.merge(xmp.facts)
    }
    for item in meta.items(referencing: primary, type: "thmb") {
      guard let kind = meta.items[item]?.type else { continue }
      guard
        let ranges = try metadata.tolerating(
          .thumbnail, { () throws(MetadataError) in try meta.fileRanges(of: item, fileSize: input.size) })
      else { continue }
      let size = meta.size(of: item)
      let single = ranges.count == 1 && meta.locations[item]?.constructionMethod == 0 ? ranges.first : nil
      let previewType: MediaType = kind == "av01" ? .avif : kind == "jpeg" ? .jpeg : .heic
      metadata.previews.append(
        EmbeddedPreview(
          kind: .heifThumbnail, type: previewType, width: size?.0, height: size?.1,
          offset: single?.lowerBound,
          length: single?.count, itemID: item))
    }
    metadata.warnings += meta.warnings
    readAuxiliaryImages(meta, primary: primary, into: &metadata)
    if let damage = meta.groupsDamage {
      metadata.warnings.append(MetadataWarning(part: .auxiliaryImage, reason: damage.warningReason))
    }
    return metadata
  }

  /// Gain maps, depth and alpha from the primary image's auxiliary images (`auxl` references, whose `auxC`
  /// names the kind: ISO/IEC 23008-12 §6.5.8, ISO/IEC 23002-7 / HEVC auxid URNs, Apple's URNs), an
  /// ISO 21496-1 `tmap` derived item, and a stereo pair from a `ster` entity group (§6.8.4).
  static func readAuxiliaryImages(_ meta: HEIFMeta, primary: Int, into metadata: inout MediaMetadata) {
    for item in meta.items(referencing: primary, type: "auxl") {
      for case .auxiliaryType(let name) in meta.properties(of: item) {
        let urn = name.lowercased()
        if urn.contains("hdrgainmap") {
          metadata.noteGainMap(.apple)
        } else if urn == "urn:mpeg:hevc:2015:auxid:1" || urn == "urn:mpeg:mpegb:cicp:systems:auxiliary:alpha"
          || urn.hasSuffix(":aux:alpha")
        {
          metadata.hasAlpha = true
        } else if urn == "urn:mpeg:hevc:2015:auxid:2" || urn == "urn:mpeg:mpegb:cicp:systems:auxiliary:depth"
          || urn.hasSuffix(":aux:depth") || urn.hasSuffix(":aux:disparity")
        {
          metadata.hasDepth = true
        }
      }
    }
    if meta.items.values.contains(where: { $0.type == "tmap" }) { metadata.noteGainMap(.iso) }
    if meta.groups.contains(where: { $0.type == "ster" && $0.entities.count >= 2 }) {
      metadata.isStereoPair = true
    }
  }
}
