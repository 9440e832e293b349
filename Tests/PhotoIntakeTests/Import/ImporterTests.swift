import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

@Suite struct ImporterTests {
  let folder = TemporaryDirectory()

  func openLibrary(_ configuration: Library.Configuration = .init()) async throws -> Library {
    try await Library.open(at: folder.at("library"), configuration: configuration)
  }

  @Test func keepsTheUsersOrderWhateverFinishesFirst() async throws {
    let library = try await openLibrary()
    // Later items are faster, so they finish first; positions must still follow the given order.
    let sources: [any ItemSource] = (0..<8).map { index in
      BytesSource(
        bytes: Fixture.jpeg(seed: UInt64(index), size: 8192), suggestedName: "photo-\(index).jpg",
        chunk: 1024, delayPerChunk: .milliseconds(8 - index))
    }
    var configuration = Importer.Configuration()
    configuration.maximumConcurrentItems = 4
    let summary = await Importer(library: library, configuration: configuration).importItems(sources)
    #expect(summary.importedCount == 8)
    #expect(summary.items.map(\.index) == Array(0..<8))
    let listed = try await library.all(order: .batch)
    #expect(listed.map(\.name) == (0..<8).map { "photo-\($0).jpg" })
    #expect(listed.map(\.position) == Array(0..<8))
  }

  @Test func theFirstOfTwoCopiesInTheUsersOrderIsTheOneImported() async throws {
    let library = try await openLibrary()
    let bytes = Fixture.jpeg(seed: 7, size: 8192)
    // The first copy arrives slowly: the second copy (two items later) is received long before it.
    let sources: [any ItemSource] = [
      BytesSource(bytes: bytes, suggestedName: "a.jpg", delayPerChunk: .milliseconds(40)),
      BytesSource(bytes: Fixture.jpeg(seed: 8, size: 8192), suggestedName: "b.jpg"),
      BytesSource(bytes: bytes, suggestedName: "copy-of-a.jpg"),
    ]
    var configuration = Importer.Configuration()
    configuration.maximumConcurrentItems = 2
    let summary = await Importer(library: library, configuration: configuration).importItems(sources)
    let statuses = summary.items.map { report -> String in
      switch report.result {
      case .imported: "imported"
      case .duplicate: "duplicate"
      case .failed: "failed"
      }
    }
    #expect(statuses == ["imported", "imported", "duplicate"])
    let listed = try await library.all(order: .batch)
    #expect(listed.map(\.name) == ["a.jpg", "b.jpg", "a.jpg"])
  }

