import Foundation
import PhotoIntake

extension SimulatedPhotoLibrary {
  /// Saves a camera's deferred proxy, as `PHAssetCreationRequest.addResource(with: .photoProxy, data:options:)`
  /// in `performChanges` does: a new asset whose only resource is the `.photoProxy` until Photos has processed
  /// it into `final` (``finishDeferredProcessing(_:)``), or failed to (``failDeferredProcessing(_:)``).
  ///
  /// Needs add-only or read-write access, as any save. What a device lists for such an asset while it is
  /// processed (the `.photoProxy` resource alone) is this simulator's model; only a device can confirm it.
  ///
  /// - Parameters:
  ///   - proxy: the proxy photo (its original is the proxy's bytes).
  ///   - final: the photo Photos will make of it.
  /// - Returns: the new asset's local identifier.
  /// - Throws: ``Error/accessDenied`` or ``Error/accessRestricted``.
  @discardableResult
  public func saveDeferredProxy(_ proxy: AssetFixture, final: AssetFixture) throws(Error) -> String {
    let identifier = try saveAsset(proxy)
    mutate { state in
      guard var stored = state.assets[identifier] else { return }
      var resource = final.original
      resource.filename = stored.original.filename
      stored.deferred = .processing(final: resource)
      state.assets[identifier] = stored
    }
    return identifier
  }

  /// Photos finished processing the proxy: the asset's `.photo` is now the final photo, and observers get a
  /// change that reports the asset as changed.
  public func finishDeferredProcessing(_ localIdentifier: String) {
    mutate { state in
      guard var stored = state.assets[localIdentifier], case .processing(let final) = stored.deferred else {
        return
      }
      stored.original = final
      stored.compatible = nil
      stored.deferred = nil
      stored.asset.revision += 1
      state.assets[localIdentifier] = stored
    }
  }

  /// Photos could not make the final photo: observers get a change, the asset lists a `.photo` as a processed
  /// one does, and reading it fails with `PHPhotosError.missingResource` (3303). The app keeps its proxy.
  public func failDeferredProcessing(_ localIdentifier: String) {
    mutate { state in
      guard var stored = state.assets[localIdentifier], stored.deferred != nil else { return }
      stored.deferred = .failed
      stored.asset.revision += 1
      state.assets[localIdentifier] = stored
    }
  }

  /// Whether the asset is still a proxy that Photos is processing (for test assertions).
  public func isProcessingDeferredPhoto(_ localIdentifier: String) -> Bool {
    state.withLock { state in
      if case .processing = state.assets[localIdentifier]?.deferred { true } else { false }
    }
  }
}
