import Foundation
import PhotoIntake
import PhotoMetadata

let sheetCommand = CommandSpec(
  name: "sheet", abstract: "Write a static HTML contact sheet of the library, for a person to look at.",
  discussion: """
    Writes DIR/index.html and copies each photo's 320 px rendition, and each movie's poster, into
    DIR/renditions/ (making missing renditions first), so the folder can be opened, zipped or mailed on its
    own. Items are shown in batch order, in the order they were picked, with the capture date, the camera and
    the size; movies carry their duration (m:ss), and both halves of a Live Photo a LIVE mark. Items that
    cannot be rendered are shown as labelled placeholders.

    Exit status: 0 on success, 1 when some renditions could not be made, 3 when the library could not be opened.
    """,
  options: [
    ValueOption.library,
    SheetOption.out,
  ],
  run: { parsed, context in await SheetRun(parsed: parsed, context: context).run() })

/// One `intake sheet` invocation.
struct SheetRun {
  var parsed: ParsedCommand
  var context: CommandContext

  /// The rendition size the sheet shows.
  static let size = 320

  /// One photo on the sheet.
  struct Entry: Sendable {
    var asset: Asset
    var rendition: Result<Rendition, ImagingError>
    /// What the headers say; nil when they could not be read.
    var metadata: MediaMetadata?
  }

  func run() async -> Int32 {
    let out = context.absolute(parsed.value(SheetOption.out) ?? "contact-sheet")
    guard let library = await LibraryLocation.open(parsed, context) else { return 3 }
    let assets: [Asset]
    do {
      // Every row is read: a damaged manifest is refused (naming repair) rather than shown short or wrong.
      try await library.checkManifest()
      assets = try await library.all(order: .batch)
    } catch {
      LibraryLocation.reportFailure(
        error, command: "sheet", at: LibraryLocation.path(parsed, context), context)
      await library.close()
      return 3
    }
    for folder in [out, out + "/renditions"] where mkdir(folder, 0o755) != 0 && errno != EEXIST {
      context.stderr.line("intake sheet: cannot create the folder \(folder).")
      return 3
    }
    let store = RenditionStore(library: library)
    let entries = await Self.entries(for: assets, store: store)
    var failures = 0
    for entry in entries {
      if case .failure(let error) = entry.rendition {
        failures += 1
        context.stderr.line(
          "intake sheet: \(entry.asset.name ?? entry.asset.id.rawValue): \(error.description)")
      }
      if case .success(let rendition) = entry.rendition {
        let copy = out + "/renditions/" + (rendition.path.split(separator: "/").last.map(String.init) ?? "")
        do {
          try Self.copy(rendition.path, to: copy)
        } catch {
          context.stderr.line("intake sheet: cannot write \(copy): \(error.description)")
          return 1
        }
      }
    }
    let html = Self.html(entries, generated: Date())
    do {
      try DurableFile.write(Array(html.utf8), toFile: out + "/index.html", .replacing, syncFolder: false)
    } catch {
      let error = ImagingError(error)
      context.stderr.line("intake sheet: cannot write \(out)/index.html: \(error.description)")
      return 1
    }
    context.stdout.line("\(out)/index.html: \(entries.count) item(s)")
    await library.close()
    return failures == 0 ? 0 : 1
  }

  /// Renditions (made if missing) and headers of every asset, a few at a time, in the given order.
  static func entries(for assets: [Asset], store: RenditionStore) async -> [Entry] {
    await WorkQueue.files.map(count: assets.count) { index in
      let asset = assets[index]
      let rendition: Result<Rendition, ImagingError>
      do throws(ImagingError) {
        rendition = .success(try await store.rendition(of: asset, size: size))
      } catch {
        rendition = .failure(error)
      }
      // Capture date and camera as the manifest recorded them at import; assets imported before the
      // manifest kept metadata (schema version 1) are read from their bytes.
      let metadata =
        asset.metadata ?? (try? MetadataReader.read(fileAt: store.library.objectPath(for: asset)))
      return Entry(asset: asset, rendition: rendition, metadata: metadata)
    }.compactMap { $0 }
  }

