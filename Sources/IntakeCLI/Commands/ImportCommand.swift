import Foundation
import PhotoIntake

let importCommand = CommandSpec(
  name: "import", abstract: "Import photos and movies (files or folders) into the library.",
  discussion: """
    Each file is copied into the library durably (fsync, atomic rename, SQLite manifest) and named by its
    SHA-256; the same bytes are stored once. Folders are walked recursively, in name order; hidden files are
    skipped; symbolic links, FIFOs and devices inside folders are refused. The content decides the type, never
    the file name.

    A 320 px rendition (an upright JPEG, what a grid shows; see --rendition-size) of each photo is made in the
    background as items are committed, unless --no-renditions is given; other sizes are made on demand.

    Another process writing to the same library (an import, a removal, a repair) is waited for, up to --wait
    seconds. SIGINT or SIGTERM stops the import: items being committed finish, the others are discarded
    (nothing partial is left), the summary is printed and the exit status is 130. A full disk stops the batch:
    the items not yet started are reported once as not attempted.

    Exit status: 0 when every item was imported or was a duplicate, 1 when some items failed, 2 for usage errors,
    3 when the library could not be opened, 130 when interrupted.
    """,
  options: [
    ValueOption.library, Flag.json, ValueOption.wait,
    ImportOption.stripLocation,
    ImportOption.maxSize,
    ImportOption.jobs,
    ImportOption.noRenditions,
    ImportOption.renditionSize,
  ],
  arguments: [ArgumentSpec(name: "PATH", arity: .oneOrMore, help: "Files or folders to import.")],
  run: { parsed, context in await ImportRun(parsed: parsed, context: context).run() })

/// One `intake import` invocation.
struct ImportRun {
  var parsed: ParsedCommand
  var context: CommandContext

  func run() async -> Int32 {
    var configuration = Importer.Configuration()
    configuration.stripLocation = parsed.isSet(ImportOption.stripLocation)
    if let text = parsed.value(ImportOption.maxSize) {
      guard let size = Int64(text), size > 0 else {
        context.stderr.line("intake import: --max-size needs a positive number of bytes.")
        return 2
      }
      configuration.maximumFileSize = size
    }
    if let text = parsed.value(ImportOption.jobs) {
      guard let jobs = Int(text), jobs > 0 else {
        context.stderr.line("intake import: --jobs needs a positive number.")
        return 2
      }
      configuration.maximumConcurrentItems = jobs
    }
    if !parsed.isSet(ImportOption.noRenditions) {
      var renditions = RenditionStore.Configuration()
      let sizes = parsed.allValues(ImportOption.renditionSize)
      if !sizes.isEmpty {
        let values = sizes.compactMap { Int($0) }.filter { $0 > 0 }
        guard values.count == sizes.count else {
          context.stderr.line("intake import: --rendition-size needs a positive number of pixels.")
          return 2
        }
        renditions.sizes = values
      }
      configuration.renditions = renditions
    }
    let paths = parsed.positionals.map(context.absolute)
    let sources = await FileItemSource.walking(paths)
    guard let library = await LibraryLocation.open(parsed, context, create: true) else { return 3 }
    do {
      // Nothing is imported into a damaged manifest (issue 24): refused up front, naming repair, rather than
      // failing item by item.
      try await library.checkManifest()
    } catch {
      LibraryLocation.reportFailure(
        error, command: "import", at: LibraryLocation.path(parsed, context), context)
      await library.close()
      return 3
    }
    let json = parsed.isSet(Flag.json)
    let bar = context.stderrIsTerminal && !json ? ProgressBar(sink: context.stderr) : nil
    let session = Importer(library: library, configuration: configuration).start(sources)
    let interruption = context.handlesSignals ? Interruption(cancelling: session) : nil
    var summary: ImportSummary?
    // Items finish in any order; they are reported in the user's order, each as soon as those before it are.
    var finished: [Int: ItemReport] = [:]
    var nextToReport = 0
    // Items a full disk kept from being attempted are told once, after the rest.
    var notAttempted = 0
    // Items refused because part of the library is damaged: `intake repair` is named once, after the rest.
    var damagedLibrary = false
    for await event in session {
      switch event {
      case .itemFinished(let report):
        finished[report.index] = report
        while let next = finished.removeValue(forKey: nextToReport) {
          bar?.clear()
          if case .failed(.libraryDamaged) = next.result { damagedLibrary = true }
          if !json, case .failed(.notAttempted) = next.result {
            notAttempted += 1
          } else {
            print(next, source: sources[next.index], json: json)
          }
          nextToReport += 1
        }
      case .progress(let progress):
        bar?.draw(progress)
      case .finished(let result):
        summary = result
      case .renditionsFinished(let report):
        if case .failure(let error) = report.result {
          bar?.clear()
          let path = Terminal.escaped(display(sources[report.index].path))
          context.stderr.line("intake import: \(path): no renditions: \(error.description)")
        }
      case .started, .itemProgress:
        break
      }
    }
    bar?.clear()
    interruption?.stop()
    if notAttempted > 0 {
      context.stderr.line(
        "intake import: \(notAttempted) more item(s) not attempted: the disk filled up. Free some space and "
          + "import again; what was imported is kept.")
    }
    if damagedLibrary {
      context.stderr.line(
        "Run 'intake repair --library \(Terminal.escaped(LibraryLocation.path(parsed, context)))' to repair it."
      )
    }
    guard let summary else { return 3 }
    let recovery = await library.lastRecovery
    if !recovery.isEmpty {
      context.stderr.line(
        "intake import: first undid \(recovery.undoneObjects + recovery.removedStagingFiles) leftover(s) of an "
          + "interrupted import"
          + (recovery.kept.isEmpty ? "." : "; kept \(recovery.kept.count) unexpected entries."))
    }
    let line =
      "imported \(summary.importedCount), duplicates \(summary.duplicateCount), failed \(summary.failedCount)"
    if json { context.stderr.line(line) } else { context.stdout.line(line) }
    await library.close()
    if interruption?.happened == true {
      context.stderr.line("intake import: interrupted; items not yet committed were discarded.")
      return 130
    }
    return summary.failedCount == 0 ? 0 : 1
  }

