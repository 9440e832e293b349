import Foundation
import PhotoIntake
import PhotoMetadata

/// `intake metadata FILE... [--json]`: reads files' facts without importing them.
let metadataCommand = CommandSpec(
  name: "metadata", abstract: "Print the facts of photo and movie files without importing them.",
  discussion: """
    Reads only headers and metadata (never pixel data): type, size, orientation, capture date, location,
    camera, embedded previews, Live Photo identifier, duration, HDR gain map kind (none, apple, iso), depth,
    stereo pair, alpha, the frame count of an image sequence, and a warning for each damaged optional part
    (EXIF, XMP, ICC, MPF, thumbnail, maker note, auxiliary image) that was skipped while the rest was read. With --json, prints one JSON object per file
    on its own line. Exits with 1 if any file could not be read.
    """,
  options: [Flag.json],
  arguments: [ArgumentSpec(name: "FILE", arity: .oneOrMore, help: "Files to read.")],
  run: { parsed, context in
    let json = parsed.isSet(Flag.json)
    var failed = false
    // Files are read on every core (on the blocking lanes), and printed in the order given as soon as those
    // before them are done.
    let paths = parsed.positionals.map { context.absolute($0) }
    let shown = parsed.positionals
    // Only headers are read and nothing is decoded, so a declared size over the decode limit is a fact to
    // print (as exiftool prints it), not a bomb to refuse; thumbnail, import and export still refuse it.
    let limits = {
      var limits = MetadataReader.Limits()
      limits.maxPixels = .max
      return limits
    }()
    await WorkQueue.files.forEach(count: paths.count, ordered: true) { index, _ in
      await BlockingLanes.io.run {
        Result.typed { () throws(MetadataError) in
          try MetadataReader.read(fileAt: paths[index], limits: limits)
        }
      }
    } each: { index, result in
      let path = shown[index]
      switch result {
      case .success(let metadata):
        context.stdout.lines(
          json ? MetadataFormatter.json(metadata, path: path) : MetadataFormatter.text(metadata, path: path))
      case .failure(let error):
        failed = true
        context.stderr.line("intake metadata: \(path): \(error.description)")
        if json {
          context.stdout.line(JSON.object([("path", .string(path)), ("error", .string(error.description))]))
        }
      }
      return true
    }
    return failed ? 1 : 0
  })

/// Text and JSON renderings of ``MediaMetadata`` with a stable key order.
enum MetadataFormatter {
  static func json(_ m: MediaMetadata, path: String) -> String {
    JSON.object([("path", .string(path))] + fields(m))
  }

  /// The fields of `intake metadata --json`, also used for the `metadata` object of `intake show --json`.
  static func fields(_ m: MediaMetadata) -> [(String, JSON)] {
    let previews: [JSON] = m.previews.map { p in
      .object([
        ("kind", .string(p.kind.rawValue)), ("type", .string(p.type.rawValue)), ("width", .optional(p.width)),
        ("height", .optional(p.height)), ("offset", .optional(p.offset)), ("length", .optional(p.length)),
      ])
    }
    return [
      ("type", .string(m.type.rawValue)), ("width", .optional(m.width)), ("height", .optional(m.height)),
      ("orientation", .int(m.orientation.rawValue)), ("captureDate", .optional(m.captureDate?.local)),
      ("captureDateOffset", .optional(m.captureDate?.offsetString)),
      ("captureDateUTC", .optional(m.captureDate?.utcTimestamp)),
      ("latitude", .optional(m.location?.latitude)), ("longitude", .optional(m.location?.longitude)),
      ("altitude", .optional(m.location?.altitude)), ("gpsTimestamp", .optional(m.location?.timestamp)),
      ("make", .optional(m.make)), ("model", .optional(m.model)), ("lens", .optional(m.lens)),
      ("hasICCProfile", .bool(m.hasICCProfile)), ("hasGainMap", .bool(m.hasGainMap)),
      ("previews", .array(previews)), ("livePhotoID", .optional(m.livePhotoID)),
      ("duration", .optional(m.duration)), ("hintedType", .optional(m.hintedType?.rawValue)),
      ("hdrGainMap", .string(gainMapName(m))), ("depth", .bool(m.hasDepth)),
      ("stereoPair", .bool(m.isStereoPair)), ("alpha", .bool(m.hasAlpha)),
      ("frameCount", .optional(m.frameCount)),
      ("warnings", .array(m.warnings.map { .string($0.description) })),
    ]
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
    if let frames = m.frameCount { lines.append("  frames    \(frames)") }
    let has = [
      m.hasICCProfile ? "ICC profile" : nil,
      m.hasGainMap ? "HDR gain map (\(gainMapName(m)))" : nil,
      m.hasDepth ? "depth map" : nil, m.isStereoPair ? "stereo pair" : nil, m.hasAlpha ? "alpha" : nil,
    ].compactMap { $0 }
    if !has.isEmpty { lines.append("  has       " + has.joined(separator: ", ")) }
    for warning in m.warnings { lines.append("  warning   \(warning)") }
    // Each line sanitized before they are joined: a line feed in a Make or Model must not start a line of its own.
    return lines.map(Terminal.sanitized).joined(separator: "\n")
  }

  /// `none`, `apple` or `iso`; `unknown` for facts stored before the kind was recorded.
  static func gainMapName(_ m: MediaMetadata) -> String {
    m.hdrGainMap?.rawValue ?? (m.hasGainMap ? "unknown" : HDRGainMap.none.rawValue)
  }
}