  /// Copies a rendition (a cache file) next to the sheet.
  static func copy(_ source: String, to destination: String) throws(ImagingError) {
    guard let data = FileManager.default.contents(atPath: source) else { throw .fileNotFound }
    do {
      try DurableFile.write(Array(data), toFile: destination, .replacing, syncFolder: false)
    } catch {
      throw ImagingError(error)
    }
  }

  // MARK: HTML

  static func html(_ entries: [Entry], generated: Date) -> String {
    let livePhotos = livePhotoIdentifiers(entries)
    var batches: [[Entry]] = []
    for entry in entries {
      if let last = batches.last?.last, last.asset.batch == entry.asset.batch {
        batches[batches.count - 1].append(entry)
      } else {
        batches.append([entry])
      }
    }
    var body = ""
    for (number, batch) in batches.enumerated() {
      let imported = batch.first.map { timestamp($0.asset.importedAt) } ?? ""
      body +=
        "<section>\n<h2>Batch \(number + 1) <small>imported \(imported) · \(batch.count) item(s)</small></h2>\n"
      body += "<div class=\"grid\">\n"
      for entry in batch { body += figure(entry, livePhotos: livePhotos) }
      body += "</div>\n</section>\n"
    }
    let count = entries.count
    return """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>PhotoIntake contact sheet</title>
      <style>
      body { font: 14px/1.35 system-ui, sans-serif; margin: 24px; background: #f3f3f1; color: #222; }
      h1 { font-size: 22px; margin: 0 0 4px; }
      h2 { font-size: 16px; margin: 28px 0 10px; }
      h2 small, .note { color: #666; font-weight: normal; }
      .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 14px; }
      figure { margin: 0; background: #fff; border-radius: 6px; padding: 8px; box-shadow: 0 1px 3px #0002; }
      figure img, .placeholder { display: block; width: 100%; height: 200px; object-fit: contain; background: #e9e9e6; }
      .placeholder { display: flex; align-items: center; justify-content: center; color: #777; text-align: center; }
      figcaption { margin-top: 6px; font-size: 12px; color: #444; overflow-wrap: anywhere; }
      figcaption b { color: #111; }
      figure.broken { outline: 3px solid #c00; }
      .frame { position: relative; }
      .badge { position: absolute; bottom: 6px; right: 6px; padding: 1px 6px; border-radius: 4px; font-size: 12px;
        background: #000a; color: #fff; font-variant-numeric: tabular-nums; }
      .badge.live { left: 6px; right: auto; top: 6px; bottom: auto; letter-spacing: 1px; }
      </style>
      </head>
      <body>
      <h1>PhotoIntake contact sheet</h1>
      <p class="note">\(count) item(s) in \(batches.count) batch(es), in the order they were picked · made \
      \(timestamp(generated)) by intake \(Intake.version)</p>
      \(body)\
      <script>
      // Marks pictures that failed to load, and records the counts on <html> for tests and tools.
      window.addEventListener("load", () => {
        let loaded = 0, broken = 0;
        for (const image of document.images) {
          if (image.complete && image.naturalWidth > 0) { loaded++; continue; }
          broken++;
          image.closest("figure").classList.add("broken");
        }
        document.documentElement.dataset.imagesLoaded = loaded;
        document.documentElement.dataset.imagesBroken = broken;
      });
      </script>
      </body>
      </html>

      """
  }