  private func print(_ report: ItemReport, source: FileItemSource, json: Bool) {
    let path = Terminal.escaped(display(source.path))
    if json {
      context.stdout.line(JSON.object(Self.jsonFields(path: path, report: report)))
    } else if let error = report.result.error {
      context.stderr.line("intake import: \(path): \(error.description)")
    } else if let mismatch = report.typeHintMismatch {
      context.stderr.line(
        "intake import: \(path): named .\(mismatch.hint) but the content is \(mismatch.detected.rawValue); "
          + "stored as \(mismatch.detected.rawValue).")
    }
  }

  /// Paths as the user gave them: relative to the current folder when under it.
  private func display(_ path: String) -> String {
    let prefix =
      context.currentDirectory.hasSuffix("/") ? context.currentDirectory : context.currentDirectory + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
  }

  static func jsonFields(path: String, report: ItemReport) -> [(String, JSON)] {
    var fields: [(String, JSON)] = [("path", .string(path))]
    switch report.result {
    case .imported(let asset), .duplicate(let asset):
      let status = if case .imported = report.result { "imported" } else { "duplicate" }
      fields += [
        ("status", .string(status)), ("id", .string(asset.id.rawValue)),
        ("sha256", .string(asset.sha256.hex)),
        ("type", .string(asset.type.rawValue)), ("size", .int(Int(asset.size))),
      ]
      if let mismatch = report.typeHintMismatch {
        fields.append(
          ("warning", .string("named .\(mismatch.hint) but the content is \(mismatch.detected.rawValue)")))
      }
    case .failed(let error):
      fields += [
        ("status", .string("failed")), ("error", .string(error.description)), ("code", .string(error.code)),
      ]
    }
    return fields
  }
}

/// SIGINT and SIGTERM during an import: the session is cancelled (items being committed finish; the others
/// are discarded) instead of the process dying with staging files behind it.
final class Interruption: @unchecked Sendable {
  // @unchecked: `sources` is set once in init and only cancelled afterwards (DispatchSource is thread-safe,
  // though not marked Sendable on Linux); the flag is in a Protected.
  private let sources: [any DispatchSourceSignal]
  private let flag = Protected(false)

  init(cancelling session: ImportSession) {
    var sources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      sources.append(source)
    }
    self.sources = sources
    for source in sources {
      source.setEventHandler { [flag] in
        flag.withLock { $0 = true }
        session.cancel()
      }
      source.resume()
    }
  }

  /// Whether a signal arrived.
  var happened: Bool { flag.current }

  /// Gives the signals back to their default action.
  func stop() {
    for source in sources { source.cancel() }
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }
}

/// The options of `intake import`, as typed keys (the shared ones are `Flag`'s and `ValueOption`'s).
enum ImportOption {
  static let stripLocation = Flag(
    "--strip-location",
    "Store copies without location (GPS in EXIF, XMP, QuickTime); only metadata bytes change.")
  static let maxSize = ValueOption("--max-size", "BYTES", "Refuse files larger than this (default 4 GiB).")
  static let jobs = ValueOption("--jobs", "N", "Items copied at once (default: the number of cores).")
  static let noRenditions = Flag(
    "--no-renditions", "Do not make renditions now (they are made on demand later).")
  static let renditionSize = ValueOption(
    "--rendition-size", "N",
    "Longest side of a rendition to make now (default 320; others are made on demand).",
    repeatable: true)
}
