import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Issue 24 item 4, on real storage: readers (`list`, `show`, `export`, `verify`) work on a library this user
/// cannot write and on read-only media; writers (`import`, `remove`, `repair`) refuse, saying the library cannot
/// be changed here, and change nothing; on a full file system readers still answer, writers say the disk is
/// full, and `repair` never sets the manifest aside for lack of space.
///
/// Each runs the `intake` built beside the tests as a child process: as another user (`setpriv`) when the tests
/// run as root, whom permissions do not stop; inside a private mount namespace (`unshare -m`) for a read-only
/// bind mount and a 1 MB tmpfs, where the system allows it (root with CAP_SYS_ADMIN). Where it does not, the
/// test says why and does nothing.
@Suite(.serialized) struct ReadOnlyStorageTests {
  let folder = TemporaryDirectory()
  var library: String { folder.at("library") }

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs `/bin/sh -c script` and waits for it; its output goes through files (no pipe to fill).
  func shell(_ script: String) throws -> Run {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    let out = folder.at("sh-out-\(UUID().uuidString)")
    let err = out + "-err"
    for path in [out, err] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    let outHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    let errHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
    process.standardOutput = outHandle
    process.standardError = errHandle
    try process.run()
    process.waitUntilExit()
    try outHandle.close()
    try errHandle.close()
    func text(_ path: String) -> String {
      String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
    return Run(status: process.terminationStatus, stdout: text(out), stderr: text(err))
  }

  /// A command line for `intake` with `arguments`, quoted for the shell.
  func intake(_ arguments: [String], library: String? = nil, executable: String? = nil) -> String {
    ([executable ?? intakeExecutable()] + arguments + ["--library", library ?? self.library]).map(quoted)
      .joined(separator: " ")
  }

  /// The `intake` another user can run through `prefix`: the one built beside the tests or, when a folder on its
  /// path is closed to that user (a checkout in root's home), a copy in this test's folder; nil when neither runs.
  func intakeRunnable(by prefix: String) throws -> String? {
    let built = intakeExecutable()
    if try shell(prefix + quoted(built) + " --help").status == 0 { return built }
    let copy = folder.at("intake")
    try FileManager.default.copyItem(atPath: built, toPath: copy)
    chmod(copy, 0o755)
    return try shell(prefix + quoted(copy) + " --help").status == 0 ? copy : nil
  }

  func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

  /// A library of three small pictures, made in-process; returns `list --json` of it. `withLog`: the manifest's
  /// log and index are left there (as a reader leaves them) or not (as a writer that closed leaves it), which
  /// SQLite reads in two different ways.
  func makeLibrary(withLog: Bool = false) async throws -> [[String: Any]] {
    for index in 0..<3 {
      _ = try folder.write(
        "in/\(index).png", Fixtures.png(width: 3 + index, height: 5, seed: "read-only \(index)"))
    }
    #expect(
      await runIntake(["import", "--no-renditions", folder.at("in"), "--library", library], in: folder.path)
        .status == 0)
    // Every folder on the way is open to the other user the tests run as.
    chmod(folder.path, 0o755)
    let listed = try jsonLines(
      await runIntake(["list", "--json", "--library", library], in: folder.path).stdout)
    if !withLog {
      // Left empty by the reader above; nothing is open: removing them loses nothing.
      for name in ["manifest.sqlite-wal", "manifest.sqlite-shm"] {
        let path = library + "/" + name
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int {
          if name.hasSuffix("wal") { try #require(size == 0) }
          try FileManager.default.removeItem(atPath: path)
        }
      }
    }
    return listed
  }

  /// Every file under the library with its bytes, and every folder: what must not change.
  func snapshot(_ root: String) -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let relative = enumerator?.nextObject() as? String {
      files[relative] = FileManager.default.contents(atPath: root + "/" + relative) ?? Data("folder".utf8)
    }
    return files
  }

  /// Whether a private mount namespace with mounts of its own can be had here (root with CAP_SYS_ADMIN).
  func canMount() throws -> Bool {
    let probe = folder.at("probe")
    try FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
    return try shell("unshare -m sh -c \(quoted("mount -t tmpfs -o size=64k tmpfs \(quoted(probe))"))").status
      == 0
  }

