/// Reads HEIF, HEIC and AVIF files: the primary item's size (`ispe`) and orientation (`irot`, `imir`),
/// its Exif and XMP items, thumbnail items, ICC profile and HDR gain map (ISO/IEC 23008-12).
enum HEIFReader {
  static let xmpContentType = "application/rdf+xml"

  /// The parsed `meta` box of a HEIF file, shared with the location stripper.
  static func meta(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> HEIFMeta {
    var budget = BoxBudget(limits)
    let top = try Boxes.children(of: 0..<input.size, in: input, isFile: true, depth: 1, budget: &budget)
    guard let box = top.first(where: { $0.type == "meta" }) else { throw .corrupt("no 'meta' box") }
    let meta = try HEIFMeta(box, in: input, budget: &budget)
    guard let primary = meta.primary, meta.items[primary] != nil else { throw .corrupt("no primary item") }
    return meta
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

  /// Offset of the TIFF header in an Exif item: a 32-bit offset, counted after itself (ISO/IEC 23008-12
  /// Annex A.2.1, `exif_tiff_header_offset`), usually skipping "Exif\0\0".
  static func tiffBase(ofExifItem bytes: [UInt8]) throws(MetadataError) -> Int {
    guard bytes.count >= 4 else { throw .corrupt("Exif item shorter than its header offset") }
    let offset = Int(bytes.u32(at: 0, bigEndian: true))
    guard offset <= bytes.count - 4 - 8 else {
      throw .corrupt("Exif item header offset \(offset) is past its end")
    }
    return 4 + offset
  }

  static func read(_ input: Input, type: MediaType, limits: MetadataReader.Limits) throws(MetadataError)
    -> MediaMetadata
  {
    let meta = try meta(input, limits: limits)
    let primary = meta.primary ?? 0
    var metadata = MediaMetadata(type: type)
    if let (width, height) = meta.size(of: primary) {
      metadata.width = width
      metadata.height = height
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

    if let exif = exifItem(meta) {
      let bytes = try data(of: exif, meta, input, limits: limits)
      metadata.merge(
        try ExifFacts.read(Input(bytes: bytes), base: tiffBase(ofExifItem: bytes), limits: limits))
    }
    for item in xmpItems(meta) {
      let xmp = XMPPacket(bytes: try data(of: item, meta, input, limits: limits))
      if xmp.mentionsGainMap { metadata.hasGainMap = true }
      metadata.merge(xmp.facts)
    }
    for item in meta.items(referencing: primary, type: "thmb") {
      guard let kind = meta.items[item]?.type else { continue }
      let size = meta.size(of: item)
      let ranges = try meta.fileRanges(of: item, fileSize: input.size)
      let single = ranges.count == 1 && meta.locations[item]?.constructionMethod == 0 ? ranges.first : nil
      let previewType: MediaType = kind == "av01" ? .avif : kind == "jpeg" ? .jpeg : .heic
      metadata.previews.append(
        EmbeddedPreview(
          kind: .heifThumbnail, type: previewType, width: size?.0, height: size?.1,
          offset: single?.lowerBound,
          length: single?.count, itemID: item))
    }
    // Gain maps: an auxiliary image whose auxC names Apple's HDR gain map, or an ISO 21496-1 `tmap` item.
    for item in meta.items(referencing: primary, type: "auxl") {
      for case .auxiliaryType(let name) in meta.properties(of: item) where name.contains("hdrgainmap") {
        metadata.hasGainMap = true
      }
    }
    if meta.items.values.contains(where: { $0.type == "tmap" }) { metadata.hasGainMap = true }
    return metadata
  }
}
