import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

/// Issue 24 item 3: `intake verify` while other processes and this one import and remove. Every run reads one
/// consistent snapshot: an import under way is in flight, never "unreferenced", a removal under way is never
/// damage, and no SQLite error (a foreign-key failure of marking an asset removed meanwhile) reaches the user.
@Suite struct VerifyUnderLoadTests {
  let folder = TemporaryDirectory()
  var library: String { folder.at("library") }

  func intake(_ arguments: [String]) async -> CLIResult {
    await runIntake(arguments + ["--library", library], in: folder.path)
  }

  /// `count` folders of `size` distinct small photos each, under `name`.
  func sources(_ name: String, count: Int, size: Int) throws -> [String] {
    var folders: [String] = []
    for group in 0..<count {
      for index in 0..<size {
        let seed = "\(name) \(group) \(index)"
        _ = try folder.write(
          "\(name)/\(group)/\(index).\(index % 2 == 0 ? "jpg" : "png")",
          index % 2 == 0
            ? Fixtures.jpeg(width: 8 + index % 4 * 8, height: 8, seed: seed)
            : Fixtures.png(width: 3 + index % 5, height: 4, seed: seed))
      }
      folders.append(folder.at("\(name)/\(group)"))
    }
    return folders
  }

  @Test func verifyWhileImportsAndRemovalsCommitReportsNoFalseDamageAndNoError() async throws {
    #expect(
      await intake(["import", "--no-renditions"] + (try sources("first", count: 1, size: 4))).status == 0)
    let kept = Set(try jsonLines(await intake(["list", "--json"]).stdout).compactMap { $0["id"] as? String })
    // Two other processes, each importing its folders one `intake import` at a time.
    let processes = try (0..<2).map { worker in
      let folders = try sources("process\(worker)", count: 12, size: 3)
      let process = ChildProcess()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments =
        [
          "-c",
          "for f in \"$@\"; do \"\(intakeExecutable())\" import --library \"\(library)\" --no-renditions "
            + "--wait 120 \"$f\" >/dev/null 2>&1; done",
          "sh",
        ] + folders
      try process.run()
      return process
    }
    // In this process: imports, and a remover taking back what they imported.
    let inProcess = try sources("inprocess", count: 12, size: 3)
    let importer = Task {
      for source in inProcess {
        _ = await intake(["import", "--no-renditions", "--wait", "120", source])
      }
    }
    let stop = Protected(false)
    let remover = Task {
      var removed = 0
      while !stop.current {
        let listed = (try? jsonLines(await intake(["list", "--json"]).stdout)) ?? []
        if let id = listed.compactMap({ $0["id"] as? String }).last(where: { !kept.contains($0) }) {
          if await intake(["remove", id, "--wait", "120"]).status == 0 { removed += 1 }
        }
        try? await Task.sleep(for: .milliseconds(20))
      }
      return removed
    }
    var runs = 0
    var inFlight = 0
    var failures: [String] = []
    while runs < 15 || processes.contains(where: \.isRunning) {
      let verify = await intake(["verify", "--json"])
      runs += 1
      let damaged = verify.json["damaged"] as? [Any] ?? []
      let unreferenced = verify.json["unreferenced"] as? [Any] ?? []
      inFlight += verify.json["interrupted"] as? Int ?? 0
      if verify.status != 0 || !verify.stderr.isEmpty || !damaged.isEmpty || !unreferenced.isEmpty {
        failures.append("run \(runs): exit \(verify.status) \(verify.stdout) \(verify.stderr)")
      }
      if runs >= 200 { break }
    }
    for process in processes { process.waitUntilExit() }
    await importer.value
    stop.withLock { $0 = true }
    let removed = await remover.value
    #expect(
      failures.isEmpty,
      "\(failures.count) of \(runs) verify runs: \(failures.prefix(5).joined(separator: "\n"))")
    #expect(removed > 0)
    print("verify under load: \(runs) runs, \(inFlight) in-flight objects seen, \(removed) removals")
    // And once everything settled, the library is clean.
    let final = await intake(["verify", "--json"])
    #expect(final.status == 0, "\(final.stdout) \(final.stderr)")
  }
}
