import Foundation
import PhotoIntake

let listCommand = CommandSpec(
  name: "list", abstract: "List the assets in the library.",
  discussion: """
    Text output has one asset per line: id, type, size, batch:position, name. With --json, one JSON object per
    line (JSON Lines) with id, sha256, size, type, name, batch, position, importedAt and damage.
    """,
  options: [
    ValueOption.library, Flag.json,
    LibraryOption.order,
    LibraryOption.limit,
  ],
  run: { parsed, context in
    guard let order = Library.ListOrder(rawValue: parsed.value(LibraryOption.order) ?? "batch") else {
      context.stderr.line("intake list: --order must be 'batch' or 'date'.")
      return 2
    }
    var remaining = Int.max
    if let text = parsed.value(LibraryOption.limit) {
      guard let limit = Int(text), limit > 0 else {
        context.stderr.line("intake list: --limit needs a positive number.")
        return 2
      }
      remaining = limit
    }
    guard let library = await LibraryLocation.open(parsed, context, readOnly: true) else { return 3 }
    do {
      // A full listing reads every row anyway: the manifest is checked first, so that a damaged one is refused
      // rather than listed short or wrong.
      try await library.checkManifest()
      var cursor: Library.ListCursor?
      repeat {
        let page = try await library.list(order: order, limit: min(remaining, 500), after: cursor)
        for asset in page.assets {
          context.stdout.line(
            parsed.isSet(Flag.json) ? JSON.object(AssetFields.json(asset)) : AssetFields.line(asset))
        }
        remaining -= page.assets.count
        cursor = page.next
      } while cursor != nil && remaining > 0
    } catch {
      LibraryLocation.reportFailure(
        error, command: "list", at: LibraryLocation.path(parsed, context), context)
      await library.close()
      return 3
    }
    await library.close()
    return 0
  })

let showCommand = CommandSpec(
  name: "show", abstract: "Show one asset.",
  options: [ValueOption.library, Flag.json],
  arguments: [
    ArgumentSpec(name: "ID", arity: .one, help: "An asset id, or a unique prefix of an id or SHA-256.")
  ],
  run: { parsed, context in
    await withAsset(parsed, context, command: "show") { library, asset in
      if parsed.isSet(Flag.json) {
        var fields = AssetFields.json(asset)
        fields.append(("path", .string(library.objectPath(for: asset))))
        fields.append(("metadata", asset.metadata.map { .object(MetadataFormatter.fields($0)) } ?? .null))
        context.stdout.line(JSON.object(fields))
      } else {
        for (key, value) in AssetFields.pairs(asset) + [("path", library.objectPath(for: asset))] {
          context.stdout.line(key.padding(toLength: 11, withPad: " ", startingAt: 0) + value)
        }
      }
      return 0
    }
  })

let exportCommand = CommandSpec(
  name: "export", abstract: "Copy an asset out of the library, as stored or as a JPEG any device opens.",
  discussion: """
    DEST is a file path or an existing folder (the asset's name is used inside it, with .jpg when converted).
    Nothing is overwritten: an existing DEST is an error. The bytes are re-hashed first: an asset whose bytes no
    longer match (or that verify marked damaged) is refused with exit 1 unless --force is given. Each file is
    fsynced before it appears under its name.

    --as jpeg converts HEIC, HEIF, AVIF, WebP, PNG, GIF and TIFF (and a JPEG that must be turned or resized) to
    JPEG: orientation applied, colour profile kept as it is (Display P3 stays P3), EXIF kept (capture date,
    camera). Movies are exported as they are (a note says so). Half of a Live Photo is exported with its other
    half: in a folder under their names, or beside a file DEST with the same name and its own extension.
    """,
  options: [
    ValueOption.library,
    LibraryOption.exportFormat,
    LibraryOption.stripLocation,
    LibraryOption.maxSize,
    LibraryOption.force,
  ],
  arguments: [
    ArgumentSpec(name: "ID", arity: .one, help: "An asset id, or a unique prefix of an id or SHA-256."),
    ArgumentSpec(name: "DEST", arity: .one, help: "A file path or an existing folder."),
  ],
  run: { parsed, context in
    guard let format = ExportOptions.Format(rawValue: parsed.value(LibraryOption.exportFormat) ?? "original")
    else {
      context.stderr.line("intake export: --as must be 'original' or 'jpeg'.")
      return 2
    }
    var options = ExportOptions(format: format, stripLocation: parsed.isSet(LibraryOption.stripLocation))
    if let text = parsed.value(LibraryOption.maxSize) {
      guard let size = Int(text), size > 0 else {
        context.stderr.line("intake export: --max-size needs a positive number of pixels.")
        return 2
      }
      options.maxPixelSize = size
    }
    return await withAsset(parsed, context, command: "export") { library, asset in
      do {
        let written = try await library.export(
          asset.id, to: context.absolute(parsed.positionals[1]), options: options,
          force: parsed.isSet(LibraryOption.force))
        for file in written {
          context.stdout.line(Terminal.escaped(file.path))
          if format == .jpeg, !file.isConverted, let part = try? await library.asset(file.asset),
            part.type.isMovie
          {
            context.stderr.line(
              "intake export: note: movies are exported as they are (no video encoder here).")
          }
        }
        return 0
      } catch {
        LibraryLocation.reportFailure(
          error, command: "export", at: LibraryLocation.path(parsed, context), context)
        if case Library.Error.alteredObject = error {
          context.stderr.line("Run 'intake verify'; --force exports it anyway.")
        }
        return 1
      }
    }
  })

