/// Reads Sigma / Foveon X3F raws as exiftool (`SigmaRaw.pm`) and libraw read them, little-endian throughout.
///
/// The header: `FOVb`, the version (major in the high 16 bits), then the image's width and height at bytes 28
/// and 32 before version 4.0, at bytes 40 and 44 from 4.0 on (exiftool's ImageSize). The file's last 4 bytes
/// point to the section directory: `SECd`, a version, a count, then records of an offset, a length and a
/// type. The `PROP` section (`SECp`, a version, a count, the character format — 0, UTF-16 — a reserved word and
/// the length in characters; then pairs of name and value indices into the characters) names the camera
/// (CAMMANUF, CAMMODEL) and the date (TIME, seconds on the camera's clock). Damaged properties cost only those
/// facts.
enum X3FReader {
  static func read(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError) -> MediaMetadata {
    let header = try input.read(at: 0, count: 52)
    let major = header.u32(at: 4, bigEndian: false) >> 16
    let at = major < 4 ? 28 : 40
    let width = Int(header.u32(at: at, bigEndian: false))
    let height = Int(header.u32(at: at + 4, bigEndian: false))
    guard width > 0, height > 0, width < 1 << 20, height < 1 << 20 else {
      throw .corrupt("the X3F header states no image size")
    }
    var metadata = MediaMetadata(type: .x3f)
    (metadata.width, metadata.height) = (width, height)
    let properties = try metadata.tolerating(.exif) { () throws(MetadataError) in
      try Self.properties(input, limits: limits)
    }
    if let properties {
      metadata.make = properties["CAMMANUF"]
      metadata.model = properties["CAMMODEL"]
      metadata.captureDate = properties["TIME"].flatMap { Int($0) }.flatMap(DateParsing.cameraClock)
    }
    return metadata
  }

  /// The properties of the `PROP` sections, by name; empty when the file has none.
  private static func properties(_ input: Input, limits: MetadataReader.Limits) throws(MetadataError)
    -> [String: String]
  {
    guard input.size >= 8 else { throw .truncated }
    let directory = Int(try input.read(at: input.size - 4, count: 4).u32(at: 0, bigEndian: false))
    let head = try input.read(at: directory, count: 12)
    guard Array(head[0..<4]) == Array("SECd".utf8) else { throw .corrupt("no X3F section directory") }
    let count = Int(head.u32(at: 8, bigEndian: false))
    guard count <= 1024 else { throw .limitExceeded("\(count) X3F sections") }
    let records = try input.read(at: directory + 12, count: count * 12)
    var found: [String: String] = [:]
    for index in 0..<count {
      let record = index * 12
      guard Array(records[(record + 8)..<(record + 12)]) == Array("PROP".utf8) else { continue }
      let offset = Int(records.u32(at: record, bigEndian: false))
      let length = Int(records.u32(at: record + 4, bigEndian: false))
      guard length <= limits.maxValueBytes else { throw .limitExceeded("a \(length)-byte X3F property list") }
      found.merge(try section(try input.read(at: offset, count: length))) { first, _ in first }
    }
    return found
  }

  /// The name–value pairs of one `SECp` section.
  private static func section(_ bytes: [UInt8]) throws(MetadataError) -> [String: String] {
    guard bytes.count >= 24, Array(bytes[0..<4]) == Array("SECp".utf8) else {
      throw .corrupt("an X3F property section has no header")
    }
    let count = Int(bytes.u32(at: 8, bigEndian: false))
    let format = bytes.u32(at: 12, bigEndian: false)
    guard format == 0 else { throw .corrupt("X3F properties in character format \(format)") }
    let charactersAt = 24 + count * 8
    guard count <= (bytes.count - 24) / 8 else { throw .truncated }
    let characters = (bytes.count - charactersAt) / 2
    func string(_ index: Int) -> String? {
      guard index < characters else { return nil }
      var units: [UInt16] = []
      var at = index
      while at < characters {
        let unit = bytes.u16(at: charactersAt + at * 2, bigEndian: false)
        if unit == 0 { break }
        units.append(unit)
        at += 1
      }
      return String(decoding: units, as: UTF16.self)
    }
    var found: [String: String] = [:]
    for index in 0..<count {
      let entry = 24 + index * 8
      guard let name = string(Int(bytes.u32(at: entry, bigEndian: false))),
        let value = string(Int(bytes.u32(at: entry + 4, bigEndian: false)))
      else { throw .corrupt("an X3F property points past its section") }
      found[name] = found[name] ?? value
    }
    return found
  }
}
