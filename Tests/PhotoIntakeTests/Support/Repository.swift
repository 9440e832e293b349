import Foundation

/// Files of this repository that the tests read, found from this file's own place in it.
enum Repository {
  /// The package root: this file is `<root>/Tests/PhotoIntakeTests/Support/Repository.swift`.
  static let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
  }()

  /// A path inside the repository.
  static func path(_ relative: String) -> String { root + "/" + relative }
}