let removeCommand = CommandSpec(
  name: "remove", abstract: "Remove an asset from the library (its bytes and renditions too).",
  options: [ValueOption.library, ValueOption.wait],
  arguments: [
    ArgumentSpec(name: "ID", arity: .one, help: "An asset id, or a unique prefix of an id or SHA-256.")
  ],
  run: { parsed, context in
    await withAsset(parsed, context, command: "remove", readOnly: false) { library, asset in
      do {
        try await library.remove(asset.id)
        context.stdout.line("removed \(asset.id)")
        return 0
      } catch {
        LibraryLocation.reportFailure(
          error, command: "remove", at: LibraryLocation.path(parsed, context), context)
        return 1
      }
    }
  })

let verifyCommand = CommandSpec(
  name: "verify", abstract: "Re-hash every asset and report damage (exit 1 if any).",
  options: [ValueOption.library, Flag.json],
  run: { parsed, context in
    guard let library = await LibraryLocation.open(parsed, context, readOnlyIfFull: true) else { return 3 }
    let report: VerificationReport
    do {
      report = try await library.verify()
    } catch {
      LibraryLocation.reportFailure(
        error, command: "verify", at: LibraryLocation.path(parsed, context), context)
      await library.close()
      return 3
    }
    await library.close()
    if library.isReadOnly && !report.damaged.isEmpty {
      context.stderr.line(
        "intake verify: note: the library cannot be written here (read-only or full storage), so the damage "
          + "found was reported but not recorded.")
    }
    if parsed.isSet(Flag.json) {
      context.stdout.line(
        JSON.object([
          ("checked", .int(report.checked)),
          ("unreferenced", .array(report.unreferenced.map { .string($0) })),
          ("interrupted", .int(report.interrupted)),
          ("unreadable", .array(report.unreadable.map { .string($0) })),
          (
            "damaged",
            .array(
              report.damaged.map {
                .object([("id", .string($0.id.rawValue)), ("damage", .string($0.damage.rawValue))])
              })
          ),
        ]))
    } else {
      for damaged in report.damaged {
        context.stdout.line("damaged \(damaged.id): \(damaged.damage.sentence)")
      }
      for entry in report.unreferenced {
        context.stdout.line("unreferenced \(Terminal.escaped(entry)): no asset lists it (kept)")
      }
      for entry in report.unreadable {
        context.stdout.line(
          "unreadable \(Terminal.escaped(entry)): could not be read (check its permissions); nothing was marked"
        )
      }
      if report.interrupted > 0 {
        context.stdout.line(
          "in flight \(report.interrupted): objects of an import under way or interrupted (not damage)")
      }
      context.stdout.line(
        "verified \(report.checked), damaged \(report.damaged.count), unreferenced \(report.unreferenced.count)"
      )
      if !report.unreferenced.isEmpty {
        context.stdout.line("Run 'intake repair' to adopt valid objects and move the rest to lost+found/.")
      }
    }
    return report.isClean ? 0 : 1
  })

