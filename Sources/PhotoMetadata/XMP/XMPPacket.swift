/// A light reader of an XMP packet (XMP Specification Part 1 §7, RDF/XML serialisation), enough to find
/// simple properties written either as attributes (`exif:GPSLatitude="…"`) or as elements
/// (`<exif:GPSLatitude>…</exif:GPSLatitude>`), with their byte ranges so that they can be blanked in place.
///
/// It does not build a tree: it scans for `prefix:Name` and checks the syntax around each hit, which is
/// bounded by the packet size and cannot recurse.
struct XMPPacket {
  let bytes: [UInt8]

  /// A property occurrence: the qualified name, its value when simple, and the bytes it spans.
  struct Property {
    var prefix: String
    var name: String
    var value: String?
    /// The whole attribute (`name="value"`) or element (`<name>…</name>`), relative to the packet.
    var range: Range<Int>
  }

  /// Every property whose local name starts with `localPrefix`, in any namespace prefix.
  func properties(startingWith localPrefix: String) -> [Property] {
    let needle = Array((":" + localPrefix).utf8)
    var found: [Property] = []
    var from = 0
    while let hit = bytes.firstRange(of: needle, from: from) {
      from = hit + needle.count
      if let property = property(at: hit) {
        found.append(property)
        from = max(from, property.range.upperBound)
      }
    }
    return found
  }

  /// The first simple value of `name` under one of `prefixes`.
  func value(_ name: String, prefixes: [String]) -> String? {
    properties(startingWith: name).first { $0.name == name && prefixes.contains($0.prefix) }?.value
  }

  /// Whether the packet declares an HDR gain map: Adobe / Ultra HDR `hdrgm:` properties, or Apple's
  /// auxiliary image type "urn:com:apple:photo:2020:aux:hdrgainmap".
  var mentionsGainMap: Bool {
    bytes.firstRange(of: Array("hdrgm:Version".utf8)) != nil
      || bytes.firstRange(of: Array("aux:hdrgainmap".utf8)) != nil
  }

  // MARK: - Scanning

  private static func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
      || byte == 0x5F || byte == 0x2D || byte == 0x2E
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// The property whose colon is at `colon`, if the surrounding bytes form an attribute or an element.
  private func property(at colon: Int) -> Property? {
    var start = colon
    while start > 0, Self.isNameByte(bytes[start - 1]) { start -= 1 }
    var end = colon + 1
    while end < bytes.count, Self.isNameByte(bytes[end]) { end += 1 }
    guard start < colon, end > colon + 1, start > 0 else { return nil }
    let prefix = String(decoding: bytes[start..<colon], as: UTF8.self)
    let name = String(decoding: bytes[(colon + 1)..<end], as: UTF8.self)
    let before = bytes[start - 1]
    if before == UInt8(ascii: "<") {
      return element(prefix: prefix, name: name, open: start - 1, afterName: end)
    }
    guard Self.isSpace(before) else { return nil }
    // Attribute: name, optional spaces, '=', optional spaces, quoted value.
    var at = end
    while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
    guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { return nil }
    at += 1
    while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
    guard at < bytes.count, bytes[at] == 0x22 || bytes[at] == 0x27 else { return nil }
    let quote = bytes[at]
    guard let close = bytes[(at + 1)...].firstIndex(of: quote) else { return nil }
    let value = String(decoding: bytes[(at + 1)..<close], as: UTF8.self)
    return Property(prefix: prefix, name: name, value: Self.unescape(value), range: start..<(close + 1))
  }

  private func element(prefix: String, name: String, open: Int, afterName: Int) -> Property? {
    guard afterName < bytes.count else { return nil }
    // The start tag ends at the first '>' (attribute values in XMP do not contain a raw '>').
    guard let tagEnd = bytes[afterName...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
    if bytes[tagEnd - 1] == UInt8(ascii: "/") {
      return Property(prefix: prefix, name: name, value: nil, range: open..<(tagEnd + 1))
    }
    let closing = Array("</\(prefix):\(name)>".utf8)
    guard let close = bytes.firstRange(of: closing, from: tagEnd + 1) else { return nil }
    let content = bytes[(tagEnd + 1)..<close]
    let value: String? =
      content.contains(UInt8(ascii: "<"))
      ? nil : Self.unescape(String(decoding: content, as: UTF8.self).trimmingSpaces())
    return Property(prefix: prefix, name: name, value: value, range: open..<(close + closing.count))
  }

  private static func unescape(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var result = ""
    var rest = Substring(text)
    let entities = [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'")]
    outer: while let first = rest.first {
      if first == "&" {
        for (entity, character) in entities where rest.hasPrefix(entity) {
          result += character
          rest = rest.dropFirst(entity.count)
          continue outer
        }
      }
      result.append(first)
      rest = rest.dropFirst()
    }
    return result
  }
}

extension XMPPacket {
  static let exifPrefixes = ["exif", "exifEX"]

  /// Facts an XMP packet carries; used where the binary EXIF lacks them (XMP Specification Part 2 §3.2–3.3).
  var facts: ExifFacts {
    var facts = ExifFacts()
    if let text = value("Orientation", prefixes: ["tiff"]), let raw = Int(text) {
      facts.orientation = Orientation(rawValue: raw)
    }
    facts.make = value("Make", prefixes: ["tiff"])
    facts.model = value("Model", prefixes: ["tiff"])
    facts.lens = value("LensModel", prefixes: ["exifEX"]) ?? value("Lens", prefixes: ["aux"])
    for (name, prefixes) in [("DateTimeOriginal", ["exif"]), ("DateCreated", ["photoshop"])] {
      if let text = value(name, prefixes: prefixes), let date = DateParsing.iso8601(text) {
        facts.captureDate = date
        break
      }
    }
    if let latitude = value("GPSLatitude", prefixes: Self.exifPrefixes).flatMap(Self.coordinate),
      let longitude = value("GPSLongitude", prefixes: Self.exifPrefixes).flatMap(Self.coordinate),
      abs(latitude) <= 90, abs(longitude) <= 180
    {
      var location = GPSLocation(latitude: latitude, longitude: longitude)
      if let altitude = value("GPSAltitude", prefixes: Self.exifPrefixes).flatMap(Self.rational) {
        location.altitude = value("GPSAltitudeRef", prefixes: Self.exifPrefixes) == "1" ? -altitude : altitude
      }
      if let stamp = value("GPSTimeStamp", prefixes: Self.exifPrefixes), stamp.hasSuffix("Z") {
        location.timestamp = stamp
      }
      facts.location = location
    }
    return facts
  }

  /// An XMP GPSCoordinate, "DDD,MM,SSk" or "DDD,MM.mmk" with k one of N S E W (XMP Part 2 §3.3.4);
  /// a bare decimal is accepted too.
  static func coordinate(_ text: String) -> Double? {
    guard let last = text.last else { return nil }
    let sign: Double
    var body = Substring(text)
    switch last {
    case "N", "E", "n", "e":
      sign = 1
      body = body.dropLast()
    case "S", "W", "s", "w":
      sign = -1
      body = body.dropLast()
    default:
      return Double(text)
    }
    let parts = body.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
    guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
    let values = parts.map { $0 ?? 0 }
    var result = values[0]
    if values.count > 1 { result += values[1] / 60 }
    if values.count > 2 { result += values[2] / 3600 }
    return sign * result
  }

  /// An XMP rational "n/d" or a decimal.
  static func rational(_ text: String) -> Double? {
    let parts = text.split(separator: "/")
    if parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]), d != 0 { return n / d }
    return parts.count == 1 ? Double(text) : nil
  }
}
