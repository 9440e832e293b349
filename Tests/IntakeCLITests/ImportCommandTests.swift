import Foundation
import PhotoIntakeTesting
import Testing

@testable import IntakeCLI

/// Snapshot tests of `intake import`, `list`, `show`, `export`, `remove` and `verify`: the whole output is
/// compared, with the run-specific parts (ids, dates, the temporary folder) replaced by placeholders.
@Suite struct ImportCommandTests {
  let folder = TemporaryDirectory()

  init() throws {
    try folder.write("photos/a.jpg", jpeg(1))
    try folder.write("photos/b.jpg", jpeg(2))
    try folder.write("photos/copy-of-a.jpg", jpeg(1))
    try folder.write("photos/notes.jpg", Array("not a photo".utf8))
    try folder.write("photos/.DS_Store", [0])
  }

  func jpeg(_ seed: UInt8) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: seed, count: 100) }

  func normalize(_ text: String) -> String {
    let replacements = [
      ("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uuid>"),
      ("\\b[0-9a-f]{8}:", "<batch>:"),
      ("\\d{4}-\\d\\d-\\d\\dT[0-9:]+Z", "<date>"),
    ]
    var text = text.replacingOccurrences(of: folder.path, with: "<tmp>")
    for (pattern, replacement) in replacements {
      text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
    }
    return text
  }

  @Test func importPrintsFailuresAndASummary() async throws {
    let result = await runIntake(
      ["import", "--no-renditions", "--library", "lib", "photos"], in: folder.path)
    #expect(result.status == 1)
    #expect(result.stdout == "imported 2, duplicates 1, failed 1\n")
    #expect(
      result.stderr
        == "intake import: photos/notes.jpg: The content is not a supported photo or movie format "
        + "(whatever its name says: jpg). Supported: JPEG, HEIC/HEIF, AVIF, PNG, GIF, WebP, TIFF, DNG and raw, "
        + "MOV, MP4.\n")
  }

  @Test func importJSONHasOneObjectPerItemInOrder() async throws {
    let result = await runIntake(
      ["import", "--no-renditions", "--library", "lib", "--json", "photos"], in: folder.path)
    #expect(result.status == 1)
    let objects = try jsonLines(result.stdout)
    #expect(
      objects.map { $0["path"] as? String } == [
        "photos/a.jpg", "photos/b.jpg", "photos/copy-of-a.jpg", "photos/notes.jpg",
      ])
    #expect(objects.map { $0["status"] as? String } == ["imported", "imported", "duplicate", "failed"])
    #expect(objects[0]["id"] as? String == objects[2]["id"] as? String)
    #expect((objects[0]["sha256"] as? String)?.count == 64)
    #expect(objects[3]["code"] as? String == "unsupported-content")
    #expect(result.stderr == "imported 2, duplicates 1, failed 1\n")
  }

  @Test func everythingImportedExitsZero() async throws {
    let result = await runIntake(
      ["import", "--no-renditions", "--library", "lib", "photos/a.jpg", "photos/b.jpg"], in: folder.path)
    #expect(result.status == 0)
    #expect(result.stdout == "imported 2, duplicates 0, failed 0\n")
    #expect(result.stderr.isEmpty)
  }

  @Test func theDefaultLibraryIsUnderTheDataHome() async throws {
    let result = await runIntake(["import", "photos/a.jpg"], in: folder.path)
    #expect(result.status == 0)
    #expect(
      FileManager.default.fileExists(atPath: folder.at("home/.local/share/photointake/manifest.sqlite")))
  }

  @Test func listShowExportRemoveVerify() async throws {
    _ = await runIntake(["import", "--no-renditions", "--library", "lib", "photos"], in: folder.path)
    let list = await runIntake(["list", "--library", "lib"], in: folder.path)
    #expect(list.status == 0)
    #expect(
      normalize(list.stdout) == """
        <uuid>  jpeg  104  <batch>:0  a.jpg
        <uuid>  jpeg  104  <batch>:1  b.jpg
        <uuid>  jpeg  104  <batch>:2  a.jpg

        """)
    let json = try jsonLines(await runIntake(["list", "--library", "lib", "--json"], in: folder.path).stdout)
    try #require(json.count == 3)
    #expect(Set(json[0].keys).isSuperset(of: ["id", "sha256", "size", "type", "name", "batch", "position"]))
    let id = try #require(json[1]["id"] as? String)

    let show = await runIntake(["show", "--library", "lib", String(id.prefix(8))], in: folder.path)
    #expect(show.status == 0)
    #expect(
      normalize(show.stdout) == """
        id         <uuid>
        sha256     \(json[1]["sha256"] as! String)
        size       104 bytes
        type       jpeg
        name       b.jpg
        batch      <uuid>
        position   1
        imported   <date>
        facts      not recorded
        path       <tmp>/lib/objects/\((json[1]["sha256"] as! String).prefix(2))/\(json[1]["sha256"] as! String)

        """)

    try FileManager.default.createDirectory(atPath: folder.at("out"), withIntermediateDirectories: true)
    let export = await runIntake(["export", "--library", "lib", id, "out"], in: folder.path)
    #expect(export.status == 0)
    #expect(normalize(export.stdout) == "<tmp>/out/b.jpg\n")
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder.at("out/b.jpg")))) == jpeg(2))
    let again = await runIntake(["export", "--library", "lib", id, "out"], in: folder.path)
    #expect(again.status == 1)
    #expect(again.stderr.contains("already exists"))

    let verify = await runIntake(["verify", "--library", "lib"], in: folder.path)
    #expect(verify.stdout == "verified 2, damaged 0, unreferenced 0\n")
    #expect(verify.status == 0)

    let remove = await runIntake(["remove", "--library", "lib", id], in: folder.path)
    #expect(remove.status == 0)
    #expect(remove.stdout == "removed \(id)\n")
    let missing = await runIntake(["show", "--library", "lib", id], in: folder.path)
    #expect(missing.status == 1)
  }

  @Test func verifyReportsDamageWithExitOne() async throws {
    _ = await runIntake(["import", "--no-renditions", "--library", "lib", "photos/a.jpg"], in: folder.path)
    let objects = folder.files(under: "lib/objects")
    let object = folder.at("lib/objects/" + objects[0])
    chmod(object, 0o644)
    try Data([0xFF, 0xD8, 0xFF, 0xE0, 0]).write(to: URL(fileURLWithPath: object))
    let verify = await runIntake(["verify", "--library", "lib", "--json"], in: folder.path)
    #expect(verify.status == 1)
    let report = try #require(try jsonLines(verify.stdout).first)
    #expect(report["checked"] as? Int == 1)
    #expect((report["damaged"] as? [[String: Any]])?.first?["damage"] as? String == "hashMismatch")
  }

  @Test(arguments: [
    (["import"], "'intake import' needs PATH."),
    (["import", "--jobs", "0", "x"], "--jobs needs a positive number."),
    (["list", "--order", "size"], "--order must be 'batch' or 'date'."),
    (["show"], "'intake show' needs ID."),
    (["frobnicate"], "unknown command 'frobnicate'"),
    (["list", "--bogus"], "unknown option '--bogus'"),
  ])
  func usageErrorsExitTwo(_ arguments: [String], _ message: String) async {
    let result = await runIntake(arguments, in: folder.path)
    #expect(result.status == 2)
    #expect(result.stderr.contains(message))
    #expect(result.stdout.isEmpty)
  }

  @Test func aLibraryThatCannotBeOpenedExitsThree() async throws {
    try folder.write("not-a-folder", [1])
    let result = await runIntake(["list", "--library", "not-a-folder"], in: folder.path)
    #expect(result.status == 3)
    #expect(result.stderr.contains("could not be opened"))
  }

  @Test func everyCommandHasHelp() async {
    for spec in CommandTable.all {
      let result = await runIntake([spec.name, "--help"], in: folder.path)
      #expect(result.status == 0)
      #expect(result.stdout.hasPrefix(spec.abstract))
      #expect(result.stdout.contains("USAGE: intake \(spec.name)"))
      #expect(result.stdout.contains("-h, --help"))
    }
    let overview = await runIntake(["--help"], in: folder.path)
    for spec in CommandTable.all { #expect(overview.stdout.contains("  \(spec.name) ")) }
  }

  @Test func theProgressBarIsDrawnOnATerminalOnly() async {
    let quiet = await runIntake(
      ["import", "--no-renditions", "--library", "lib", "photos/a.jpg"], in: folder.path, terminal: false)
    #expect(!quiet.stderr.contains("\r"))
    let tty = await runIntake(
      ["import", "--library", "lib2", "photos/a.jpg"], in: folder.path, terminal: true)
    #expect(tty.stderr.contains("[##############################] 1/1 100%"))
  }
}