/// Opens the library (for reading only unless `readOnly` is false), resolves the ID argument, and runs `body`;
/// reports "not found" as exit 1.
private func withAsset(
  _ parsed: ParsedCommand, _ context: CommandContext, command: String, readOnly: Bool = true,
  _ body: (Library, Asset) async -> Int32
) async -> Int32 {
  guard let library = await LibraryLocation.open(parsed, context, readOnly: readOnly) else { return 3 }
  let key = parsed.positionals[0]
  do {
    // The manifest is checked before it answers (issue 24): a damaged one is refused, naming repair.
    try await library.checkManifest()
    guard let asset = try await library.resolve(key) else {
      context.stderr.line(
        "intake \(command): no asset matches '\(Terminal.escaped(key))' (or the prefix is ambiguous). "
          + "Run 'intake list'.")
      await library.close()
      return 1
    }
    let status = await body(library, asset)
    await library.close()
    return status
  } catch {
    LibraryLocation.reportFailure(error, command: command, at: LibraryLocation.path(parsed, context), context)
    await library.close()
    return 3
  }
}

extension Asset.Damage {
  var sentence: String {
    switch self {
    case .missing: "its bytes are missing from the library folder"
    case .hashMismatch: "its bytes no longer match their SHA-256"
    case .notAFile: "where its bytes belong there is a link, a FIFO, a device or a folder (left alone)"
    }
  }
}

/// How assets are printed. Import instants are ISO 8601 in UTC (`2026-11-29T23:13:26Z`), through
/// `Date.ISO8601FormatStyle`: an `ISO8601DateFormatter` made per asset cost 0.2 ms each on Linux.
enum AssetFields {
  static func json(_ asset: Asset) -> [(String, JSON)] {
    [
      ("id", .string(asset.id.rawValue)), ("sha256", .string(asset.sha256.hex)),
      ("size", .int(Int(asset.size))),
      ("type", .string(asset.type.rawValue)), ("name", .optional(asset.name)),
      ("batch", .string(asset.batch.rawValue)), ("position", .int(asset.position)),
      ("importedAt", .string(asset.importedAt.formatted(.iso8601))),
      ("captureDate", .optional(asset.metadata?.captureDate?.local)),
      ("locationStripped", .bool(asset.locationStripped)), ("damage", .optional(asset.damage?.rawValue)),
    ]
  }

  static func pairs(_ asset: Asset) -> [(String, String)] {
    [
      ("id", asset.id.rawValue), ("sha256", asset.sha256.hex), ("size", "\(asset.size) bytes"),
      ("type", asset.type.rawValue), ("name", asset.name ?? "-"), ("batch", asset.batch.rawValue),
      ("position", String(asset.position)),
      ("imported", asset.importedAt.formatted(.iso8601)),
    ] + facts(asset) + (asset.damage.map { [("damage", $0.sentence)] } ?? [])
  }

  /// What PhotoMetadata read at import, as `show` prints it.
  static func facts(_ asset: Asset) -> [(String, String)] {
    guard let m = asset.metadata else { return [("facts", "not recorded")] }
    var rows: [(String, String)] = []
    if let width = m.width, let height = m.height {
      rows.append(("pixels", "\(width)×\(height), orientation \(m.orientation.rawValue)"))
    }
    if let date = m.captureDate {
      rows.append(("captured", date.local + (date.offsetString.map { " " + $0 } ?? "")))
    }
    if let place = m.location {
      rows.append(
        ("location", "\(place.latitude), \(place.longitude)" + (place.altitude.map { ", \($0) m" } ?? "")))
    } else {
      rows.append(("location", asset.locationStripped ? "removed at import" : "none"))
    }
    let camera = [m.make, m.model].compactMap { $0 }.joined(separator: " ")
    if !camera.isEmpty { rows.append(("camera", camera + (m.lens.map { " (\($0))" } ?? ""))) }
    if let id = m.livePhotoID { rows.append(("live photo", id)) }
    if let duration = m.duration { rows.append(("duration", "\(duration) s")) }
    if let frames = m.frameCount { rows.append(("frames", String(frames))) }
    if m.hasGainMap { rows.append(("hdr gain map", MetadataFormatter.gainMapName(m))) }
    let extras = [
      m.hasDepth ? "depth map" : nil, m.isStereoPair ? "stereo pair" : nil, m.hasAlpha ? "alpha" : nil,
    ]
    .compactMap { $0 }
    if !extras.isEmpty { rows.append(("has", extras.joined(separator: ", "))) }
    for warning in m.warnings { rows.append(("warning", warning.description)) }
    return rows
  }

