import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

struct HandOverTests {
  let directory = TemporaryDirectory()

  func file(_ name: String, _ bytes: [UInt8]) -> String {
    let path = directory.at(name)
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
  }

  @Test func aParkedFileOutlivesTheLendersDeletion() throws {
    let handOver = ReceivedFileHandOver(folder: directory.at("handover"))
    let lent = file("IMG_1.HEIC", Fixtures.heic(seed: "a"))
    let parked = try handOver.park(itemAt: lent)
    try FileManager.default.removeItem(atPath: lent)
    #expect(parked.hasSuffix("/IMG_1.HEIC"))
    #expect(FileManager.default.contents(atPath: parked) == Data(Fixtures.heic(seed: "a")))
    handOver.release(parked)
    #expect(try FileManager.default.contentsOfDirectory(atPath: handOver.folder).isEmpty)
  }

  @Test func aBundleIsParkedAsAFolderOfItsRegularFiles() throws {
    let handOver = ReceivedFileHandOver(folder: directory.at("handover"))
    let bundle = directory.at("Live.pvt")
    try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: bundle + "/a.heic", contents: Data(Fixtures.heic(seed: "s")))
    _ = FileManager.default.createFile(
      atPath: bundle + "/a.mov", contents: Data(Fixtures.quickTimeMovie(seed: "m")))
    try FileManager.default.createSymbolicLink(atPath: bundle + "/link", withDestinationPath: "/etc/passwd")
    let parked = try handOver.park(itemAt: bundle)
    try FileManager.default.removeItem(atPath: bundle)
    #expect(try FileManager.default.contentsOfDirectory(atPath: parked).sorted() == ["a.heic", "a.mov"])
    #expect(try LivePhotoBundle.open(at: parked).movieType == .mov)
    handOver.release(parked)
    #expect(!FileManager.default.fileExists(atPath: parked))
  }

  @Test func linksFifosAndMissingFilesAreRefused() throws {
    let handOver = ReceivedFileHandOver(folder: directory.at("handover"))
    let link = directory.at("link")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/etc/passwd")
    #expect(throws: Importer.Error.notRegularFile(.symbolicLink)) { try handOver.park(itemAt: link) }
    #expect(throws: Importer.Error.sourceVanished) { try handOver.park(itemAt: directory.at("gone")) }
  }

  #if TestHooks  // fault injection exists only in test-hook builds
    @Test func whenLinksAreImpossibleTheFileIsCopied() async throws {
      let handOver = ReceivedFileHandOver(folder: directory.at("handover"))
      let lent = file("a.jpg", Fixtures.jpeg(seed: "copy"))
      let parked = try await FaultInjection([.noHardLinks(scope: .pathContaining("handover"))]).run {
        try handOver.park(itemAt: lent)
      }
      try FileManager.default.removeItem(atPath: lent)
      #expect(FileManager.default.contents(atPath: parked) == Data(Fixtures.jpeg(seed: "copy")))
    }
  #endif

  @Test func sweepingRemovesOnlyOldLeftovers() throws {
    let handOver = ReceivedFileHandOver(folder: directory.at("handover"))
    let old = try handOver.park(itemAt: file("old.jpg", Fixtures.jpeg(seed: "o")))
    let holder = String(old[..<old.lastIndex(of: "/")!])
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: holder)
    let fresh = try handOver.park(itemAt: file("new.jpg", Fixtures.jpeg(seed: "n")))
    #expect(handOver.sweep(olderThan: 3600) == 1)
    #expect(!FileManager.default.fileExists(atPath: old))
    #expect(FileManager.default.fileExists(atPath: fresh))
  }

  @Test func theTransferablePathImportsAndLeavesNothingParked() async throws {
    let handOver = ReceivedFileHandOver(folder: directory.at("handover"))
    let tmp = directory.at("system")
    try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    // What the Apple layer's lend does: the system calls the import closure with a file it deletes right
    // after; the closure parks it; the completion handler gets the parked path.
    let provider = ParkedFileProvider(
      registeredTypeIdentifiers: ["public.heic"], suggestedName: "IMG_7.HEIC", handOver: handOver
    ) { _, progress, completion in
      Task {
        let received = tmp + "/" + UUID().uuidString + ".heic"
        _ = FileManager.default.createFile(atPath: received, contents: Data(Fixtures.heic(seed: "t")))
        let parked = Result { try handOver.park(itemAt: received) }
        try? FileManager.default.removeItem(atPath: received)
        progress(1)
        completion(parked.mapError { $0 as any Error })
      }
      return NoLoad()
    }
    let library = try await directory.library()
    let summary = await Importer(library: library).importItems([ProviderItemSource(provider: provider)])
    #expect(summary.items[0].result.asset?.type == .heic)
    #expect(summary.items[0].result.asset?.name == "IMG_7.HEIC")
    #expect(try FileManager.default.contentsOfDirectory(atPath: handOver.folder).isEmpty)
    await library.close()
  }

  @Test func aLendingErrorReachesTheImportMapped() async throws {
    let provider = ParkedFileProvider(registeredTypeIdentifiers: ["public.jpeg"], suggestedName: nil) {
      _, _, completion in
      completion(.failure(NSError(domain: "PHPhotosErrorDomain", code: 3164)))
      return NoLoad()
    }
    let library = try await directory.library()
    let summary = await Importer(library: library).importItems([ProviderItemSource(provider: provider)])
    #expect(summary.items[0].result.error == .networkRequired)
    await library.close()
  }

  @Test func capturedBytesAreImportedInChunksWithProgress() async throws {
    let library = try await directory.library()
    let captured = Fixtures.jpeg(width: 64, height: 64, seed: "capture")
    var source = DataItemSource(Data(captured), suggestedName: "Capture.jpg", typeHints: ["public.jpeg"])
    source.chunkSize = 100
    var fractions: [Double] = []
    let session = serialImporter(library).start([source])
    for await event in session {
      if case .itemProgress(_, let fraction) = event { fractions.append(fraction) }
    }
    let asset = try #require(await session.summary().items[0].result.asset)
    #expect(asset.type == .jpeg)
    #expect(bytes(of: asset, in: library) == captured)
    #expect(fractions.last == 1)
    #expect(fractions.count > 1)
    await library.close()
  }

  @Test func emptyCapturesAreRefused() async throws {
    let library = try await directory.library()
    let summary = await Importer(library: library).importItems([DataItemSource(Data())])
    #expect(summary.items[0].result.error == .emptyFile)
    await library.close()
  }
}

struct NoLoad: FileRepresentationLoad {
  func cancel() {}
}
