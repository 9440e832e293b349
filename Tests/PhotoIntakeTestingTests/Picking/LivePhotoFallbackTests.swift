import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

/// A picked Live Photo whose bundle fails to load keeps its still, which the provider also registers.
struct LivePhotoFallbackTests {
  static func provider(_ directory: TemporaryDirectory, bundle: ScriptedProvider.Behaviour)
    -> ScriptedProvider
  {
    ScriptedProvider(
      registeredTypeIdentifiers: ["public.heic", SimulatedItemProvider.livePhotoBundleType],
      suggestedName: "IMG_9.HEIC",
      behaviour: .file(Fixtures.heic(seed: "fallback-still"), name: "IMG_9.HEIC"),
      temporaryFolder: directory.at("tmp"),
      byType: [SimulatedItemProvider.livePhotoBundleType: bundle])
  }

  @Test(arguments: [
    // An iCloud download of the bundle that failed.
    ScriptedProvider.Behaviour.error(NSError(domain: NSCocoaErrorDomain, code: 4097)),
    // A bundle folder without a still in it.
    .folder([("IMG_9.MOV", Fixtures.quickTimeMovie(seed: "fallback-movie"))]),
  ])
  func aFailedBundleKeepsTheStill(_ bundle: ScriptedProvider.Behaviour) async throws {
    let directory = TemporaryDirectory()
    let library = try await directory.library()
    let outcome = await PickImport(importer: serialImporter(library)).run([
      PickedResult(assetIdentifier: "L", provider: Self.provider(directory, bundle: bundle))
    ])
    let report = try #require(outcome.reports.first)
    guard case .imported(let item, let still, let movie) = report.result else {
      Issue.record("the photo was lost with its motion: \(report.result)")
      return
    }
    #expect(still.type == .heic)
    #expect(still.size == Int64(Fixtures.heic(seed: "fallback-still").count))
    #expect(movie == nil)
    #expect(item.pairedVideo == nil)
    #expect(try await library.count() == 1)
    #expect(directory.stagingFiles(library).isEmpty)
    await library.close()
  }

  @Test func aProviderWithOnlyTheBundleStillFails() async throws {
    let directory = TemporaryDirectory()
    let library = try await directory.library()
    let provider = ScriptedProvider(
      registeredTypeIdentifiers: [SimulatedItemProvider.livePhotoBundleType], suggestedName: "IMG_9.HEIC",
      behaviour: .error(NSError(domain: NSCocoaErrorDomain, code: 4097)), temporaryFolder: directory.at("tmp")
    )
    let outcome = await PickImport(importer: serialImporter(library)).run([
      PickedResult(assetIdentifier: "L", provider: provider)
    ])
    let report = try #require(outcome.reports.first)
    if case .imported = report.result { Issue.record("imported from nothing") }
    #expect(try await library.count() == 0)
    await library.close()
  }
}
