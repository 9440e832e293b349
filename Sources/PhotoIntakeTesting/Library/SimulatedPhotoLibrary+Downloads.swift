import PhotoIntake

extension SimulatedPhotoLibrary {
  /// A failure to inject into iCloud downloads.
  public enum DownloadFailure: Sendable, Hashable {
    /// The network goes away (`PHPhotosError.networkError`, 3169, around `NSURLErrorDomain` -1009).
    case networkRequired
    /// iCloud refuses the download although the network is there (3169 around `CloudPhotoLibraryErrorDomain`
    /// 1000 around `CKErrorDomain` 6, service unavailable).
    case iCloudUnavailable
    /// iCloud cannot provide the asset (`NSItemProvider` "item unavailable", -1000).
    case itemUnavailable
    /// The device fills up (`PHPhotosError.notEnoughSpace`, 3305).
    case diskFull
  }

  /// Whether iCloud serves this device's downloads (``SimulatedUser/setICloud(_:)``). Only downloads of
  /// iCloud-only assets notice; with the network off, the device is offline whatever this says.
  public enum ICloudStatus: Sendable, Hashable {
    /// Signed in, iCloud Photos on and answering.
    case available
    /// The Apple Account is signed out or needs its password again: downloads fail with iCloud Photos'
    /// "Failed to download CPLResourceTypeOriginal" (`CloudPhotoLibraryErrorDomain` 1006) around CloudKit's
    /// `notAuthenticated` (9), as apps in the field log it.
    case notAuthenticated
    /// iCloud refuses for now (an outage, rate limiting): `PHPhotosError.networkError` (3169) around
    /// `CloudPhotoLibraryErrorDomain` 1000 around CloudKit's `serviceUnavailable` (6).
    case serviceUnavailable

    var error: ProviderError? {
      switch self {
      case .available: nil
      case .notAuthenticated: .iCloudNotAuthenticated
      case .serviceUnavailable: .iCloudServiceUnavailable
      }
    }
  }

  /// Which representation of an asset to read.
  enum Representation: Sendable {
    case original, compatible, pairedVideo
  }

  /// Who reads: the out-of-process picker (no authorization needed) or the app through the library (its access
  /// is checked before and during the download).
  enum Reader: Sendable {
    case picker, library
  }

  /// Makes the next downloads fail.
  ///
  /// - Parameters:
  ///   - localIdentifier: only downloads of this asset; nil for any.
  ///   - atFraction: how far the download gets before it fails (0 fails before the first byte).
  ///   - times: how many downloads fail; nil for all until ``clearDownloadFailures()``.
  public func failDownloads(
    _ failure: DownloadFailure, of localIdentifier: String? = nil, atFraction: Double = 0, times: Int? = 1
  ) {
    state.withLock {
      $0.downloadFailures.append(
        DownloadFailureRule(
          failure: failure, localIdentifier: localIdentifier, atFraction: atFraction, remaining: times))
    }
  }

  /// Removes the failures still queued.
  public func clearDownloadFailures() { state.withLock { $0.downloadFailures = [] } }

  /// Calls `observer` with each download's progress (local identifier, 0…1), synchronously, between steps:
  /// a test can script a user action at an exact point of an import.
  public func observeDownloads(
    _ observer: @escaping @Sendable (_ localIdentifier: String, _ fraction: Double) -> Void
  ) {
    state.withLock { $0.downloadObservers.append(observer) }
  }

  /// Streams an asset's original to the app in chunks, as `PHAssetResourceManager.requestData(for:options:
  /// dataReceivedHandler:completionHandler:)` does, downloading it from iCloud first when needed.
  ///
  /// Needs read access to the asset, checked before and during the download: if the user narrows the limited
  /// selection or revokes access meanwhile, it fails with `accessUserDenied` (3311).
  ///
  /// - Parameters:
  ///   - networkAccessAllowed: `PHAssetResourceRequestOptions.isNetworkAccessAllowed`; without it an
  ///     iCloud-only asset fails with `networkAccessRequired` (3164); with it, offline, with `networkError`
  ///     (3169), and with iCloud unavailable (``ICloudStatus``), with iCloud Photos' error.
  ///   - progress: the download's progress (`progressHandler`).
  ///   - dataReceived: each chunk, in order.
  public func requestData(
    for localIdentifier: String, networkAccessAllowed: Bool = true,
    progress: @Sendable (Double) -> Void = { _ in }, dataReceived: ([UInt8]) throws -> Void
  ) async throws -> Void {
    let resource = try await read(
      localIdentifier, .original, by: .library, networkAccessAllowed: networkAccessAllowed,
      progress: progress,
      isCancelled: { Task.isCancelled })
    let chunk = 64 * 1024
    var offset = 0
    repeat {
      let end = min(offset + chunk, resource.bytes.count)
      try dataReceived(Array(resource.bytes[offset..<end]))
      offset = end
    } while offset < resource.bytes.count
  }

