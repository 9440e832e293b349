import Foundation
import PhotoIntake

let thumbnailCommand = CommandSpec(
  name: "thumbnail",
  abstract: "Render downsampled, upright JPEG thumbnails of image files and movie posters (no library).",
  discussion: """
    The headers are read first: an image declaring more than --max-pixels, or whose decode would hold more
    than --max-decode-bytes or pass more than --max-decode-work pixels, is refused before any decode. An
    embedded preview (HEIF thumbnail item, MPF preview, EXIF thumbnail) is decoded instead of the image when it
    is at least --size pixels on its longest side; otherwise JPEG and WebP are reduced while they load. The
    output is 8-bit sRGB JPEG with the orientation applied and no metadata (no EXIF, no GPS).

    A movie (MOV, MP4, M4V) gets a poster: a frame about 10 % in (from 1 s to 10 s), later if that one is
    black, turned upright by the track's display matrix. Only that frame is decoded.

    With one FILE, --out is the output file (or an existing folder to put NAME.jpg in). With several, --out is a
    folder (created if needed) that receives NAME.jpg for each input; they are rendered --jobs at a time.

    Exit status: 0 when every file was rendered, 1 when some could not be, 2 for usage errors.
    """,
  options: [
    Flag.json,
    ThumbnailOption.size,
    ThumbnailOption.out,
    ThumbnailOption.quality,
    ThumbnailOption.maxPixels,
    ThumbnailOption.maxDecodeBytes,
    ThumbnailOption.maxDecodeWork,
    ThumbnailOption.jobs,
    ThumbnailOption.noPreview,
  ],
  arguments: [ArgumentSpec(name: "FILE", arity: .oneOrMore, help: "Image files or movies.")],
  run: { parsed, context in await ThumbnailRun(parsed: parsed, context: context).run() })

/// One `intake thumbnail` invocation.
struct ThumbnailRun {
  var parsed: ParsedCommand
  var context: CommandContext

  func run() async -> Int32 {
    guard let out = parsed.value(ThumbnailOption.out).map(context.absolute) else {
      context.stderr.line("intake thumbnail: --out PATH is required.")
      return 2
    }
    var request = ThumbnailRequest(maxPixelSize: 320)
    for (option, apply) in [
      (ThumbnailOption.size, { (value: Int) in request.maxPixelSize = value }),
      (ThumbnailOption.quality, { (value: Int) in request.quality = value }),
      (ThumbnailOption.maxPixels, { (value: Int) in request.maximumPixelCount = value }),
      (ThumbnailOption.maxDecodeBytes, { (value: Int) in request.decodeLimit.maximumBytes = value }),
      (ThumbnailOption.maxDecodeWork, { (value: Int) in request.decodeLimit.maximumWork = value }),
    ] as [(ValueOption, (Int) -> Void)] {
      guard let text = parsed.value(option) else { continue }
      let isQuality = option == ThumbnailOption.quality
      guard let value = Int(text), value > 0, !isQuality || value <= 100 else {
        context.stderr.line(
          "intake thumbnail: \(option.spec.name) needs a positive number\(isQuality ? " up to 100" : "").")
        return 2
      }
      apply(value)
    }
    request.allowsEmbeddedPreview = !parsed.isSet(ThumbnailOption.noPreview)
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    if let text = parsed.value(ThumbnailOption.jobs) {
      guard let value = Int(text), value > 0 else {
        context.stderr.line("intake thumbnail: --jobs needs a positive number.")
        return 2
      }
      jobs = value
    }
    let inputs = parsed.positionals.map(context.absolute)
    let outputs: [String]
    var isFolder = ObjCBool(false)
    if inputs.count == 1,
      !(FileManager.default.fileExists(atPath: out, isDirectory: &isFolder) && isFolder.boolValue)
    {
      outputs = [out]
    } else {
      guard mkdir(out, 0o755) == 0 || errno == EEXIST else {
        context.stderr.line(
          "intake thumbnail: cannot create the folder \(parsed.value(ThumbnailOption.out) ?? out).")
        return 2
      }
      outputs = Self.outputNames(for: inputs).map { out + "/" + $0 }
    }
    let results = await Self.render(inputs, to: outputs, request: request, jobs: jobs)
    var failures = 0
    for (index, result) in results.enumerated() {
      let shown = parsed.positionals[index]
      switch result {
      case .success(let thumbnail):
        if parsed.isSet(Flag.json) {
          context.stdout.line(
            JSON.object(
              [
                ("path", .string(shown)), ("out", .string(outputs[index])), ("width", .int(thumbnail.width)),
                ("height", .int(thumbnail.height)), ("bytes", .int(thumbnail.bytes)),
                ("source", .string(thumbnail.source.description)),
              ] + (thumbnail.duration.map { [("duration", JSON.double($0))] } ?? [])
                + (thumbnail.isPartial ? [("partial", JSON.bool(true))] : [])))
        } else {
          context.stdout.line(
            "\(shown): \(thumbnail.width)×\(thumbnail.height) from the \(thumbnail.source) -> \(outputs[index])"
              + (thumbnail.isPartial ? Self.partialNote : ""))
        }
      case .failure(let error):
        failures += 1
        if parsed.isSet(Flag.json) {
          context.stdout.line(
            JSON.object([
              ("path", .string(shown)), ("error", .string(error.description)), ("code", .string(error.code)),
            ]))
        }
        context.stderr.line("intake thumbnail: \(shown): \(error.description)")
      }
    }
    return failures == 0 ? 0 : 1
  }

