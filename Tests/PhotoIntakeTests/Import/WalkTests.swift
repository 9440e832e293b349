import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

/// What walking folders meets in the wild: names that are not UTF-8, folders too deep or unreadable. Each
/// becomes an imported item or a failed item with a sentence; nothing is skipped without a word.
@Suite struct WalkTests {
  let folder = TemporaryDirectory()

  /// Creates a file whose name holds raw bytes (here Latin-1 "café.jpg", not UTF-8).
  func makeLatin1File(_ bytes: [UInt8]) throws -> [UInt8] {
    let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)
    let path = Array(folder.at("in").utf8) + [UInt8(ascii: "/")] + name
    try FileManager.default.createDirectory(atPath: folder.at("in"), withIntermediateDirectories: true)
    let descriptor = (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
      open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    }
    #expect(descriptor >= 0)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    return name
  }

  @Test func aFileNameThatIsNotUTF8IsImportedWithItsBytesEscaped() async throws {
    let bytes = Fixture.jpeg(seed: 3)
    _ = try makeLatin1File(bytes)
    let sources = FileItemSource.walk([folder.at("in")])
    #expect(sources.map(\.path) == [folder.at("in") + "/caf\\xE9.jpg"])
    #expect(sources.map(\.suggestedName) == ["caf%E9.jpg"])
    let library = try await Library.open(at: folder.at("library"))
    let summary = await Importer(library: library).importItems(sources)
    let asset = try #require(summary.items.first?.result.asset, "\(summary.items)")
    #expect(asset.name == "caf%E9.jpg")
    #expect(asset.sha256 == SHA256Digest.of(bytes))
  }

  @Test func foldersTooDeepAreReportedNotSkipped() async throws {
    var path = "in"
    for level in 0..<(FileItemSource.maximumDepth + 2) { path += "/d\(level)" }
    _ = try folder.write(path + "/deep.jpg", Fixture.jpeg(seed: 4))
    _ = try folder.write("in/top.jpg", Fixture.jpeg(seed: 5))
    let sources = FileItemSource.walk([folder.at("in")])
    let library = try await Library.open(at: folder.at("library"))
    let summary = await Importer(library: library).importItems(sources)
    #expect(summary.importedCount == 1)
    #expect(summary.items.compactMap(\.result.error) == [.folderTooDeep(limit: FileItemSource.maximumDepth)])
  }

  #if TestHooks  // fault injection exists only in test-hook builds
    @Test func unreadableFoldersAreReportedNotSkipped() async throws {
      _ = try folder.write("in/locked/a.jpg", Fixture.jpeg(seed: 6))
      _ = try folder.write("in/open/b.jpg", Fixture.jpeg(seed: 7))
      // Root reads every folder whatever its mode, so the refusal is injected where the walk opens it.
      let faults = FaultInjector([.init(.open, pathContains: "/locked", code: EACCES)])
      let sources = Syscalls.injectedFaults.withValue(faults) { FileItemSource.walk([folder.at("in")]) }
      let library = try await Library.open(at: folder.at("library"))
      let summary = await Importer(library: library).importItems(sources)
      #expect(summary.importedCount == 1)
      #expect(summary.items.compactMap(\.result.error) == [.permissionDenied])
    }
  #endif
}
