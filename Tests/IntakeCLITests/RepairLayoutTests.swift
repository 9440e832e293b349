import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Issue 24 item 2, its remainder: a `lost+found` that is not a folder no longer makes every repair fail, and
/// the refusals a repair mends name `intake repair`.
@Suite struct RepairLayoutTests {
  let folder = TemporaryDirectory()
  var library: String { folder.at("library") }

  func intake(_ arguments: [String]) async -> CLIResult {
    await runIntake(arguments + ["--library", library], in: folder.path)
  }

  /// A library of two small photos.
  func makeLibrary() async throws -> [[String: Any]] {
    _ = try folder.write("in/a.png", Fixtures.png(width: 5, height: 5, seed: "layout a"))
    _ = try folder.write("in/b.jpg", Fixtures.jpeg(width: 16, height: 16, seed: "layout b"))
    #expect(await intake(["import", "--no-renditions", folder.at("in")]).status == 0)
    return try jsonLines(await intake(["list", "--json"]).stdout)
  }

  func kind(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
  }

  /// A file, a symbolic link (to a folder outside the library) or a FIFO named `lost+found`: repair renames it
  /// to `lost+found.1` (not followed, not opened, not deleted), makes a real `lost+found/`, and moves into it
  /// what it has to; the next repair and verify are clean.
  @Test(arguments: ["file", "symbolic link", "FIFO"])
  func aLostAndFoundThatIsNotAFolderIsMovedAsideAndRepairWorks(kind planted: String) async throws {
    let listed = try await makeLibrary()
    let outside = folder.at("outside")
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    let expected: mode_t
    switch planted {
    case "file":
      _ = try folder.write("library/lost+found", "not a folder")
      expected = S_IFREG
    case "symbolic link":
      #expect(symlink(outside, library + "/lost+found") == 0)
      expected = S_IFLNK
    default:
      #expect(mkfifo(library + "/lost+found", 0o644) == 0)
      expected = S_IFIFO
    }
    // Something repair has to move aside: an entry of objects/ that is not an object.
    _ = try folder.write("library/objects/stray.txt", "stray")
    let repair = await intake(["repair", "--json"])
    #expect(repair.status == 0, "\(repair.stderr)")
    let moved = repair.json["moved"] as? [[String: Any]] ?? []
    #expect(
      moved.contains { $0["from"] as? String == "lost+found" && $0["to"] as? String == "lost+found.1" },
      "\(repair.stdout)")
    #expect(
      moved.contains {
        $0["from"] as? String == "objects/stray.txt"
          && ($0["to"] as? String)?.hasPrefix("lost+found/") == true
      }, "\(repair.stdout)")
    // Kept as it was, never followed.
    #expect(kind(library + "/lost+found.1") == expected)
    #expect(kind(library + "/lost+found") == S_IFDIR)
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    if planted == "file" { #expect(try folder.read(library + "/lost+found.1") == Array("not a folder".utf8)) }
    if planted == "symbolic link" {
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: library + "/lost+found.1") == outside)
    }
    #expect(
      try jsonLines(await intake(["list", "--json"]).stdout).map { $0["id"] as? String }
        == listed.map { $0["id"] as? String })
    let again = await intake(["repair", "--json"])
    #expect(again.status == 0 && (again.json["moved"] as? [Any])?.isEmpty == true, "\(again.stdout)")
    #expect(await intake(["verify"]).status == 0)
  }

  /// Where an asset's bytes belong there is a symbolic link: `export` refuses, naming `intake repair` (which
  /// moves the link aside and marks the asset).
  @Test func exportOfAnObjectReplacedByALinkNamesRepair() async throws {
    let listed = try await makeLibrary()
    let hash = try #require(listed.first?["sha256"] as? String)
    let id = try #require(listed.first?["id"] as? String)
    let fanOut = library + "/objects/" + hash.prefix(2)
    chmod(fanOut, 0o755)
    _ = try folder.write("elsewhere", "outside bytes")
    #expect(unlink(fanOut + "/" + hash) == 0)
    #expect(symlink(folder.at("elsewhere"), fanOut + "/" + hash) == 0)
    let export = await intake(["export", id, folder.at("out.bin")])
    #expect(export.status != 0)
    #expect(export.stderr.contains("intake repair"), "\(export.stderr)")
    #expect(kind(folder.at("out.bin")) == nil)
  }

  /// The fan-out folder a new photo belongs in is a file: the item is refused as damage, and `import` names
  /// `intake repair`.
  @Test func importIntoAFanOutFolderThatIsAFileNamesRepair() async throws {
    _ = try await makeLibrary()
    let bytes = Fixtures.png(width: 6, height: 6, seed: "layout new")
    let prefix = String(SHA256Digest.of(bytes).hex.prefix(2))
    let fanOut = library + "/objects/" + prefix
    // Folders are made when their first object arrives: this one may be there (empty) or not.
    #expect(rmdir(fanOut) == 0 || errno == ENOENT)
    _ = try folder.write("library/objects/" + prefix, "not a folder")
    _ = try folder.write("more/new.png", bytes)
    let result = await intake(["import", "--no-renditions", folder.at("more")])
    #expect(result.status == 1)
    #expect(result.stderr.contains("intake repair"), "\(result.stderr)")
  }

  func status(_ path: String) -> stat? {
    var info = stat()
    return lstat(path, &info) == 0 ? info : nil
  }

  /// Issue 24 item 5: an object repair adopts that is hard-linked from outside the library gets an inode of its
  /// own, read-only: writing to the outside file afterwards changes nothing stored.
  @Test func anAdoptedObjectHardLinkedFromOutsideGetsItsOwnReadOnlyInode() async throws {
    _ = try await makeLibrary()
    let bytes = Fixtures.jpeg(width: 24, height: 24, seed: "adopted from outside")
    let hash = SHA256Digest.of(bytes).hex
    let outside = try folder.write("outside/photo.jpg", bytes)
    let object = library + "/objects/" + hash.prefix(2) + "/" + hash
    // A fan-out folder is made when its first object arrives: this one may not be there yet.
    _ = mkdir(library + "/objects/" + hash.prefix(2), 0o755)
    #expect(link(outside, object) == 0)
    let repair = await intake(["repair", "--json"])
    #expect(repair.status == 0, "\(repair.stderr)")
    #expect((repair.json["adopted"] as? [Any])?.count == 1, "\(repair.stdout)")
    let stored = try #require(status(object))
    let theirs = try #require(status(outside))
    #expect(stored.st_ino != theirs.st_ino)
    #expect(stored.st_nlink == 1 && theirs.st_nlink == 1)
    #expect(stored.st_mode & 0o777 == 0o444)
    // The outside file is the user's, kept; writing to it no longer reaches the library.
    try Data(Array(repeating: 0x41, count: bytes.count)).write(to: URL(fileURLWithPath: outside))
    #expect(try folder.read(object) == bytes)
    #expect(await intake(["verify"]).status == 0)
    #expect(folder.files(under: "library/staging").isEmpty)
  }

  /// An object restored from its identity record after the manifest's loss that someone hard-linked to outside
  /// (and made writable there) gets its own read-only inode too.
  @Test func aRestoredObjectHardLinkedFromOutsideGetsItsOwnReadOnlyInode() async throws {
    let listed = try await makeLibrary()
    let hash = try #require(listed.first?["sha256"] as? String)
    let object = library + "/objects/" + hash.prefix(2) + "/" + hash
    let bytes = try folder.read(object)
    try FileManager.default.createDirectory(atPath: folder.at("outside"), withIntermediateDirectories: true)
    let outside = folder.at("outside/linked")
    #expect(link(object, outside) == 0)
    #expect(chmod(outside, 0o644) == 0)
    for suffix in ["", "-wal", "-shm"] { unlink(library + "/manifest.sqlite" + suffix) }
    let repair = await intake(["repair", "--json"])
    #expect(repair.status == 0, "\(repair.stderr)")
    #expect((repair.json["restored"] as? [Any])?.count == listed.count, "\(repair.stdout)")
    let stored = try #require(status(object))
    #expect(stored.st_ino != status(outside)?.st_ino)
    #expect(stored.st_mode & 0o777 == 0o444)
    try Data(Array(repeating: 0x42, count: bytes.count)).write(to: URL(fileURLWithPath: outside))
    #expect(try folder.read(object) == bytes)
    #expect(await intake(["verify"]).status == 0)
  }
}