/// `intake import --strip-location` and `intake show` on the repository's sample photos.
@Suite struct ImportMetadataCommandTests {
  let folder = TemporaryDirectory()

  @Test func showPrintsTheFactsAndStrippingIsRecorded() async throws {
    let sample = Repository.samples + "/PXL_20230918_201502.jpg"
    let plain = try jsonLines(
      await runIntake(["import", "--no-renditions", "--library", "lib", "--json", sample], in: folder.path)
        .stdout)
    let stripped = try jsonLines(
      await runIntake(
        ["import", "--no-renditions", "--library", "lib", "--json", "--strip-location", sample],
        in: folder.path
      )
      .stdout)
    let plainID = try #require(plain.first?["id"] as? String)
    let strippedID = try #require(stripped.first?["id"] as? String)
    #expect(plainID != strippedID)

    let shown = await runIntake(["show", "--library", "lib", plainID], in: folder.path)
    let lines = shown.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("pixels     640×480, orientation 1"))
    #expect(lines.contains("captured   2023-09-18T20:15:02 -03:00"))
    #expect(lines.contains("location   -34.6037, -58.3816"))
    #expect(lines.contains("camera     Google Pixel 7"))

    let shownStripped = await runIntake(["show", "--library", "lib", strippedID], in: folder.path)
    #expect(shownStripped.stdout.contains("location   removed at import\n"))
    let json = try #require(
      try jsonLines(
        await runIntake(["show", "--library", "lib", "--json", strippedID], in: folder.path).stdout
      ).first)
    #expect(json["locationStripped"] as? Bool == true)
    let metadata = try #require(json["metadata"] as? [String: Any])
    #expect(metadata["latitude"] is NSNull)
    #expect(metadata["model"] as? String == "Pixel 7")
  }
}

