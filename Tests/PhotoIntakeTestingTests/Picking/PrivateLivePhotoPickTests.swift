import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

/// A picked Live Photo whose provider registers `com.apple.private.live-photo-bundle` (and not the public bundle
/// type) imports as its still and its movie, linked, rather than silently as a still.
struct PrivateLivePhotoPickTests {
  @Test func thePrivateBundleTypeImportsAsALivePhoto() async throws {
    let directory = TemporaryDirectory()
    let library = try await directory.library()
    let provider = ScriptedProvider(
      registeredTypeIdentifiers: ["public.heic", LivePhotoBundle.privateTypeIdentifier],
      suggestedName: "IMG_7.HEIC",
      behaviour: .folder([
        ("IMG_7.HEIC", Fixtures.heic(seed: "private-still")),
        ("IMG_7.MOV", Fixtures.quickTimeMovie(seed: "private-movie")),
      ]),
      temporaryFolder: directory.at("tmp"))
    let outcome = await PickImport(importer: serialImporter(library)).run([
      PickedResult(assetIdentifier: "P", provider: provider)
    ])
    let report = try #require(outcome.reports.first)
    guard case .imported(let item, let still, let movie) = report.result else {
      Issue.record("not imported: \(report.result)")
      return
    }
    #expect(still.type == .heic)
    #expect(movie?.type == .mov)
    #expect(item.pairedVideo == movie?.id)
    #expect(try await library.count() == 2)
    await library.close()
  }
}