  /// The readers answer as they did; the writers refuse and name the cause; returns nothing, expects.
  func expectReadersAnswerAndWritersRefuse(
    _ run: ([String]) throws -> Run, listed: [[String: Any]], refusal: String, exportTo out: String
  ) throws {
    let id = try #require(listed.first?["id"] as? String)
    let list = try run(["list", "--json"])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(try jsonLines(list.stdout).map { $0["id"] as? String } == listed.map { $0["id"] as? String })
    let show = try run(["show", id])
    #expect(show.status == 0, "\(show.stderr)")
    #expect(show.stdout.contains(id))
    let verify = try run(["verify", "--json"])
    #expect(verify.status == 0, "\(verify.stderr)")
    #expect(verify.stdout.contains("\"checked\":3"), "\(verify.stdout)")
    let export = try run(["export", id, out])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(FileManager.default.fileExists(atPath: out))

    _ = try folder.write("more/new.png", Fixtures.png(width: 9, height: 9, seed: "refused"))
    chmod(folder.at("more"), 0o755)
    let imported = try run(["import", "--no-renditions", folder.at("more")])
    #expect(imported.status != 0)
    #expect(imported.stderr.contains(refusal), "\(imported.stderr)")
    let removed = try run(["remove", id])
    #expect(removed.status == 1)
    #expect(removed.stderr.contains(refusal), "\(removed.stderr)")
    let repaired = try run(["repair"])
    #expect(repaired.status == 3)
    #expect(repaired.stderr.contains(refusal), "\(repaired.stderr)")
    for result in [list, show, verify, export, imported, removed, repaired] {
      #expect(!result.stderr.contains("SQLite"), "\(result.stderr)")
      #expect(!result.stderr.contains("disk I/O error"), "\(result.stderr)")
    }
  }

  static let readOnlyRefusal = "cannot be changed here"

  /// A folder and files this user cannot write (`chmod -R a-w`), read as another user when the tests run as
  /// root; with and without the manifest's log and index beside it.
  @Test(arguments: [false, true])
  func readersWorkWhereThisUserCannotWrite(withLog: Bool) async throws {
    let listed = try await makeLibrary(withLog: withLog)
    var prefix = ""
    if geteuid() == 0 {
      guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
        print("skipped: the tests run as root, whom permissions do not stop, and setpriv is missing")
        return
      }
      prefix = "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "
    }
    guard let executable = try intakeRunnable(by: prefix) else {
      Issue.record("user 65534 can run neither \(intakeExecutable()) nor a copy of it")
      return
    }
    let before = snapshot(library)
    #expect(try shell("chmod -R a-w \(quoted(library))").status == 0)
    defer { _ = try? shell("chmod -R u+w \(quoted(library))") }
    let out = folder.at("out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    chmod(out, 0o777)
    try expectReadersAnswerAndWritersRefuse(
      { try shell(prefix + intake($0, executable: executable)) }, listed: listed,
      refusal: Self.readOnlyRefusal,
      exportTo: out + "/exported.png")
    #expect(snapshot(library) == before, "nothing in the library changed, nothing was made")
  }

  /// Read-only media: a read-only bind mount of the library (EROFS, which stops root too).
  @Test func readersWorkOnReadOnlyMedia() async throws {
    guard try canMount() else {
      print("skipped: no private mount namespace here (needs root with CAP_SYS_ADMIN)")
      return
    }
    let listed = try await makeLibrary()
    let mounted = folder.at("mounted")
    try FileManager.default.createDirectory(atPath: mounted, withIntermediateDirectories: true)
    let before = snapshot(library)
    let mount =
      "mount --bind \(quoted(library)) \(quoted(mounted)) && mount -o remount,bind,ro \(quoted(mounted)) && "
    try expectReadersAnswerAndWritersRefuse(
      { try shell("unshare -m sh -c \(quoted(mount + intake($0, library: mounted)))") }, listed: listed,
      refusal: Self.readOnlyRefusal, exportTo: folder.at("exported.png"))
    #expect(snapshot(library) == before)
  }

