import Foundation
import PhotoIntake

/// The representations of one picked asset, like the `NSItemProvider` of a `PHPickerResult`.
///
/// ``loadFileRepresentation(forTypeIdentifier:completionHandler:)`` writes the representation to a temporary
/// file, calls the completion handler with its URL, and **deletes the file when the handler returns**, as
/// `NSItemProvider` does. Anything the app wants to keep must be copied or linked inside the handler. iCloud-only
/// assets are downloaded first, with progress, latency and the device's injected failures; the picker needs
/// no library authorization for any of this.
public final class SimulatedItemProvider: Sendable {
  /// The type of a Live Photo bundle (the still and its movie in one folder).
  public static let livePhotoBundleType = "com.apple.live-photo-bundle"

  private let device: SimulatedPhotoLibrary?
  private let localIdentifier: String?
  private let mode: SimulatedPickerConfiguration.AssetRepresentationMode
  /// The registered types, best first.
  public let registeredTypeIdentifiers: [String]
  /// The asset's file name, like `NSItemProvider.suggestedName`.
  public let suggestedName: String?

  /// A provider with nothing registered: what a preselected result that stayed selected carries.
  public static let empty = SimulatedItemProvider()

  private init() {
    device = nil
    localIdentifier = nil
    mode = .current
    registeredTypeIdentifiers = []
    suggestedName = nil
  }

  init(
    device: SimulatedPhotoLibrary, localIdentifier: String,
    mode: SimulatedPickerConfiguration.AssetRepresentationMode
  ) {
    self.device = device
    self.localIdentifier = localIdentifier
    self.mode = mode
    let stored = device.state.withLock { $0.assets[localIdentifier] }
    var types: [String] = []
    if let stored {
      let original = stored.original.typeIdentifier
      let compatible = stored.compatible?.typeIdentifier
      switch mode {
      case .current, .automatic:
        types = [original] + (compatible.map { [$0] } ?? [])
      case .compatible:
        types = [compatible ?? original]
      }
      if stored.pairedVideo != nil { types.append(Self.livePhotoBundleType) }
    }
    registeredTypeIdentifiers = types
    let stem = stored.map { String($0.asset.filename.split(separator: ".").first ?? "") }
    let chosen = types.first.map { SimulatedPhotoLibrary.fileExtension($0) }
    suggestedName = stem.flatMap { stem in chosen.map { "\(stem).\($0)" } }
  }

  /// Whether a registered type is, or conforms to, `typeIdentifier` (`public.image` matches `public.heic`).
  public func hasItemConformingToTypeIdentifier(_ typeIdentifier: String) -> Bool {
    registeredTypeIdentifiers.contains { Self.conforms($0, to: typeIdentifier) }
  }

  /// Loads a representation into a temporary file, like
  /// `NSItemProvider.loadFileRepresentation(forTypeIdentifier:completionHandler:)`.
  ///
  /// The handler runs once, on a task of the simulator, with a file URL or an error (a ``ProviderError``). The
  /// file is deleted as soon as the handler returns.
  @discardableResult
  public func loadFileRepresentation(
    forTypeIdentifier typeIdentifier: String,
    completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void
  ) -> SimulatedProgress {
    loadFileRepresentation(
      forTypeIdentifier: typeIdentifier, completionHandler: completionHandler, afterward: {})
  }