  /// Renders and writes each file, `jobs` at a time; results in input order.
  static func render(_ inputs: [String], to outputs: [String], request: ThumbnailRequest, jobs: Int) async
    -> [Result<Rendered, ImagingError>]
  {
    let thumbnailer = PlatformThumbnailer()
    let queue = WorkQueue(label: "intake thumbnail", width: min(jobs, max(1, inputs.count)))
    // Each file holds a core while it decodes: a decode lane, never a thread of Swift's cooperative pool.
    return await queue.map(count: inputs.count) { index in
      await BlockingLanes.shared.run {
        Result.typed { () throws(ImagingError) in
          let thumbnail = try thumbnailer.thumbnail(ofFileAt: inputs[index], request: request)
          try thumbnail.write(toFile: outputs[index])
          // Only the facts are kept: holding every JPEG until the end would grow with the number of files.
          return Rendered(
            width: thumbnail.width, height: thumbnail.height, bytes: thumbnail.jpegData.count,
            source: thumbnail.source, duration: thumbnail.duration, isPartial: thumbnail.isPartial)
        }
      }
    }.compactMap { $0 }
  }

  /// What was written for one file.
  struct Rendered: Sendable {
    var width: Int
    var height: Int
    var bytes: Int
    var source: Thumbnail.Source
    /// A movie's duration in seconds.
    var duration: Double?
    /// Whether the picture's data was cut short or damaged and the decoder filled the rest.
    var isPartial = false
  }

  /// Said after a partial rendition, on the same line.
  static let partialNote =
    " (partial: the file's pixel data is cut short or damaged, and the rest is filled in; export refuses it)"

  /// NAME.jpg for each input, with -2, -3… added when two inputs share a name.
  static func outputNames(for inputs: [String]) -> [String] {
    var used: Set<String> = []
    return inputs.map { path in
      let name = path.split(separator: "/").last.map(String.init) ?? "image"
      let stem = name.lastIndex(of: ".").map { String(name[..<$0]) }.flatMap { $0.isEmpty ? nil : $0 } ?? name
      var candidate = stem + ".jpg"
      var counter = 2
      while !used.insert(candidate).inserted {
        candidate = "\(stem)-\(counter).jpg"
        counter += 1
      }
      return candidate
    }
  }
}

/// The options of `intake thumbnail`, as typed keys.
enum ThumbnailOption {
  static let size = ValueOption(
    "--size", "N", "Longest side of the thumbnail in pixels (default 320). Never enlarges.")
  static let out = ValueOption("--out", "PATH", "Output file (one FILE) or folder (several FILEs). Required.")
  static let quality = ValueOption("--quality", "Q", "JPEG quality 1-100 (default 82).")
  static let maxPixels = ValueOption(
    "--max-pixels", "N", "Refuse images declaring more pixels than this (default 200000000).")
  static let maxDecodeBytes = ValueOption(
    "--max-decode-bytes", "N",
    "Refuse images whose decode would hold more memory than this (default 268435456, 256 MiB).")
  static let maxDecodeWork = ValueOption(
    "--max-decode-work", "N",
    "Refuse images whose decode would pass more pixels than this, every frame and tile counted "
      + "(default 100000000).")
  static let jobs = ValueOption("--jobs", "N", "Files rendered at once (default: the number of cores).")
  static let noPreview = Flag("--no-preview", "Always decode the primary image, never an embedded preview.")
}