  @Test func sameBytesTwiceAreOneObjectListedInBothBatches() async throws {
    let library = try await openLibrary()
    let importer = Importer(library: library)
    let bytes = Fixture.jpeg(seed: 42)
    let first = await importer.importItems([
      BytesSource(bytes: bytes, suggestedName: "a.jpg"), BytesSource(bytes: bytes, suggestedName: "b.jpg"),
    ])
    let second = await importer.importItems([BytesSource(bytes: bytes, suggestedName: "c.jpg")])
    #expect(first.importedCount == 1 && first.duplicateCount == 1)
    #expect(second.duplicateCount == 1)
    let id = try #require(first.items[0].result.asset?.id)
    #expect(first.items[1].result.asset?.id == id)
    #expect(second.items[0].result.asset?.id == id)
    #expect(try await library.count() == 1)
    #expect(
      folder.files(under: "library/objects") == [
        "\(SHA256Digest.of(bytes).hex.prefix(2))/\(SHA256Digest.of(bytes).hex)"
      ])
    let listed = try await library.all(order: .batch)
    #expect(listed.count == 3)
    #expect(Set(listed.map(\.batch)) == [try #require(first.batch), try #require(second.batch)])
    #expect(Set(listed.map(\.id)) == [id])
  }

  @Test func storesBytesExactlyAndNamesThemByHash() async throws {
    let library = try await openLibrary()
    let bytes = Fixture.jpeg(seed: 7, size: 3_000_001)  // several chunks, odd size
    let summary = await Importer(library: library).importItems([BytesSource(bytes: bytes, chunk: 65_537)])
    let asset = try #require(summary.items[0].result.asset)
    #expect(asset.sha256 == SHA256Digest.of(bytes))
    #expect(asset.size == Int64(bytes.count))
    let stored = try Data(contentsOf: URL(fileURLWithPath: library.objectPath(for: asset)))
    #expect(Array(stored) == bytes)
  }

  @Test(
    arguments: [
      ("../../../etc/evil.jpg", "evil.jpg"),
      ("..", nil),
      ("/absolute/path/x.png", "x.png"),
      ("C:\\Users\\me\\IMG_1.HEIC", "IMG_1.HEIC"),
      (".hidden.jpg", "hidden.jpg"),
      ("tab\there\u{0}.jpg", "tabhere.jpg"),
      ("  spaced.jpg  ", "spaced.jpg"),
      ("", nil),
    ] as [(String, String?)])
  func namesAreSanitizedAndNeverUsedAsPaths(_ suggested: String, _ expected: String?) async throws {
    let library = try await openLibrary()
    let summary = await Importer(library: library).importItems([
      BytesSource(bytes: Fixture.jpeg(seed: 1), suggestedName: suggested)
    ])
    let asset = try #require(summary.items[0].result.asset)
    #expect(asset.name == expected)
    // Nothing but the library's own layout was written.
    #expect(folder.files(under: "").allSatisfy { $0.hasPrefix("library/") })
  }

  @Test func longNamesAreCutKeepingTheExtension() {
    let name = String(repeating: "é", count: 300) + ".jpeg"
    let sanitized = try! #require(NameSanitizer.sanitize(name))
    #expect(sanitized.utf8.count <= 255)
    #expect(sanitized.hasSuffix(".jpeg"))
  }

  @Test func aMismatchedNameIsReportedAndTheBytesWin() async throws {
    let library = try await openLibrary()
    let summary = await Importer(library: library).importItems([
      BytesSource(bytes: Fixture.png(seed: 3), suggestedName: "holiday.jpg", typeHints: ["public.jpeg"])
    ])
    let report = summary.items[0]
    #expect(report.result.asset?.type == .png)
    #expect(report.typeHintMismatch == TypeHintMismatch(hint: "public.jpeg", detected: .png))
  }

  @Test func oneBadItemNeverFailsTheBatch() async throws {
    let library = try await openLibrary()
    let sources: [any ItemSource] = [
      BytesSource(bytes: Fixture.jpeg(seed: 1)),
      BytesSource(bytes: Array("just text, named like a photo".utf8), suggestedName: "x.jpg"),
      FailingSource(error: .networkRequired),
      BytesSource(bytes: []),
      BytesSource(bytes: Fixture.jpeg(seed: 2)),
    ]
    let summary = await Importer(library: library).importItems(sources)
    #expect(
      summary.items.map(\.result.error) == [
        nil, .unsupportedContent(hint: "jpg"), .networkRequired, .emptyFile, nil,
      ])
    #expect(try await library.count() == 2)
    #expect(folder.files(under: "library/staging").isEmpty)
  }

  @Test func itemsOverTheSizeCapAreRefused() async throws {
    let library = try await openLibrary()
    var configuration = Importer.Configuration()
    configuration.maximumFileSize = 10_000
    let file = try folder.write("big.jpg", Fixture.jpeg(seed: 9, size: 10_001))
    let summary = await Importer(library: library, configuration: configuration).importItems([
      FileItemSource(path: file), BytesSource(bytes: Fixture.jpeg(seed: 9, size: 10_001)),
      BytesSource(bytes: Fixture.jpeg(seed: 10, size: 10_000)),
    ])
    #expect(summary.items.map(\.result.error) == [.tooLarge(limit: 10_000), .tooLarge(limit: 10_000), nil])
    #expect(folder.files(under: "library/staging").isEmpty)
  }

  #if TestHooks  // fault injection exists only in test-hook builds
    /// With hard links (the usual case), and without them (another volume), when adopting falls back to a copy.
    @Test(arguments: [false, true])
    func aScopedFileIsAdoptedBeforeItsOwnerDeletesIt(linksRefused: Bool) async throws {
      let library = try await openLibrary()
      try FileManager.default.createDirectory(
        atPath: folder.at("provider"), withIntermediateDirectories: true)
      let bytes = Fixture.jpeg(seed: 77, size: 100_000)
      let faults = FaultInjection(linksRefused ? [.noHardLinks(scope: .staging)] : [])
      let summary = await faults.run {
        await Importer(library: library).importItems([
          ScopedFileSource(bytes: bytes, temporaryFolder: folder.at("provider"))
        ])
      }
      if linksRefused { #expect(faults.firedCount(0) == 1) }
      let asset = try #require(summary.items[0].result.asset)
      #expect(folder.files(under: "provider").isEmpty)  // the provider's file is gone…
      let stored = try Data(contentsOf: URL(fileURLWithPath: library.objectPath(for: asset)))
      #expect(Array(stored) == bytes)  // …and the library still has every byte.
    }
  #endif

  @Test func eventsArriveInAUsefulOrder() async throws {
    let library = try await openLibrary()
    let session = Importer(library: library).start([
      BytesSource(bytes: Fixture.jpeg(seed: 1, size: 50_000), chunk: 1000),
      BytesSource(bytes: Fixture.jpeg(seed: 2, size: 50_000), chunk: 1000),
    ])
    var events: [ImportEvent] = []
    for await event in session { events.append(event) }
    guard case .started(_, let count) = events.first else {
      Issue.record("first event is not .started")
      return
    }
    #expect(count == 2)
    guard case .finished(let summary) = events.last else {
      Issue.record("last event is not .finished")
      return
    }
    #expect(summary.importedCount == 2)
    let overall = events.compactMap { if case .progress(let p) = $0 { p.fraction } else { nil } }
    #expect(overall == overall.sorted())
    #expect(overall.last == 1)
    let itemProgress = events.compactMap { if case .itemProgress(0, let f) = $0 { f } else { nil } }
    #expect(itemProgress.count > 10)
    #expect(itemProgress == itemProgress.sorted())
    // An item's result comes after all of its progress.
    let finishedAt = events.firstIndex { if case .itemFinished(let r) = $0 { r.index == 0 } else { false } }!
    let lastProgressAt = events.lastIndex { if case .itemProgress(0, _) = $0 { true } else { false } }!
    #expect(lastProgressAt < finishedAt)
  }
}
