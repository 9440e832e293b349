import Foundation

/// Files of this repository that the CLI tests read, found from this file's own place in it.
enum Repository {
  /// The package root: this file is `<root>/Tests/IntakeCLITests/Support/Repository.swift`.
  static let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
  }()

  /// A path inside the repository.
  static func path(_ relative: String) -> String { root + "/" + relative }

  /// The sample photos (made by `Scripts/make-samples.sh`).
  static let samples = path("Samples")

  /// PhotoMetadata's fixture files.
  static let metadataFixtures = path("Tests/PhotoMetadataTests/Fixtures")
}

/// The imaging fixtures (made by `Scripts/make-imaging-fixtures.sh`).
enum ImagingFixture {
  static let folder = Repository.path("Tests/PhotoIntakeTests/Fixtures/Imaging")

  static func path(_ name: String) -> String { folder + "/" + name }
}

/// The movie fixtures (made by `Scripts/make-movie-fixtures.sh`).
enum MovieFixture {
  static let folder = Repository.path("Tests/PhotoIntakeTests/Fixtures/Movies")

  static func path(_ name: String) -> String { folder + "/" + name }
}