  static func line(_ asset: Asset) -> String {
    // Padded to 4, never cut: `padding(toLength:)` also truncates, and showed an image sequence (heics) as heic.
    let type = asset.type.rawValue
    return [
      asset.id.rawValue, type + String(repeating: " ", count: max(0, 4 - type.count)),
      String(asset.size), "\(asset.batch.rawValue.prefix(8)):\(asset.position)", asset.name ?? "-",
      asset.damage.map { "DAMAGED (\($0.rawValue))" } ?? "",
    ].joined(separator: "  ").trimmingCharacters(in: .whitespaces)
  }
}

let repairCommand = CommandSpec(
  name: "repair", abstract: "Bring the library's files and manifest back into agreement, deleting nothing.",
  discussion: """
    Undoes interrupted imports, adopts every stored object that has no row (its bytes are re-hashed against its
    name and its facts re-read; adopted assets are listed in a batch named for the repair), moves anything that
    is not a valid object (wrong hash, wrong name, a folder, a FIFO, a symbolic link) into lost+found/ inside
    the library without following it, removes renditions of objects the library does not have, and marks assets
    whose bytes are missing as damaged. Works on a library whose manifest is missing, empty, unreadable or
    damaged (integrity check, broken relations, header, commits lost from its log, rows that differ from the
    identity records): a damaged one is moved to lost+found/ and rebuilt from the stored objects and their
    identity records (journal/), so every asset keeps its id, name, batches and order.

    Exit status: 0 when done, 3 when the library could not be repaired.
    """,
  options: [ValueOption.library, Flag.json, ValueOption.wait],
  run: { parsed, context in
    let path = LibraryLocation.path(parsed, context)
    guard var configuration = LibraryLocation.configuration(parsed, context, create: true) else { return 2 }
    configuration.createIfNeeded = false
    let report: RepairReport
    do throws(Library.Error) {
      report = try await Library.repair(at: path, configuration: configuration)
    } catch {
      LibraryLocation.report(error, at: path, context)
      return 3
    }
    if parsed.isSet(Flag.json) {
      context.stdout.line(
        JSON.object([
          ("rebuiltManifest", .bool(report.rebuiltManifest)),
          ("restored", .array(report.restored.map { .string($0.rawValue) })),
          ("adopted", .array(report.adopted.map { .string($0.rawValue) })),
          ("adoptedBatch", .optional(report.adoptedBatch?.rawValue)),
          (
            "moved",
            .array(
              report.moved.map {
                .object([("from", .string($0.from)), ("to", .string($0.to)), ("reason", .string($0.reason))])
              })
          ),
          ("removedRenditions", .int(report.removedRenditions)),
          ("damaged", .array(report.damaged.map { .string($0.rawValue) })),
          ("unreadable", .array(report.unreadable.map { .string($0) })),
          ("undoneObjects", .int(report.recovery.undoneObjects)),
          ("removedStagingFiles", .int(report.recovery.removedStagingFiles)),
        ]))
      return 0
    }
    if report.rebuiltManifest { context.stdout.line("rebuilt the manifest") }
    if !report.restored.isEmpty {
      context.stdout.line("restored \(report.restored.count) assets from their identity records")
    }
    for move in report.moved {
      context.stdout.line(
        "moved \(Terminal.escaped(move.from)) to \(Terminal.escaped(move.to)): \(move.reason)")
    }
    for id in report.damaged { context.stdout.line("damaged \(id): its bytes are missing") }
    for entry in report.unreadable {
      context.stdout.line(
        "unreadable \(Terminal.escaped(entry)): could not be read (check its permissions); left as it was")
    }
    context.stdout.line(
      "adopted \(report.adopted.count), moved to lost+found \(report.moved.count), "
        + "renditions removed \(report.removedRenditions), damaged \(report.damaged.count), "
        + "interrupted imports undone \(report.recovery.undoneObjects)")
    return 0
  })

/// The options of `intake list` and `intake export`, as typed keys.
enum LibraryOption {
  static let order = ValueOption(
    "--order", "ORDER", "batch (import batches in the user's order; the default) or date.")
  static let limit = ValueOption("--limit", "N", "List at most N assets.")
  static let exportFormat = ValueOption("--as", "FORMAT", "original (the stored bytes; the default) or jpeg.")
  static let stripLocation = Flag("--strip-location", "Leave out GPS and other location metadata.")
  static let maxSize = ValueOption(
    "--max-size", "N", "Longest side in pixels; larger pictures are converted to a JPEG of that size.")
  static let force = Flag(
    "--force", "Export an asset known to be damaged, or whose bytes no longer match, as it is stored.")
}
