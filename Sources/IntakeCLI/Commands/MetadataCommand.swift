import PhotoMetadata

/// `intake metadata FILE... [--json]`: reads files' facts without importing them.
let metadataCommand = CommandSpec(
  name: "metadata", abstract: "Print the facts of photo and movie files without importing them.",
  discussion: """
    Reads only headers and metadata (never pixel data): type, size, orientation, capture date, location,
    camera, embedded previews, Live Photo identifier, duration. With --json, prints one JSON object per file
    on its own line. Exits with 1 if any file could not be read.
    """,
  options: [.json],
  arguments: [ArgumentSpec(name: "FILE", arity: .oneOrMore, help: "Files to read.")],
  run: { parsed, context in
    let json = parsed.flag("--json")
    var failed = false
    for path in parsed.positionals {
      do throws(MetadataError) {
        let metadata = try MetadataReader.read(fileAt: context.absolute(path))
        context.stdout.line(
          json ? MetadataFormatter.json(metadata, path: path) : MetadataFormatter.text(metadata, path: path))
      } catch {
        failed = true
        context.stderr.line("intake metadata: \(path): \(error.description)")
        if json {
          context.stdout.line(
            "{\"path\":\(MetadataFormatter.quote(path)),\"error\":\(MetadataFormatter.quote(error.description))}"
          )
        }
      }
    }
    return failed ? 1 : 0
  })

/// Text and JSON renderings of ``MediaMetadata`` with a stable key order.
enum MetadataFormatter {
  static func json(_ m: MediaMetadata, path: String) -> String {
    var fields: [(String, String)] = [
      ("path", quote(path)), ("type", quote(m.type.rawValue)), ("width", int(m.width)),
      ("height", int(m.height)),
      ("orientation", String(m.orientation.rawValue)), ("captureDate", string(m.captureDate?.local)),
      ("captureDateOffset", string(m.captureDate?.offsetString)),
      ("captureDateUTC", number(m.captureDate?.utcTimestamp)),
      ("latitude", number(m.location?.latitude)), ("longitude", number(m.location?.longitude)),
      ("altitude", number(m.location?.altitude)), ("gpsTimestamp", string(m.location?.timestamp)),
      ("make", string(m.make)), ("model", string(m.model)), ("lens", string(m.lens)),
      ("hasICCProfile", String(m.hasICCProfile)), ("hasGainMap", String(m.hasGainMap)),
    ]
    let previews = m.previews.map { p in
      let parts = [
        ("kind", quote(p.kind.rawValue)), ("type", quote(p.type.rawValue)), ("width", int(p.width)),
        ("height", int(p.height)), ("offset", int(p.offset)), ("length", int(p.length)),
      ]
      return "{" + parts.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
    fields.append(("previews", "[" + previews.joined(separator: ",") + "]"))
    fields += [
      ("livePhotoID", string(m.livePhotoID)), ("duration", number(m.duration)),
      ("hintedType", string(m.hintedType?.rawValue)),
    ]
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  static func text(_ m: MediaMetadata, path: String) -> String {
    var lines = [
      "\(path): \(m.type.rawValue)" + (m.width.map { w in " \(w)×\(m.height ?? 0)" } ?? "")
        + ", orientation \(m.orientation.rawValue)"
    ]
    if let hinted = m.hintedType {
      lines.append("  named like \(hinted.rawValue), but the bytes are \(m.type.rawValue)")
    }
    if let date = m.captureDate {
      lines.append("  captured  \(date.local)" + (date.offsetString.map { " " + $0 } ?? ""))
    }
    if let l = m.location {
      lines.append("  location  \(l.latitude), \(l.longitude)" + (l.altitude.map { ", \($0) m" } ?? ""))
    }
    let camera = [m.make, m.model].compactMap { $0 }.joined(separator: " ")
    if !camera.isEmpty { lines.append("  camera    \(camera)" + (m.lens.map { " (\($0))" } ?? "")) }
    for p in m.previews {
      let size = p.width.map { "\($0)×\(p.height ?? 0)" } ?? "size unknown"
      let range = p.offset.map { " at \($0), \(p.length ?? 0) bytes" } ?? ""
      lines.append("  preview   \(p.kind.rawValue) \(p.type.rawValue) \(size)\(range)")
    }
    if let id = m.livePhotoID { lines.append("  live      \(id)") }
    if let duration = m.duration { lines.append("  duration  \(duration) s") }
    if m.hasICCProfile || m.hasGainMap {
      lines.append(
        "  has       "
          + [m.hasICCProfile ? "ICC profile" : nil, m.hasGainMap ? "HDR gain map" : nil].compactMap { $0 }
          .joined(separator: ", "))
    }
    return lines.joined(separator: "\n")
  }

  static func quote(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  private static func string(_ value: String?) -> String { value.map(quote) ?? "null" }
  private static func int(_ value: Int?) -> String { value.map(String.init) ?? "null" }
  private static func number(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "null" }
    return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