/// A full disk stops the batch with one sentence for the rest, not one line per remaining item.
@Suite struct DiskFullImportTests {
  #if TestHooks  // fault injection exists only in test-hook builds
    @Test func theRestAreReportedOnce() async throws {
      let folder = TemporaryDirectory()
      for index in 0..<30 {
        _ = try folder.write(
          "in/\(index).jpg", [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: UInt8(index), count: 500))
      }
      let faults = FaultInjection([.diskFull(afterBytes: 1200)])
      let result = await faults.run {
        await runIntake(
          ["import", "--library", "lib", "--no-renditions", "--jobs", "1", "in"], in: folder.path)
      }
      #expect(result.status == 1)
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.filter { $0.contains("is full") }.count == 1, "\(result.stderr)")
      #expect(lines.contains { $0.contains("more item(s) not attempted") })
      #expect(lines.count < 5, "one line per remaining item: \(lines.count)")
    }
  #endif
}

/// Sentences of the core say what to do without naming a tool's commands or flags (the CLI adds those).
@Suite struct CoreSentenceTests {
  @Test func coreErrorsNameNoCommand() {
    let library: [Library.Error] = [
      .cannotOpen(reason: "x"), .notALibrary("/x"), .manifestMissing, .manifestUnreadable(reason: "x"),
      .damagedLayout("x"), .busy, .database(reason: "x"), .notFound(AssetID(rawValue: "a")),
      .damagedObject(AssetID(rawValue: "a"), .fifo), .alteredObject(AssetID(rawValue: "a")), .diskFull,
      .io(reason: "x"), .destinationExists("/x"), .readOnly,
    ]
    let importer: [Importer.Error] = [
      .libraryBusy, .libraryDamaged(reason: "x"), .notAttempted, .folderTooDeep(limit: 64),
      .database(reason: "x"), .diskFull, .cancelled, .emptyFile, .libraryReadOnly,
    ]
    for sentence in library.map(\.description) + importer.map(\.description) {
      #expect(!sentence.contains("intake "), "\(sentence)")
      #expect(!sentence.contains("--"), "\(sentence)")
    }
  }
}
