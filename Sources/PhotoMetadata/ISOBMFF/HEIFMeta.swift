/// The item structure of a HEIF `meta` box (ISO/IEC 23008-12 §9; ISO/IEC 14496-12 §8.11): items, where
/// their bytes are, how they reference each other, and their properties.
struct HEIFMeta {
  struct Item {
    var id: Int
    /// `hvc1`, `av01`, `grid`, `Exif`, `mime`, `tmap`, …
    var type: String
    /// For `mime` items, e.g. "application/rdf+xml" for XMP.
    var contentType: String?
  }

  struct Extent {
    var offset: Int
    var length: Int
  }

  /// An item's bytes (`iloc`, ISO/IEC 14496-12 §8.11.3): in the file (method 0) or in `idat` (method 1).
  struct Location {
    var constructionMethod: Int
    var extents: [Extent]
  }

  enum Property {
    case size(width: Int, height: Int)
    case rotation(Int)
    case mirror(Int)
    case colour(hasICC: Bool)
    case auxiliaryType(String)
    case other
  }

  var primary: Int?
  var items: [Int: Item] = [:]
  var itemOrder: [Int] = []
  var locations: [Int: Location] = [:]
  /// (reference type, from, to) from `iref`.
  var references: [(type: String, from: Int, to: [Int])] = []
  var properties: [Property] = []
  /// Item → 1-based property indices, in association order (transforms apply in this order, §6.5.1).
  var associations: [Int: [Int]] = [:]
  /// Absolute range of the `idat` payload.
  var idat: Range<Int>?
  /// Entity groups from `grpl` (ISO/IEC 23008-12 §6.8): `ster` (a stereo pair), `altr`, `brst`, …
  var groups: [(type: String, entities: [Int])] = []
  /// Why `grpl` could not be read, when it could not: groups are optional, the items are still usable.
  var groupsDamage: MetadataError?
  /// Boxes of the file or of `meta` left unread after damage (a file cut inside its media data, a box that
  /// overruns its parent), for the reader's warnings.
  var warnings: [MetadataWarning] = []
  /// The first of that damage, the read's error when it cost the primary image its item or its size.
  var damage: MetadataError?

  /// Whether `item` is known: by its `infe` entry, or, when that entry was lost to damage, by its location
  /// or its properties (exiftool sizes such an item from its `ispe` alone).
  func hasItem(_ item: Int) -> Bool {
    items[item] != nil || locations[item] != nil || associations[item] != nil
  }

  /// Every known item: those with an `infe` entry in their order, then those known only by their location or
  /// properties, by ID. The decode survey must see an item whose entry was lost, as the decoder may still
  /// find it.
  var allItems: [Int] {
    itemOrder + Set(locations.keys).union(associations.keys).filter { items[$0] == nil }.sorted()
  }

  func properties(of item: Int) -> [Property] {
    (associations[item] ?? []).compactMap { index in
      index >= 1 && index <= properties.count ? properties[index - 1] : nil
    }
  }

  func size(of item: Int) -> (Int, Int)? {
    for case .size(let width, let height) in properties(of: item) { return (width, height) }
    return nil
  }

  /// Items that reference `target` with `type` (e.g. `thmb`, `cdsc`, `auxl`).
  func items(referencing target: Int, type: String) -> [Int] {
    references.filter { $0.type == type && $0.to.contains(target) }.map(\.from)
  }

  /// Absolute file ranges of an item's bytes, validated against the file size.
  ///
  /// Empty for construction method 2 (an item made of other items' data).
  ///
  /// - Throws: `.truncated` when an extent lies past the end.
  func fileRanges(of item: Int, fileSize: Int) throws(MetadataError) -> [Range<Int>] {
    guard let location = locations[item] else { throw .corrupt("item \(item) has no location") }
    var ranges: [Range<Int>] = []
    for extent in location.extents {
      var start = extent.offset
      var limit = fileSize
      switch location.constructionMethod {
      case 0: break
      case 1:
        guard let idat else { throw .corrupt("item \(item) is in a missing idat box") }
        start = idat.lowerBound &+ extent.offset
        limit = idat.upperBound
      default: return []  // construction method 2 builds an item from other items: no byte range of its own
      }
      // A length of 0 means "to the end of the file" (§8.11.3.3).
      let length = extent.length == 0 ? limit - start : extent.length
      guard start >= 0, start <= limit, length >= 0, length <= limit - start else { throw .truncated }
      ranges.append(start..<(start + length))
    }
    return ranges
  }
}

