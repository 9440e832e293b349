import Foundation

/// A fresh folder under the system temporary directory, removed when the test is done with it.
struct TemporaryFolder {
  let path: String

  init() throws {
    path = NSTemporaryDirectory() + "photointake-audit-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Writes `text` to `relative` inside the folder, creating intermediate folders.
  func write(_ relative: String, _ text: String) throws {
    let url = URL(fileURLWithPath: path + "/" + relative)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs `body` with its own temporary folder and removes the folder afterwards, whatever happens.
func withTemporaryFolder<T>(_ body: (TemporaryFolder) throws -> T) throws -> T {
  let folder = try TemporaryFolder()
  defer { folder.remove() }
  return try body(folder)
}
