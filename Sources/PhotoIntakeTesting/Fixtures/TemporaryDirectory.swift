import Foundation

/// A fresh folder per test, deleted when the value goes away.
///
/// ```swift
/// let folder = TemporaryDirectory()
/// let library = try await Library.open(at: folder.at("library"))
/// ```
public final class TemporaryDirectory: Sendable {
  /// The folder's absolute path.
  public let path: String

  /// Creates the folder under the system temporary directory; `label` (default: the calling function) is
  /// part of its name, to find it when a test leaves it behind.
  ///
  /// - Parameter inMemory: make it in `/dev/shm` when the system has one. Every library a test opens fsyncs
  ///   its files, folders and manifest; on a busy shared disk those flushes, not the code under test, decide
  ///   how long a suite takes. Tests about durability keep the default, a real disk.
  public init(_ label: String = #function, inMemory: Bool = false) {
    let safe = label.filter { $0.isLetter || $0.isNumber }.prefix(40)
    let ram = "/dev/shm/"
    let base = inMemory && access(ram, W_OK) == 0 ? ram : NSTemporaryDirectory()
    var bytes = Array((base + "photointake-\(safe)-XXXXXX").utf8CString)
    let made = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(made != nil, "mkdtemp failed: \(errno)")
    path = String(cString: bytes.withUnsafeBufferPointer { $0.baseAddress! })
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// A path inside the folder.
  public func at(_ relative: String) -> String { path + "/" + relative }

  /// Writes `bytes` to `relative`, creating folders.
  @discardableResult
  public func write(_ relative: String, _ bytes: [UInt8]) throws -> String {
    let target = at(relative)
    try FileManager.default.createDirectory(
      atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: target))
    return target
  }

  /// Writes `text` as UTF-8 to `relative`, creating folders.
  @discardableResult
  public func write(_ relative: String, _ text: String) throws -> String {
    try write(relative, Array(text.utf8))
  }

  /// Names of the files (not folders) under `relative`, recursively, sorted.
  public func files(under relative: String) -> [String] {
    let root = at(relative)
    guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
    var result: [String] = []
    while let name = enumerator.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        result.append(name)
      }
    }
    return result.sorted()
  }
}
