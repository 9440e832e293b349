/// The per-format plans of ``LocationStripper``.
extension LocationStripper {
  static let extendedXMPSignature: [UInt8] = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]

  /// JPEG: the EXIF APP1, standard XMP APP1s, and the same in every MPF image (CIPA DC-007 §5.2.3).
  static func jpeg(_ input: Input, from start: Int = 0, limits: MetadataReader.Limits, depth: Int = 0)
    throws(MetadataError) -> StripPlan
  {
    let layout = try JPEGLayout(input, from: start, limits: limits)
    var plan = StripPlan()
    if let exif = layout.exif {
      plan.add(try ExifGPSEraser.plan(exif: exif.bytes, base: 0, limits: limits), shiftedBy: exif.base)
    }
    for packet in layout.xmp { plan.add(try XMPGPSEraser.plan(packet.bytes), shiftedBy: packet.position) }
    // Extended XMP is split across segments and checked by an MD5 of the whole: it cannot be edited in place.
    for segment in try JPEGSegments.read(input, from: start, limits: limits) where segment.marker == 0xE1 {
      let payload = try input.read(at: segment.payload.lowerBound, count: segment.payload.count)
      if payload.matches(extendedXMPSignature, at: 0), payload.firstRange(of: Array(":GPS".utf8)) != nil {
        throw .cannotStrip("GPS properties in extended XMP")
      }
    }
    if depth == 0, let mpf = layout.mpf {
      for image in try MPFIndex.images(mpf.bytes, base: mpf.base, fileSize: input.size, limits: limits)
        .dropFirst()
      {
        plan.add(try jpeg(input, from: image.offset, limits: limits, depth: 1))
      }
    }
    return plan
  }

  /// PNG: `eXIf` and uncompressed XMP iTXt are edited in place with their CRC recomputed (§5.5); chunks
  /// that cannot be edited in place (compressed XMP, ImageMagick's "Raw profile type" EXIF/XMP text) are
  /// removed whole, which PNG allows since chunks hold no offsets.
  static func png(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> StripPlan {
    var plan = StripPlan()
    for chunk in try PNGChunks.read(input, limits: limits) {
      switch chunk.type {
      case "eXIf", "iTXt", "tEXt", "zTXt":
        guard chunk.data.count <= limits.maxValueBytes else {
          throw .limitExceeded("a \(chunk.data.count)-byte text chunk")
        }
        let data = try input.read(at: chunk.data.lowerBound, count: chunk.data.count)
        var local = StripPlan()
        if chunk.type == "eXIf" {
          local = try ExifGPSEraser.plan(exif: data, base: 0, limits: limits)
        } else if let keyword = legacyProfileKeyword(data), chunk.type != "iTXt" || keyword.hasPrefix("Raw") {
          plan.edits.append(Edit(range: chunk.range, replacement: []))
          plan.removed.append("PNG \(chunk.type) '\(keyword)' chunk")
          continue
        } else if chunk.type == "iTXt" {
          let text = PNGChunks.internationalText(data, keyword: PNGReader.xmpKeyword)
          if text.compressed {
            plan.edits.append(Edit(range: chunk.range, replacement: []))
            plan.removed.append("PNG compressed XMP chunk")
            continue
          }
          guard let range = text.text else { continue }
          local.add(try XMPGPSEraser.plan(Array(data[range])), shiftedBy: range.lowerBound)
        }
        guard !local.edits.isEmpty else { continue }
        var patched = data
        for edit in local.edits { patched.replaceSubrange(edit.range, with: edit.replacement) }
        let crc = CRC32.checksum(Array(chunk.type.utf8) + patched)
        plan.add(local, shiftedBy: chunk.data.lowerBound)
        plan.edits.append(
          .patch(
            at: chunk.data.upperBound,
            [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]))
      default:
        continue
      }
    }
    return plan
  }

  /// The keyword of a text chunk that ImageMagick uses for raw EXIF, XMP or APP1 profiles.
  private static func legacyProfileKeyword(_ data: [UInt8]) -> String? {
    guard let nul = data.prefix(80).firstIndex(of: 0) else { return nil }
    let keyword = String(decoding: data[..<nul], as: UTF8.self)
    let lowered = keyword.lowercased()
    return ["raw profile type exif", "raw profile type app1", "raw profile type xmp"].contains(lowered)
      ? keyword : nil
  }

  /// WebP: the EXIF and "XMP " chunks, in place (WebP Container Specification, "Extended File Format").
  static func webp(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> StripPlan {
    var plan = StripPlan()
    for chunk in try RIFFChunks.read(input, limits: limits)
    where chunk.fourCC == "EXIF" || chunk.fourCC == "XMP " {
      guard chunk.data.count <= limits.maxValueBytes else {
        throw .limitExceeded("a \(chunk.data.count)-byte chunk")
      }
      let data = try input.read(at: chunk.data.lowerBound, count: chunk.data.count)
      if chunk.fourCC == "EXIF" {
        let base = data.matches(JPEGLayout.exifSignature, at: 0) ? 6 : 0
        plan.add(
          try ExifGPSEraser.plan(exif: data, base: base, limits: limits), shiftedBy: chunk.data.lowerBound)
      } else {
        plan.add(try XMPGPSEraser.plan(data), shiftedBy: chunk.data.lowerBound)
      }
    }
    return plan
  }

  /// GIF: every XMP application extension in the file (the magic trailer keeps any text valid, §26).
  static func gif(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> StripPlan {
    let header = try input.read(at: 0, count: 13)
    var cursor = BufferedCursor(input, at: 13)
    if header[10] & 0x80 != 0 { try cursor.skip(3 << (Int(header[10] & 0x07) + 1)) }
    var plan = StripPlan()
    var count = 0
    while let block = try GIFReader.nextBlock(&cursor, limits: limits) {
      count += 1
      guard count <= limits.maxChunks else { throw .limitExceeded("\(limits.maxChunks) GIF blocks") }
      // A packet that cannot be delimited may hold a location that cannot be found: refuse, never keep it.
      if let damage = block.xmpDamage { throw .corrupt(damage) }
      guard let range = block.xmp else { continue }
      guard range.count <= limits.maxValueBytes else { throw .limitExceeded("a \(range.count)-byte XMP") }
      plan.add(
        try XMPGPSEraser.plan(try input.read(at: range.lowerBound, count: range.count)),
        shiftedBy: range.lowerBound)
    }
    return plan
  }

  /// TIFF and TIFF-based raws: the GPS IFD and the XMP of tag 700, in the file itself.
  static func tiff(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> StripPlan {
    let reader = try TIFFReader(input: input, base: 0, limits: limits)
    let structure = try reader.structure()
    var plan = try ExifGPSEraser.plan(reader, structure)
    if let entry = structure.ifd0[TIFFTag.xmp], [1, 7].contains(entry.type) {
      plan.add(try XMPGPSEraser.plan(try reader.bytes(entry)), shiftedBy: entry.valuePosition)
    }
    return plan
  }

  /// HEIF: the Exif item's GPS IFD and the XMP items, edited in place through their `iloc` extents; no
  /// item changes size, so `iloc` needs no change (ISO/IEC 14496-12 §8.11.3).
  static func heif(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> StripPlan {
    // An image sequence keeps its facts as a movie does, in the track's and the movie's metadata.
    if try HEIFReader.sequenceLayout(input, limits: limits) != nil {
      return try quickTime(input, limits: limits)
    }
    let meta = try HEIFReader.meta(input, limits: limits)
    // The stripper must see every item: boxes left unread after damage might hold location.
    if let damage = meta.warnings.first {
      throw .cannotStrip("part of the file is damaged: \(damage.reason)")
    }
    var plan = StripPlan()
    for item in meta.itemOrder where meta.items[item]?.type == "Exif" {
      let bytes = try HEIFReader.data(of: item, meta, input, limits: limits)
      // An empty Exif item (iPhone Live Photo stills have them) holds no location to remove.
      if bytes.isEmpty { continue }
      let local = try ExifGPSEraser.plan(
        exif: bytes, base: HEIFReader.tiffBase(ofExifItem: bytes), limits: limits)
      try plan.add(local, through: meta.fileRanges(of: item, fileSize: input.size))
    }
    for item in HEIFReader.xmpItems(meta) {
      let local = try XMPGPSEraser.plan(try HEIFReader.data(of: item, meta, input, limits: limits))
      try plan.add(local, through: meta.fileRanges(of: item, fileSize: input.size))
    }
    return plan
  }

  /// QuickTime / MPEG-4: location user-data atoms (`©xyz`, `loci`) become `free` atoms with zeroed payloads
  /// (ISO/IEC 14496-12 §8.1.2: free space may appear anywhere), and `com.apple.quicktime.location.*` keys are
  /// renamed to a same-length private key and their values blanked.
  static func quickTime(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> StripPlan {
    let layout = try QuickTimeLayout(input, limits: limits)
    var plan = StripPlan()
    for atom in layout.userData where QuickTimeReader.locationAtoms.contains(atom.type) {
      plan.edits.append(.patch(at: atom.position + 4, Array("free".utf8)))
      plan.edits.append(.fill(atom.payload, with: 0))
      plan.removed.append("QuickTime \(atom.type) atom")
    }
    for item in layout.metadataItems where item.key.hasPrefix("com.apple.quicktime.location") {
      plan.edits.append(.patch(at: item.keyRange.lowerBound, redactedKey(length: item.keyRange.count)))
      plan.edits.append(.fill(item.value, with: item.dataType == 1 ? 0x20 : 0))
      plan.removed.append("QuickTime key \(item.key)")
    }
    return plan
  }

  /// "org.photointake.removed" cut or padded with "_" to `length` bytes.
  static func redactedKey(length: Int) -> [UInt8] {
    let name = Array("org.photointake.removed".utf8)
    return Array(
      (name + [UInt8](repeating: UInt8(ascii: "_"), count: max(0, length - name.count))).prefix(length))
  }
}