  private static func figure(_ entry: Entry, livePhotos: Set<String>) -> String {
    let asset = entry.asset
    let name = escape(asset.name ?? "\(asset.id.rawValue.prefix(8)).\(asset.type.preferredFilenameExtension)")
    var html = "<figure data-asset=\"\(asset.id.rawValue)\">\n<div class=\"frame\">\n"
    switch entry.rendition {
    case .success(let rendition):
      let file = rendition.path.split(separator: "/").last.map(String.init) ?? ""
      html +=
        "<img src=\"renditions/\(escape(file))\" width=\"\(rendition.width)\" height=\"\(rendition.height)\""
      html += " alt=\"\(name)\">\n"
    case .failure(let error):
      let label =
        asset.type.isMovie
        ? "Movie (\(asset.type.rawValue)), no poster: \(error.code)" : "No preview: \(error.code)"
      html += "<div class=\"placeholder\">\(escape(label))</div>\n"
    }
    if let id = entry.metadata?.livePhotoID?.uppercased(), livePhotos.contains(id) {
      html += "<span class=\"badge live\" title=\"Live Photo\">LIVE</span>\n"
    }
    if asset.type.isMovie, let duration = entry.metadata?.duration {
      html += "<span class=\"badge duration\">\(Self.duration(duration))</span>\n"
    }
    html +=
      "</div>\n<figcaption><b>\(name)</b><br>\n" + caption(entry).map(escape).joined(separator: "<br>\n")
    html += "</figcaption>\n</figure>\n"
    return html
  }

  /// The content identifiers carried by both a still and a movie on the sheet: the Live Photos whose halves
  /// are both there (``LivePhotoPairing``'s rule: the same identifier, letter case aside).
  static func livePhotoIdentifiers(_ entries: [Entry]) -> Set<String> {
    var stills: Set<String> = []
    var movies: Set<String> = []
    for entry in entries {
      guard let id = entry.metadata?.livePhotoID?.uppercased(), !id.isEmpty else { continue }
      if entry.asset.type.isImage { stills.insert(id) } else { movies.insert(id) }
    }
    return stills.intersection(movies)
  }

  /// A duration as a player shows it: `m:ss`, or `h:mm:ss` from an hour on (rounded to the second).
  static func duration(_ seconds: Double) -> String {
    let total = seconds.isFinite && seconds > 0 ? Int(seconds.rounded()) : 0
    let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
    let ss = rest < 10 ? "0\(rest)" : "\(rest)"
    if hours > 0 { return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(ss)" }
    return "\(minutes):\(ss)"
  }

  /// The lines under a picture: capture date, camera, size. Fields the metadata does not have yet (capture
  /// date and camera of HEIF, PNG without eXIf, movies) say so.
  static func caption(_ entry: Entry) -> [String] {
    let metadata = entry.metadata
    var date = "Capture date unknown"
    if let captured = metadata?.captureDate {
      date = "Captured " + captured.local.replacingOccurrences(of: "T", with: " ")
      if let offset = captured.offsetString { date += " (UTC\(offset))" }
    }
    let camera = [metadata?.make, metadata?.model].compactMap { $0 }.joined(separator: " ")
    var size = bytes(entry.asset.size) + " · " + entry.asset.type.rawValue.uppercased()
    if let width = metadata?.width, let height = metadata?.height {
      let swapped = metadata?.orientation.swapsDimensions == true
      size = "\(swapped ? height : width) × \(swapped ? width : height) · " + size
    }
    return [date, camera.isEmpty ? "Camera unknown" : camera, size]
  }

  static func bytes(_ count: Int64) -> String {
    if count >= 1_000_000 { return String(format: "%.1f MB", Double(count) / 1_000_000) }
    if count >= 1_000 { return String(format: "%.0f kB", Double(count) / 1_000) }
    return "\(count) bytes"
  }

  static func timestamp(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.string(from: date)
  }

  /// Escapes text for HTML content and attribute values.
  static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.append(character)
      }
    }
    return result
  }
}

/// The options of `intake sheet`, as typed keys.
enum SheetOption {
  static let out = ValueOption(
    "--out", "DIR", "Folder to write (default: ./contact-sheet). Created if needed; replaced files only.")
}