  /// ``loadFileRepresentation(forTypeIdentifier:completionHandler:)``, then `afterward` once the handler has
  /// returned and its file is deleted.
  private func loadFileRepresentation(
    forTypeIdentifier typeIdentifier: String,
    completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void,
    afterward: @escaping @Sendable () -> Void
  ) -> SimulatedProgress {
    let progress = SimulatedProgress()
    guard let device, let localIdentifier,
      let type = registeredTypeIdentifiers.first(where: { Self.conforms($0, to: typeIdentifier) })
    else {
      Task {
        completionHandler(nil, ProviderError.coercionUnavailable(typeIdentifier))
        afterward()
      }
      return progress
    }
    let representation: SimulatedPhotoLibrary.Representation
    if type == Self.livePhotoBundleType {
      representation = .pairedVideo
    } else if type == registeredTypeIdentifiers.first, mode != .compatible {
      representation = .original
    } else {
      representation = .compatible
    }
    Task {
      defer { afterward() }
      do throws(ProviderError) {
        let resource = try await device.read(
          localIdentifier, representation, by: .picker, networkAccessAllowed: true,
          progress: { progress.update($0) }, isCancelled: { progress.isCancelled })
        let still =
          type == Self.livePhotoBundleType
          ? try await device.read(
            localIdentifier, .original, by: .picker, networkAccessAllowed: true, progress: { _ in },
            isCancelled: { progress.isCancelled }) : nil
        guard let path = device.writeTemporaryFile(resource, still: still) else {
          throw .itemUnavailable("the temporary file could not be written")
        }
        completionHandler(URL(fileURLWithPath: path), nil)
        // NSItemProvider deletes the file when the completion handler returns.
        device.deleteTemporaryFile(path)
      } catch {
        completionHandler(nil, error.wrappedByItemProvider)
      }
    }
    return progress
  }

  /// Runs `body` with the representation's file, which exists only while `body` runs.
  ///
  /// It returns once the handler has returned and the file is deleted, so a caller that kept the URL finds it
  /// gone at once, as it would on a device some moments later (resuming inside the handler let the caller look
  /// before the deletion, and see the file).
  public func withFileRepresentation<Result: Sendable>(
    forTypeIdentifier typeIdentifier: String, _ body: @escaping @Sendable (URL) throws -> Result
  ) async throws -> Result {
    let outcome = Protected<Swift.Result<Result, any Error>?>(nil)
    return try await withCheckedThrowingContinuation { continuation in
      _ = loadFileRepresentation(
        forTypeIdentifier: typeIdentifier,
        completionHandler: { url, error in
          let result: Swift.Result<Result, any Error> =
            if let url {
              Swift.Result { try body(url) }
            } else {
              .failure(error ?? ProviderError.itemUnavailable("no file"))
            }
          outcome.withLock { $0 = result }
        },
        afterward: {
          continuation.resume(with: outcome.current ?? .failure(ProviderError.itemUnavailable("no file")))
        })
    }
  }

  /// Uniform Type Identifier conformance for the types the simulator registers.
  static func conforms(_ type: String, to wanted: String) -> Bool {
    if type == wanted || wanted == "public.item" || wanted == "public.data" { return true }
    let images = [
      "public.heic", "public.heif", "public.jpeg", "public.png", "public.tiff", "com.compuserve.gif",
    ]
    let movies = ["com.apple.quicktime-movie", "public.mpeg-4"]
    switch wanted {
    case "public.image": return images.contains(type)
    case "public.movie", "public.audiovisual-content": return movies.contains(type)
    case "com.apple.live-photo": return type == livePhotoBundleType
    default: return false
    }
  }
}

extension SimulatedPhotoLibrary {
  /// Writes a representation to a new temporary file (or, for a Live Photo bundle, a folder with the still
  /// and the movie); returns its path, or nil when the temporary folder cannot be written.
  func writeTemporaryFile(_ resource: SimulatedResource, still: SimulatedResource?) -> String? {
    let number = state.withLock { state -> Int in
      state.temporaryCounter += 1
      return state.temporaryCounter
    }
    let files = FileManager.default
    let folder = "\(configuration.temporaryDirectory)/\(number)"
    guard (try? files.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else {
      return nil
    }
    if let still {
      let stem = still.filename.split(separator: ".").first.map(String.init) ?? "Live"
      let bundle = folder + "/" + stem + ".pvt"
      guard (try? files.createDirectory(atPath: bundle, withIntermediateDirectories: false)) != nil,
        files.createFile(atPath: bundle + "/" + still.filename, contents: Data(still.bytes)),
        files.createFile(atPath: bundle + "/" + resource.filename, contents: Data(resource.bytes))
      else { return nil }
      return bundle
    }
    let path = folder + "/" + resource.filename
    return files.createFile(atPath: path, contents: Data(resource.bytes)) ? path : nil
  }

  /// Deletes a file handed to a completion handler, and remembers that it expired.
  func deleteTemporaryFile(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    try? FileManager.default.removeItem(atPath: folder)
    state.withLock { $0.expiredFiles.append(path) }
  }
}