extension HEIFMeta {
  /// Parses the `meta` box at `box` (a full box) of `input`.
  init(_ box: Box, in input: Input, budget: inout BoxBudget) throws(MetadataError) {
    let limits = budget.limits
    guard box.payload.count >= 4 else { throw .corrupt("meta box has no version") }
    let (children, damage) = try Boxes.childrenTolerating(
      of: (box.payload.lowerBound + 4)..<box.payload.upperBound, in: input, isFile: false, depth: 2,
      budget: &budget)
    if let damage { note(damage, in: "in 'meta'") }
    for child in children {
      // Each structure on its own: a damaged one (a field size the specification forbids, a table cut short)
      // costs what it describes, and the reader says so; the rest are still read, as exiftool reads them.
      // The primary item, its size or its data may then be missing: the reader and the decoders decide.
      do throws(MetadataError) {
        switch child.type {
        case "pitm":
          var (version, reader) = try Boxes.fullBox(child, in: input, limit: 64)
          primary = version == 0 ? Int(try reader.u16()) : Int(try reader.u32())
        case "iinf":
          try parseItemInfo(child, input, &budget)
        case "iloc":
          try parseLocations(child, input, limits)
        case "iref":
          try parseReferences(child, input, &budget)
        case "iprp":
          try parseProperties(child, input, &budget)
        case "idat":
          idat = child.payload
        case "grpl":
          do {
            try parseGroups(child, input, &budget)
          } catch {
            groupsDamage = error
          }
        default:
          continue
        }
      } catch {
        switch error {
        case .truncated, .corrupt:
          note(error, in: "the '\(child.type)' box")
        default:
          throw error
        }
      }
    }
  }

  /// Records structural damage as a warning, and the first as ``damage``.
  mutating func note(_ error: MetadataError, in place: String) {
    damage = damage ?? error
    warnings.append(MetadataWarning(part: .boxes, reason: "\(place): \(error.warningReason)"))
  }

  /// ItemInfoBox (ISO/IEC 14496-12 §8.11.6): one `infe` per item.
  ///
  /// Each entry on its own: an entry that overruns the box (a size with a flipped high bit, as in a fuzzed
  /// file exiftool reports as "Truncated 'infe' data") ends the list, and one shorter than its fields costs
  /// only its item; the entries read are kept and the damage is a warning. An item without its entry keeps
  /// its location and properties, so a primary image whose entry was lost still has its size.
  private mutating func parseItemInfo(_ box: Box, _ input: Input, _ budget: inout BoxBudget)
    throws(MetadataError)
  {
    var (version, reader) = try Boxes.fullBox(box, in: input, limit: budget.limits.maxValueBytes)
    let count = version == 0 ? Int(try reader.u16()) : Int(try reader.u32())
    guard count <= budget.limits.maxItems else { throw .limitExceeded("\(count) HEIF items") }
    let (entries, damage) = try Boxes.childrenTolerating(
      of: (box.payload.lowerBound + reader.position)..<box.end, in: input, isFile: false, depth: 3,
      budget: &budget)
    if let damage { note(damage, in: "in 'iinf'") }
    for entry in entries.prefix(count) where entry.type == "infe" {
      do throws(MetadataError) {
        var (entryVersion, item) = try Boxes.fullBox(entry, in: input, limit: 64 << 10)
        // ItemInfoEntry (ISO/IEC 14496-12 §8.11.6.2): versions 2 and 3 carry an item type.
        guard entryVersion >= 2 else { continue }
        let id = entryVersion == 2 ? Int(try item.u16()) : Int(try item.u32())
        _ = try item.u16()
        let type = try item.fourCC()
        _ = item.cString()
        let contentType = type == "mime" ? item.cString() : nil
        if items[id] == nil { itemOrder.append(id) }
        items[id] = Item(id: id, type: type, contentType: contentType)
      } catch {
        switch error {
        case .truncated, .corrupt: note(error, in: "the 'infe' box at offset \(entry.position)")
        default: throw error
        }
      }
    }
  }

  /// GroupsListBox: EntityToGroupBoxes, each a full box with group_id, num_entities_in_group and the entity
  /// IDs (ISO/IEC 14496-12 §8.18.3).
  private mutating func parseGroups(_ box: Box, _ input: Input, _ budget: inout BoxBudget)
    throws(MetadataError)
  {
    for group in try Boxes.children(of: box.payload, in: input, isFile: false, depth: 3, budget: &budget) {
      var (_, reader) = try Boxes.fullBox(group, in: input, limit: 64 << 10)
      _ = try reader.u32()
      let count = Int(try reader.u32())
      guard count <= budget.limits.maxItems else { throw .limitExceeded("\(count) grouped entities") }
      var entities: [Int] = []
      for _ in 0..<count { entities.append(Int(try reader.u32())) }
      groups.append((group.type, entities))
    }
  }

