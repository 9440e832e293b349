import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

#if TestHooks  // fault injection exists only in test-hook builds; the tests run as root, where chmod denies nothing
  /// Issue 24 item 4, its unreadable part: a fan-out folder that cannot be opened (EACCES injected on every open
  /// under it) is one reported item of `verify` and `repair`, never the end of them, and nothing in it is marked
  /// damaged; `export` of an asset in it says its bytes could not be read, never that they changed.
  @Suite struct VerifyUnreadableFolderTests {
    let folder = TemporaryDirectory()
    var library: String { folder.at("library") }

    func intake(_ arguments: [String], faults: FaultInjector? = nil) async -> CLIResult {
      await Syscalls.injectedFaults.withValue(faults) {
        await runIntake(arguments + ["--library", library], in: folder.path)
      }
    }

    @Test func anUnreadableFanOutFolderIsOneReportedItem() async throws {
      for index in 0..<8 {
        _ = try folder.write(
          "in/\(index).png", Fixtures.png(width: 3 + index, height: 4, seed: "unreadable \(index)"))
      }
      #expect(await intake(["import", "--no-renditions", folder.at("in")]).status == 0)
      let listed = try jsonLines(await intake(["list", "--json"]).stdout)
      let victim = try #require(listed.first)
      let id = try #require(victim["id"] as? String)
      let prefix = try #require((victim["sha256"] as? String)?.prefix(2))
      let inFolder = listed.filter { ($0["sha256"] as? String)?.hasPrefix(prefix) == true }.count
      let faults = FaultInjector([.init(.open, pathContains: "/objects/\(prefix)", code: EACCES)])

      let verify = await intake(["verify", "--json"], faults: faults)
      #expect(verify.status == 1, "\(verify.stderr)")
      #expect(verify.json["unreadable"] as? [String] == ["objects/\(prefix)"], "\(verify.stdout)")
      #expect((verify.json["damaged"] as? [Any])?.isEmpty == true, "\(verify.stdout)")
      #expect(verify.json["checked"] as? Int == listed.count - inFolder)

      let repair = await intake(["repair", "--json"], faults: faults)
      #expect(repair.status == 0, "\(repair.stderr)")
      #expect(repair.json["unreadable"] as? [String] == ["objects/\(prefix)"], "\(repair.stdout)")
      #expect((repair.json["damaged"] as? [Any])?.isEmpty == true, "\(repair.stdout)")
      #expect((repair.json["moved"] as? [Any])?.isEmpty == true, "\(repair.stdout)")

      let export = await intake(["export", id, folder.at("out.png")], faults: faults)
      #expect(export.status == 1)
      #expect(export.stderr.contains("could not be read"), "\(export.stderr)")
      #expect(!export.stderr.contains("no longer match"), "\(export.stderr)")

      // Readable again: nothing was marked, moved or lost.
      let after = await intake(["verify", "--json"])
      #expect(after.status == 0, "\(after.stdout)")
      #expect(after.json["checked"] as? Int == listed.count)
      #expect(await intake(["export", id, folder.at("out.png")]).status == 0)
    }
  }
#endif