  /// Reads one representation, downloading and transcoding as needed.
  func read(
    _ localIdentifier: String, _ representation: Representation, by reader: Reader,
    networkAccessAllowed: Bool,
    progress: (Double) -> Void, isCancelled: () -> Bool
  ) async throws(ProviderError) -> SimulatedResource {
    let timing = configuration.timing
    let stored: StoredAsset = try locked { state throws(ProviderError) in
      guard let stored = state.assets[localIdentifier] else { throw .identifierNotFound }
      if reader == .library { try Self.checkReadable(localIdentifier, in: state) }
      return stored
    }
    let resource: SimulatedResource
    switch representation {
    case .original: resource = stored.original
    case .compatible: resource = stored.compatible ?? stored.original
    case .pairedVideo:
      guard let video = stored.pairedVideo else { throw .coercionUnavailable("a Live Photo movie") }
      resource = video
    }
    if !stored.asset.isLocallyAvailable {
      try await download(
        stored, by: reader, networkAccessAllowed: networkAccessAllowed, progress: progress,
        isCancelled: isCancelled, timing: timing)
    } else {
      progress(1)
    }
    if representation == .compatible, stored.compatible != nil {
      try? await clock.sleep(for: timing.transcoding)
    }
    if isCancelled() { throw .userCancelled }
    return resource
  }

  private func download(
    _ stored: StoredAsset, by reader: Reader, networkAccessAllowed: Bool, progress: (Double) -> Void,
    isCancelled: () -> Bool, timing: Timing
  ) async throws(ProviderError) {
    let identifier = stored.asset.localIdentifier
    let size = Int64(stored.original.bytes.count + (stored.pairedVideo?.bytes.count ?? 0))
    let rule: DownloadFailureRule? = try locked { state throws(ProviderError) in
      // 3164's documentation: "set isNetworkAccessAllowed to true"; 3169: "a network connection error".
      guard networkAccessAllowed else { throw .networkAccessRequired }
      guard state.isOnline else { throw .networkError }
      if let refusal = state.iCloud.error { throw refusal }
      guard state.freeSpace >= size else { throw .notEnoughSpace }
      guard
        let index = state.downloadFailures.firstIndex(where: {
          $0.localIdentifier == nil || $0.localIdentifier == identifier
        })
      else { return nil }
      let rule = state.downloadFailures[index]
      if let remaining = rule.remaining {
        if remaining <= 1 {
          state.downloadFailures.remove(at: index)
        } else {
          state.downloadFailures[index].remaining = remaining - 1
        }
      }
      return rule
    }
    try? await clock.sleep(for: timing.downloadLatency)
    let steps = max(1, timing.downloadSteps)
    for step in 0...steps {
      let fraction = Double(step) / Double(steps)
      if isCancelled() { throw .userCancelled }
      if let rule, fraction >= rule.atFraction {
        switch rule.failure {
        case .networkRequired: throw .networkError
        case .iCloudUnavailable: throw .iCloudServiceUnavailable
        case .diskFull: throw .notEnoughSpace
        case .itemUnavailable: throw .itemUnavailable("iCloud could not provide the photo")
        }
      }
      let observers = try locked { state throws(ProviderError) in
        guard state.isOnline else { throw .networkError }
        if let refusal = state.iCloud.error { throw refusal }
        if reader == .library { try Self.checkReadable(identifier, in: state) }
        return state.downloadObservers
      }
      progress(fraction)
      for observer in observers { observer(identifier, fraction) }
      if step < steps { try? await clock.sleep(for: timing.stepDuration) }
    }
    // Re-checked after the last step too: the observers may have changed the user's access.
    try locked { state throws(ProviderError) in
      if reader == .library { try Self.checkReadable(identifier, in: state) }
      state.assets[identifier]?.asset.isLocallyAvailable = true
      state.freeSpace -= size
    }
  }

  /// `withLock` for bodies that throw ``ProviderError``.
  private func locked<Result>(_ body: (inout State) throws(ProviderError) -> Result) throws(ProviderError)
    -> Result
  {
    try state.withLock { state in Swift.Result.typed { () throws(ProviderError) in try body(&state) } }
      .typedGet()
  }

  private static func checkReadable(_ identifier: String, in state: State) throws(ProviderError) {
    // Deleted while it downloaded: PhotoKit no longer knows the identifier.
    guard state.assets[identifier] != nil else { throw .identifierNotFound }
    if state.restricted { throw .accessRestricted }
    guard state.canRead(identifier) else { throw .accessUserDenied }
  }
}
