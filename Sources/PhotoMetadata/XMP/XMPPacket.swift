/// A light reader of an XMP packet (XMP Specification Part 1 §7, RDF/XML serialisation), enough to find
/// simple properties written either as attributes (`exif:GPSLatitude="…"`) or as elements
/// (`<exif:GPSLatitude>…</exif:GPSLatitude>`), with their byte ranges so that they can be blanked in place.
///
/// One linear pass over the packet with a stack of open elements: every byte is looked at a bounded number
/// of times whatever the input, so a crafted packet costs O(size). It does not check well-formedness.
struct XMPPacket {
  let bytes: [UInt8]
  /// Every attribute and element found, in document order.
  let all: [Property]
  /// False when the packet nests deeper than ``maxDepth`` and inner elements were not recorded.
  let isComplete: Bool

  /// A property occurrence: the qualified name, its value when simple, and the bytes it spans.
  struct Property {
    var prefix: String
    var name: String
    var value: String?
    /// The whole attribute (`name="value"`) or element (`<name>…</name>`), relative to the packet.
    var range: Range<Int>
  }

  static let maxDepth = 256

  init(bytes: [UInt8]) {
    self.bytes = bytes
    (all, isComplete) = Self.scan(bytes)
  }

  /// Every property whose local name starts with `localPrefix`, in any namespace prefix.
  func properties(startingWith localPrefix: String) -> [Property] {
    all.filter { $0.name.hasPrefix(localPrefix) }
  }

  /// The first simple value of `name` under one of `prefixes`.
  func value(_ name: String, prefixes: [String]) -> String? {
    all.first { $0.name == name && $0.value != nil && prefixes.contains($0.prefix) }?.value
  }

  /// Whether the packet declares an HDR gain map: Adobe / Ultra HDR `hdrgm:` properties, or Apple's
  /// auxiliary image type "urn:com:apple:photo:2020:aux:hdrgainmap".
  var mentionsGainMap: Bool { gainMapKind != .none }

  /// The kind of gain map the packet declares: Adobe / Ultra HDR `hdrgm:Version` (the form ISO 21496-1
  /// standardised) is `.iso`; Apple's auxiliary type "urn:com:apple:photo:2020:aux:hdrgainmap" or its
  /// `HDRGainMap` namespace (the MPF gain-map image of an iPhone JPEG) is `.apple`.
  var gainMapKind: HDRGainMap {
    if all.contains(where: { $0.prefix == "hdrgm" && $0.name == "Version" }) { return .iso }
    if bytes.firstRange(of: Array("aux:hdrgainmap".utf8)) != nil
      || bytes.firstRange(of: Array("http://ns.apple.com/HDRGainMap/".utf8)) != nil
    {
      return .apple
    }
    return .none
  }

  /// Whether the packet describes a depth map: Google's `GDepth:` properties, or a dynamic-depth container
  /// item whose semantic is "Depth" (Android), or Apple's depth / disparity auxiliary types.
  var mentionsDepth: Bool {
    all.contains { $0.prefix == "GDepth" && ($0.name == "Data" || $0.name == "Format") }
      || all.contains { $0.name == "Semantic" && $0.value == "Depth" }
      || bytes.firstRange(of: Array("aux:depth".utf8)) != nil
      || bytes.firstRange(of: Array("aux:disparity".utf8)) != nil
  }

  // MARK: - Scanning

  private static func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
      || byte == 0x5F || byte == 0x2D || byte == 0x2E || byte == 0x3A || byte >= 0x80
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private struct Open {
    var name: ArraySlice<UInt8>
    var start: Int
    var contentStart: Int
    var hasChildren = false
  }

