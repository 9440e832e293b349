import Foundation
import PhotoIntake
import PhotoIntakeTesting

/// The simulator's item provider behind the portable provider protocol, as `PhotoIntakeUI` wraps
/// `NSItemProvider`: errors reach the import as `NSError`s with their underlying errors under
/// `NSUnderlyingErrorKey`, the way `NSItemProvider` reports them.
struct SimulatedProviderAdapter: FileRepresentationProviding {
  let provider: SimulatedItemProvider

  var registeredTypeIdentifiers: [String] { provider.registeredTypeIdentifiers }
  var suggestedName: String? { provider.suggestedName }

  func loadFileRepresentation(
    forTypeIdentifier typeIdentifier: String, progress: @escaping @Sendable (Double) -> Void,
    completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void
  ) -> any FileRepresentationLoad {
    let load = provider.loadFileRepresentation(forTypeIdentifier: typeIdentifier) { url, error in
      completionHandler(url, error.map(Self.nsError))
    }
    load.observe(progress)
    return SimulatedLoad(progress: load)
  }

  /// A `ProviderError` as the `NSError` chain it stands for.
  static func nsError(_ error: any Error) -> NSError {
    guard let error = error as? ProviderError else { return error as NSError }
    var underlying: NSError?
    for code in error.underlying.reversed() {
      underlying = NSError(
        domain: code.domain, code: code.code,
        userInfo: underlying.map { [NSUnderlyingErrorKey: $0] } ?? [:])
    }
    var info: [String: Any] = [NSLocalizedDescriptionKey: error.reason]
    if let underlying { info[NSUnderlyingErrorKey] = underlying }
    return NSError(domain: error.domain, code: error.code, userInfo: info)
  }
}

struct SimulatedLoad: FileRepresentationLoad {
  let progress: SimulatedProgress
  func cancel() { progress.cancel() }
}

extension SimulatedPickerResult {
  /// The result as the Apple layer hands it to ``PickImport``.
  var picked: PickedResult {
    PickedResult(assetIdentifier: assetIdentifier, provider: SimulatedProviderAdapter(provider: itemProvider))
  }
}

/// A provider scripted by the test: what it registers, and what its load does.
struct ScriptedProvider: FileRepresentationProviding {
  enum Behaviour: Sendable {
    /// Calls back with a file holding these bytes, deleted when the handler returns.
    case file([UInt8], name: String)
    /// Calls back with this error.
    case error(NSError)
    /// Never calls back, even when cancelled (a provider that misbehaves).
    case silent
    /// Calls back with a folder holding these files (name, bytes), deleted when the handler returns.
    case folder([(String, [UInt8])])
  }

  var registeredTypeIdentifiers: [String]
  var suggestedName: String?
  var behaviour: Behaviour
  /// Where temporary files are written.
  var temporaryFolder: String
  /// What the load of these types does instead of `behaviour`.
  var byType: [String: Behaviour] = [:]
  /// Paths the provider deleted after its handler returned.
  let expired = Protected<[String]>([])
  let cancelled = Protected(false)
  /// Whether a load was asked for.
  let asked = Protected(false)
  /// True while this thread runs a provider's completion handler, as NSItemProvider runs it: the file
  /// exists until the handler returns.
  @TaskLocal static var insideHandler = false

  func loadFileRepresentation(
    forTypeIdentifier typeIdentifier: String, progress: @escaping @Sendable (Double) -> Void,
    completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void
  ) -> any FileRepresentationLoad {
    asked.withLock { $0 = true }
    let behaviour = byType[typeIdentifier] ?? behaviour
    let folder = temporaryFolder + "/" + UUID().uuidString
    let expired = expired
    Task {
      let files = FileManager.default
      try? files.createDirectory(atPath: folder, withIntermediateDirectories: true)
      switch behaviour {
      case .file(let bytes, let name):
        let path = folder + "/" + name
        _ = files.createFile(atPath: path, contents: Data(bytes))
        progress(0.5)
        progress(1)
        Self.$insideHandler.withValue(true) { completionHandler(URL(fileURLWithPath: path), nil) }
        try? files.removeItem(atPath: folder)
        expired.withLock { $0.append(path) }
      case .folder(let entries):
        let bundle = folder + "/Live.pvt"
        try? files.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        for (name, bytes) in entries {
          _ = files.createFile(atPath: bundle + "/" + name, contents: Data(bytes))
        }
        completionHandler(URL(fileURLWithPath: bundle), nil)
        try? files.removeItem(atPath: folder)
        expired.withLock { $0.append(bundle) }
      case .error(let error):
        completionHandler(nil, error)
      case .silent:
        break
      }
    }
    return ScriptedLoad(cancelled: cancelled)
  }
}

struct ScriptedLoad: FileRepresentationLoad {
  let cancelled: Protected<Bool>
  func cancel() { cancelled.withLock { $0 = true } }
}
