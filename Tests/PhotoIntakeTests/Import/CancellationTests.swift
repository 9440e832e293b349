import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

@Suite struct CancellationTests {
  let folder = TemporaryDirectory()

  @Test func cancellingLeavesNoPartialFilesOrRows() async throws {
    let library = try await Library.open(at: folder.at("library"))
    // Two fast items, then slow ones that are still streaming when the session is cancelled.
    var sources: [any ItemSource] = (0..<2).map { BytesSource(bytes: Fixture.jpeg(seed: UInt64($0))) }
    sources += (2..<6).map {
      BytesSource(
        bytes: Fixture.jpeg(seed: UInt64($0), size: 200_000), chunk: 1000, delayPerChunk: .milliseconds(5))
    }
    var configuration = Importer.Configuration()
    configuration.maximumConcurrentItems = 3
    let session = Importer(library: library, configuration: configuration).start(sources)
    var imported: Set<AssetID> = []
    var sawSlowProgress = false
    for await event in session {
      switch event {
      case .itemFinished(let report):
        if let asset = report.result.asset { imported.insert(asset.id) }
      case .itemProgress(let index, let fraction) where index >= 2 && fraction > 0.05:
        // Once the fast items are acknowledged (on a loaded machine their commits may take longer than the
        // slow items' first 5 %), so that the cancel finds exactly the slow ones still streaming.
        if !sawSlowProgress && imported.count == 2 {
          sawSlowProgress = true
          session.cancel()
        }
      default: break
      }
    }
    let summary = await session.summary()
    #expect(summary.wasCancelled)
    #expect(summary.importedCount == 2)
    #expect(summary.items[2...].allSatisfy { $0.result.error == .cancelled })
    // What was acknowledged stays; what was cancelled left nothing.
    let listed = try await library.all()
    #expect(Set(listed.map(\.id)) == imported)
    #expect(folder.files(under: "library/staging").isEmpty)
    #expect(folder.files(under: "library/objects").count == 2)
    #expect(try await library.verify().isClean)
  }

  @Test func cancellingBeforeStartImportsNothing() async throws {
    let library = try await Library.open(at: folder.at("library"))
    let session = Importer(library: library).start([
      BytesSource(bytes: Fixture.jpeg(seed: 1, size: 100_000), chunk: 100, delayPerChunk: .milliseconds(1))
    ])
    session.cancel()
    let summary = await session.summary()
    #expect(summary.items.map(\.result.error) == [.cancelled])
    #expect(try await library.count() == 0)
    #expect(folder.files(under: "library/staging").isEmpty)
  }
}