  private static func scan(_ bytes: [UInt8]) -> ([Property], Bool) {
    var found: [Property] = []
    var stack: [Open] = []
    var complete = true
    var i = 0
    let n = bytes.count
    func skip(past pattern: [UInt8], from: Int) -> Int {
      guard let at = bytes.firstRange(of: pattern, from: from) else { return n }
      return at + pattern.count
    }
    while i < n {
      guard bytes[i] == UInt8(ascii: "<") else {
        i += 1
        continue
      }
      guard i + 1 < n else { break }
      // Anything but an end tag inside an element makes its content structured rather than a simple value.
      if !stack.isEmpty, bytes[i + 1] != UInt8(ascii: "/") { stack[stack.count - 1].hasChildren = true }
      switch bytes[i + 1] {
      case UInt8(ascii: "?"):
        i = skip(past: Array("?>".utf8), from: i + 2)
      case UInt8(ascii: "!"):
        if bytes.matches(Array("<!--".utf8), at: i) {
          i = skip(past: Array("-->".utf8), from: i + 4)
        } else if bytes.matches(Array("<![CDATA[".utf8), at: i) {
          i = skip(past: Array("]]>".utf8), from: i + 9)
        } else {
          i = skip(past: [UInt8(ascii: ">")], from: i + 2)
        }
      case UInt8(ascii: "/"):
        var end = i + 2
        while end < n, isNameByte(bytes[end]) { end += 1 }
        let name = bytes[(i + 2)..<end]
        i = skip(past: [UInt8(ascii: ">")], from: end)
        // Pop to the matching element; unmatched ones are dropped (each element is popped at most once).
        if let match = stack.lastIndex(where: { $0.name.elementsEqual(name) }) {
          let open = stack[match]
          stack.removeSubrange(match...)
          let value =
            open.hasChildren
            ? nil
            : unescape(
              String(
                decoding: bytes[open.contentStart..<max(open.contentStart, end - name.count - 2)],
                as: UTF8.self)
            ).trimmingSpaces()
          if let property = property(open.name, value: value, range: open.start..<i) {
            found.append(property)
          }
        }
      default:
        var at = i + 1
        while at < n, isNameByte(bytes[at]) { at += 1 }
        let name = bytes[(i + 1)..<at]
        // Attributes: name = "value" pairs up to '>' or '/>'.
        while at < n {
          while at < n, isSpace(bytes[at]) { at += 1 }
          guard at < n else { break }
          if bytes[at] == UInt8(ascii: ">") || bytes[at] == UInt8(ascii: "/") { break }
          let nameStart = at
          while at < n, isNameByte(bytes[at]) { at += 1 }
          let attributeName = bytes[nameStart..<at]
          while at < n, isSpace(bytes[at]) { at += 1 }
          guard at < n, bytes[at] == UInt8(ascii: "="), !attributeName.isEmpty else {
            at = max(at, nameStart + 1)
            continue
          }
          at += 1
          while at < n, isSpace(bytes[at]) { at += 1 }
          guard at < n, bytes[at] == 0x22 || bytes[at] == 0x27 else { continue }
          let quote = bytes[at]
          let valueStart = at + 1
          at = valueStart
          while at < n, bytes[at] != quote { at += 1 }
          let value = unescape(String(decoding: bytes[valueStart..<min(at, n)], as: UTF8.self))
          at = min(at + 1, n)
          if let property = property(attributeName, value: value, range: nameStart..<at) {
            found.append(property)
          }
        }
        if at < n, bytes[at] == UInt8(ascii: "/") {
          at = skip(past: [UInt8(ascii: ">")], from: at)
          if let property = property(name, value: nil, range: i..<at) { found.append(property) }
        } else {
          at = min(at + 1, n)
          if stack.count < maxDepth {
            stack.append(Open(name: name, start: i, contentStart: at))
          } else {
            complete = false
          }
        }
        i = at
      }
    }
    return (found, complete)
  }

  private static func property(_ qualified: ArraySlice<UInt8>, value: String?, range: Range<Int>) -> Property?
  {
    guard let colon = qualified.firstIndex(of: UInt8(ascii: ":")), colon > qualified.startIndex,
      colon + 1 < qualified.endIndex
    else { return nil }
    return Property(
      prefix: String(decoding: qualified[..<colon], as: UTF8.self),
      name: String(decoding: qualified[(colon + 1)...], as: UTF8.self), value: value, range: range)
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