  /// ItemLocationBox, versions 0–2 (ISO/IEC 14496-12 §8.11.3.2).
  private mutating func parseLocations(_ box: Box, _ input: Input, _ limits: MetadataReader.Limits)
    throws(MetadataError)
  {
    var (version, reader) = try Boxes.fullBox(box, in: input, limit: limits.maxValueBytes)
    guard version <= 2 else { throw .corrupt("iloc version \(version)") }
    let sizes = try reader.u8(), more = try reader.u8()
    let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 15), baseOffsetSize = Int(more >> 4)
    let indexSize = version >= 1 ? Int(more & 15) : 0
    let count = version < 2 ? Int(try reader.u16()) : Int(try reader.u32())
    guard count <= limits.maxItems else { throw .limitExceeded("\(count) iloc items") }
    var extentTotal = 0
    for _ in 0..<count {
      let id = version < 2 ? Int(try reader.u16()) : Int(try reader.u32())
      var method = 0
      if version >= 1 { method = Int(try reader.u16() & 15) }
      _ = try reader.u16()  // data_reference_index: 0 is "this file"
      let base = try reader.uint(size: baseOffsetSize)
      let extentCount = Int(try reader.u16())
      extentTotal += extentCount
      guard extentTotal <= limits.maxItems else { throw .limitExceeded("\(extentTotal) iloc extents") }
      var extents: [Extent] = []
      for _ in 0..<extentCount {
        if indexSize > 0 { _ = try reader.uint(size: indexSize) }
        let offset = try reader.uint(size: offsetSize)
        let length = try reader.uint(size: lengthSize)
        let (start, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, start <= UInt64(Int.max / 2), length <= UInt64(Int.max / 2) else {
          throw .corrupt("iloc extent of item \(id) overflows")
        }
        extents.append(Extent(offset: Int(start), length: Int(length)))
      }
      locations[id] = Location(constructionMethod: method, extents: extents)
    }
  }

  /// ItemReferenceBox (ISO/IEC 14496-12 §8.11.12).
  private mutating func parseReferences(_ box: Box, _ input: Input, _ budget: inout BoxBudget)
    throws(MetadataError)
  {
    let (version, _) = try Boxes.fullBox(box, in: input, limit: budget.limits.maxValueBytes)
    let children = try Boxes.children(
      of: (box.payload.lowerBound + 4)..<box.end, in: input, isFile: false, depth: 3, budget: &budget)
    for child in children {
      guard child.payload.count <= budget.limits.maxValueBytes else { throw .limitExceeded("iref size") }
      var reader = ByteReader(
        try input.read(at: child.payload.lowerBound, count: child.payload.count),
        shortError: .corrupt("reference box '\(child.type)' is shorter than its fields"))
      let from = version == 0 ? Int(try reader.u16()) : Int(try reader.u32())
      let count = Int(try reader.u16())
      var to: [Int] = []
      for _ in 0..<count { to.append(version == 0 ? Int(try reader.u16()) : Int(try reader.u32())) }
      references.append((child.type, from, to))
    }
  }

  /// ItemPropertiesBox: `ipco` properties and `ipma` associations (ISO/IEC 23008-12 §9.3).
  private mutating func parseProperties(_ box: Box, _ input: Input, _ budget: inout BoxBudget)
    throws(MetadataError)
  {
    let limits = budget.limits
    let (children, damage) = try Boxes.childrenTolerating(
      of: box.payload, in: input, isFile: false, depth: 3, budget: &budget)
    if let damage { note(damage, in: "in 'iprp'") }
    for child in children {
      if child.type == "ipco" {
        let (boxes, damage) = try Boxes.childrenTolerating(
          of: child.payload, in: input, isFile: false, depth: 4, budget: &budget)
        // A property after the damage is missing; its index would shift every later one, so none is guessed.
        if let damage { note(damage, in: "in 'ipco'") }
        guard boxes.count <= limits.maxItems else { throw .limitExceeded("\(boxes.count) properties") }
        for property in boxes { properties.append(try Self.property(property, input)) }
      } else if child.type == "ipma" {
        var (version, reader) = try Boxes.fullBox(child, in: input, limit: limits.maxValueBytes)
        let flags = reader.bytes[3]
        let count = Int(try reader.u32())
        guard count <= limits.maxItems else { throw .limitExceeded("\(count) ipma entries") }
        for _ in 0..<count {
          let id = version < 1 ? Int(try reader.u16()) : Int(try reader.u32())
          let associationCount = Int(try reader.u8())
          var indices: [Int] = []
          for _ in 0..<associationCount {
            indices.append(flags & 1 == 1 ? Int(try reader.u16() & 0x7FFF) : Int(try reader.u8() & 0x7F))
          }
          associations[id, default: []] += indices
        }
      }
    }
  }

  private static func property(_ box: Box, _ input: Input) throws(MetadataError) -> Property {
    switch box.type {
    case "ispe":
      var (_, reader) = try Boxes.fullBox(box, in: input, limit: 64)
      return .size(width: Int(try reader.u32()), height: Int(try reader.u32()))
    case "irot", "imir":
      guard box.payload.count >= 1 else { throw .corrupt("'\(box.type)' box is empty") }
      let value = Int(try input.read(at: box.payload.lowerBound, count: 1)[0])
      return box.type == "irot" ? .rotation(value & 3) : .mirror(value & 1)
    case "colr":
      guard box.payload.count >= 4 else { throw .corrupt("'colr' box is too short") }
      let kind = String(decoding: try input.read(at: box.payload.lowerBound, count: 4), as: UTF8.self)
      return .colour(hasICC: kind == "prof" || kind == "rICC")
    case "auxC":
      let (_, reader) = try Boxes.fullBox(box, in: input, limit: 4096)
      var copy = reader
      return .auxiliaryType(copy.cString())
    default:
      return .other
    }
  }
}
