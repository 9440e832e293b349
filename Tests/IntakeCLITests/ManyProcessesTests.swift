import Foundation
import PhotoIntakeTesting
import Testing

/// Invariants 8 and 9 of DESIGN.md with real processes: four `intake import`s of overlapping folders into one
/// library at once, with readers listing all along; links planted in the library lead nowhere; commands that
/// only read never create a library.
@Suite struct ManyProcessesTests {
  let folder = TemporaryDirectory()
  var library: String { folder.at("library") }

  func start(_ arguments: [String], output: String) throws -> ChildProcess {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: intakeExecutable())
    process.arguments = arguments
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  func run(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
    let output = folder.at("out-\(UUID().uuidString)")
    let process = try start(arguments, output: output)
    process.waitUntilExit()
    return (process.terminationStatus, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
  }

  @Test func fourImportersAndReadersImportEachItemExactlyOnce() throws {
    // 24 photos; each importer takes an overlapping half of them.
    var generator = SeededGenerator(seed: 42)
    for index in 0..<24 {
      var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
      for _ in 0..<2000 { bytes.append(UInt8(truncatingIfNeeded: generator.next())) }
      for importer in 0..<4 where (index + importer * 6) % 24 < 12 {
        _ = try folder.write("src\(importer)/\(index).jpg", bytes)
      }
    }
    _ = try run(["import", "--library", library, "--no-renditions", folder.at("src0")])
    var importers: [ChildProcess] = []
    for importer in 0..<4 {
      importers.append(
        try start(
          [
            "import", "--library", library, "--no-renditions", "--json", "--wait", "120",
            folder.at("src\(importer)"),
          ],
          output: folder.at("import-\(importer).jsonl")))
    }
    var readerFailures = 0
    var reads = 0
    while importers.contains(where: \.isRunning) {
      let list = try run(["list", "--library", library])
      if list.status != 0 { readerFailures += 1 }
      reads += 1
    }
    for process in importers {
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
    }
    #expect(readerFailures == 0, "\(readerFailures) of \(reads) reads failed during the imports")
    let verify = try run(["verify", "--library", library])
    #expect(verify.status == 0, "\(verify.stdout)")
    let listed = try jsonLines(try run(["list", "--library", library, "--json"]).stdout)
    let hashes = listed.compactMap { $0["sha256"] as? String }
    let unique = Set(listed.map { $0["id"] as? String ?? "" })
    #expect(unique.count == 24, "every photo stored once: \(unique.count) assets")
    #expect(Set(hashes).count == 24)
    #expect(folder.files(under: "library/objects").count == 24)
  }

  @Test func linksInTheLibraryAreNeverFollowed() throws {
    let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 7, count: 500)
    _ = try folder.write("src/a.jpg", bytes)
    #expect(try run(["import", "--library", library, "--no-renditions", folder.at("src")]).status == 0)
    // Someone's files outside, and links to them where the library's own folders and files belong.
    let outside = try folder.write("outside/precious.jpg", bytes + [1])
    let outsideFolder = folder.at("outside")
    try FileManager.default.createSymbolicLink(
      atPath: library + "/objects/zz", withDestinationPath: outsideFolder)
    try FileManager.default.createSymbolicLink(
      atPath: library + "/staging/0000.part", withDestinationPath: outside)
    try FileManager.default.removeItem(atPath: library + "/renditions")
    try FileManager.default.createSymbolicLink(
      atPath: library + "/renditions", withDestinationPath: outsideFolder)
    // A damaged layout is refused by every command, and repair moves the links aside.
    #expect(try run(["list", "--library", library]).status == 3)
    #expect(try run(["repair", "--library", library]).status == 0)
    #expect(try run(["verify", "--library", library]).status == 0)
    #expect(folder.files(under: "outside") == ["precious.jpg"])
    #expect(FileManager.default.contents(atPath: outside).map(Array.init) == bytes + [1])
    // The three links, moved (not followed) into lost+found.
    let kept = try FileManager.default.contentsOfDirectory(atPath: library + "/lost+found")
    #expect(kept.count == 3, "\(kept)")
    for name in kept {
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: library + "/lost+found/" + name) != "")
    }
  }

  @Test func readOnlyCommandsNeverCreateALibrary() throws {
    for command in [["list"], ["verify"], ["show", "abcd"], ["export", "abcd", folder.at("x")]] {
      let result = try run(command + ["--library", folder.at("typo")])
      #expect(result.status == 3, "\(command)")
      #expect(!FileManager.default.fileExists(atPath: folder.at("typo")), "\(command) created a library")
    }
    #expect(try run([]).status == 2)
  }

  @Test func aLostManifestIsRefusedThenRepaired() throws {
    _ = try folder.write("src/a.jpg", [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 3, count: 300))
    _ = try folder.write("src/b.jpg", [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 4, count: 300))
    #expect(try run(["import", "--library", library, "--no-renditions", folder.at("src")]).status == 0)
    try FileManager.default.removeItem(atPath: library + "/manifest.sqlite")
    for suffix in ["-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: library + "/manifest.sqlite" + suffix)
    }
    for command in [["list"], ["verify"], ["import", "--no-renditions", folder.at("src")]] {
      #expect(try run(command + ["--library", library]).status == 3, "\(command)")
      #expect(folder.files(under: "library/objects").count == 2, "\(command) touched the objects")
    }
    #expect(try run(["repair", "--library", library]).status == 0)
    let listed = try jsonLines(try run(["list", "--library", library, "--json"]).stdout)
    #expect(listed.count == 2)
    #expect(try run(["verify", "--library", library]).status == 0)
  }

  @Test(arguments: [SIGINT, SIGTERM])
  func aSignalFinishesTheImportWithASummaryAndCleanStaging(signal: Int32) throws {
    var generator = SeededGenerator(seed: 7)
    for index in 0..<120 {
      var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
      for _ in 0..<40_000 { bytes.append(UInt8(truncatingIfNeeded: generator.next())) }
      _ = try folder.write("src/\(index).jpg", bytes)
    }
    let output = folder.at("signal.out")
    let child = try start(
      ["import", "--library", library, "--no-renditions", "--jobs", "1", folder.at("src")], output: output)
    // Once a few items are in, interrupt.
    let deadline = ContinuousClock.now + .seconds(30)
    while child.isRunning && folder.files(under: "library/objects").count < 5
      && ContinuousClock.now < deadline
    {
      usleep(2000)
    }
    kill(child.processIdentifier, signal)
    child.waitUntilExit()
    #expect(child.terminationReason == .exit, "the child died of the signal instead of handling it")
    #expect(child.terminationStatus == 130)
    let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    #expect(printed.contains("imported "), "no summary: \(printed)")
    #expect(folder.files(under: "library/staging").isEmpty)
    #expect(try run(["verify", "--library", library]).status == 0)
  }
}