  /// A full file system: a copy of the library on a 1 MB tmpfs filled to its last byte. Readers answer; every
  /// writer says the disk is full; nothing is lost, and `repair` keeps the manifest where it is (it used to set
  /// it aside as unreadable, then fail to make a new one: the library then had no manifest at all).
  @Test func aFullDiskIsReportedAsFullAndReadersStillAnswer() async throws {
    guard try canMount() else {
      print("skipped: no private mount namespace here (needs root with CAP_SYS_ADMIN)")
      return
    }
    let listed = try await makeLibrary()
    let id = try #require(listed.first?["id"] as? String)
    let mounted = folder.at("small")
    let results = folder.at("results")
    for path in [mounted, results] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    _ = try folder.write("more/new.png", Fixtures.png(width: 9, height: 9, seed: "no room"))
    let copy = mounted + "/library"
    let commands: [(String, [String])] = [
      ("list", ["list", "--json"]), ("show", ["show", id]),
      ("export", ["export", id, folder.at("exported.png")]),
      ("verify", ["verify", "--json"]), ("import", ["import", "--no-renditions", folder.at("more")]),
      ("remove", ["remove", id]), ("repair", ["repair"]), ("after", ["list", "--json"]),
    ]
    var script =
      "mount -t tmpfs -o size=1m tmpfs \(quoted(mounted)) && cp -a \(quoted(library)) \(quoted(copy))"
    // Filled to the last block: `dd` stops at ENOSPC.
    script += " && { dd if=/dev/zero of=\(quoted(mounted + "/filler")) bs=1k 2>/dev/null; true; }"
    script += " && df -k \(quoted(mounted)) > \(quoted(results + "/df"))"
    for (name, arguments) in commands {
      let base = quoted(results + "/" + name)
      script += "; \(intake(arguments, library: copy)) > \(base).out 2> \(base).err; echo $? > \(base).status"
    }
    let ran = try shell("unshare -m sh -c \(quoted(script))")
    #expect(ran.status == 0, "\(ran.stderr)")
    func result(_ name: String) -> Run {
      func text(_ suffix: String) -> String {
        String(
          decoding: FileManager.default.contents(atPath: "\(results)/\(name).\(suffix)") ?? Data(),
          as: UTF8.self)
      }
      return Run(
        status: Int32(text("status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1,
        stdout: text("out"),
        stderr: text("err"))
    }
    let free = result("df").stdout
    for reader in ["list", "show", "export", "verify", "after"] {
      #expect(result(reader).status == 0, "\(reader): \(result(reader).stderr) \(free)")
    }
    for writer in ["import", "remove", "repair"] {
      #expect(result(writer).status != 0, "\(writer) with no space: \(result(writer).stdout)")
      #expect(result(writer).stderr.contains("is full"), "\(writer): \(result(writer).stderr)")
      #expect(!result(writer).stderr.contains("SQLite"), "\(writer): \(result(writer).stderr)")
    }
    #expect(
      try jsonLines(result("after").stdout).map { $0["id"] as? String } == listed.map { $0["id"] as? String })
  }
}

#if TestHooks  // fault injection exists only in test-hook builds
  /// A full disk where a command writes outside the library (an export's destination, a contact sheet) is
  /// reported as a full disk too.
  @Suite struct FullDestinationTests {
    let folder = TemporaryDirectory()
    var library: String { folder.at("library") }

    func intake(_ arguments: [String], faults: FaultInjector? = nil) async -> CLIResult {
      await Syscalls.injectedFaults.withValue(faults) {
        await runIntake(arguments + ["--library", library], in: folder.path)
      }
    }

    @Test func exportAndSheetSayTheDiskIsFull() async throws {
      _ = try folder.write("in/a.png", Fixtures.png(width: 6, height: 4, seed: "full destination"))
      #expect(await intake(["import", "--no-renditions", folder.at("in")]).status == 0)
      let id = try #require(try jsonLines(await intake(["list", "--json"]).stdout).first?["id"] as? String)
      let full = FaultInjector([.init(.write, pathContains: "dest-full", code: ENOSPC)])
      let export = await intake(["export", id, folder.at("dest-full.png")], faults: full)
      #expect(export.status == 1)
      #expect(export.stderr.contains("is full"), "\(export.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder.at("dest-full.png")))
      #expect(folder.files(under: "").filter { $0.contains(".intake-") }.isEmpty, "no temporary file left")
      let sheet = await intake(["sheet", "--out", folder.at("dest-full-sheet")], faults: full)
      #expect(sheet.status != 0)
      #expect(sheet.stderr.contains("full"), "\(sheet.stderr)")
    }
  }
#endif
