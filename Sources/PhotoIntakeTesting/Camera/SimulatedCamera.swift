import Foundation
import PhotoIntake

/// A camera that answers `PhotoCaptureStateMachine`'s effects with the events AVFoundation delivers, so that
/// the capture flow (readiness, deferred proxies, failures) runs on Linux.
///
/// For each `.capture` it reports readiness as the readiness coordinator does (not ready while the shot is
/// taken, ready again after), then either the processed photo or, with ``Configuration/defersDelivery``, a
/// proxy (`didFinishCapturingDeferredPhotoProxy`). Bytes are small fixtures: a proxy is a JPEG, the final
/// photo a HEIC, so the two are told apart by their bytes. Nothing here is a device's timing.
public final class SimulatedCamera: Sendable {
  /// How the camera behaves.
  public struct Configuration: Sendable, Hashable {
    /// Deliver proxies (`isAutoDeferredPhotoDeliveryEnabled` on a device that chose to defer).
    public var defersDelivery = true
    /// Fail the next captures with this reason (`didFinishCaptureFor` with an error).
    public var failsCaptures: String?

    /// A camera that defers every shot.
    public init(defersDelivery: Bool = true, failsCaptures: String? = nil) {
      self.defersDelivery = defersDelivery
      self.failsCaptures = failsCaptures
    }
  }

  /// How it behaves.
  public let configuration: Configuration
  private let counter = Protected<Int64>(0)

  /// A camera that behaves as `configuration` says.
  public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

  /// The settings id for the next shot (`AVCapturePhotoSettings.uniqueID`, increasing).
  public func nextSettingsID() -> Int64 {
    counter.withLock { count in
      count += 1
      return count
    }
  }

  /// The events that follow an effect; none for effects that are not the camera's.
  public func events(after effect: PhotoCaptureStateMachine.Effect) -> [PhotoCaptureStateMachine.Event] {
    guard case .capture(let id) = effect else { return [] }
    var events: [PhotoCaptureStateMachine.Event] = [.readinessChanged(.notReadyWaitingForCapture)]
    if let reason = configuration.failsCaptures {
      events.append(.captureFailed(id: id, reason: reason))
    } else {
      events.append(configuration.defersDelivery ? .proxyDelivered(id: id) : .photoDelivered(id: id))
    }
    events.append(.readinessChanged(.ready))
    return events
  }

  /// The proxy's `fileDataRepresentation()` of shot `id`.
  public func proxyData(_ id: Int64) -> Data { Data(Fixtures.jpeg(seed: "proxy-\(id)")) }

  /// The processed photo of shot `id`, as Photos makes it from the proxy (or the camera delivers it at once).
  public func finalPhoto(_ id: Int64) -> AssetFixture {
    AssetFixture(
      kind: .photo, name: "Capture-\(id)", creationDate: nil,
      original: SimulatedResource(
        typeIdentifier: "public.heic", filename: "", bytes: Fixtures.heic(seed: "final-\(id)")))
  }

  /// The proxy as a fixture to save with ``SimulatedPhotoLibrary/saveDeferredProxy(_:final:)``.
  public func proxyPhoto(_ id: Int64) -> AssetFixture {
    AssetFixture(
      kind: .photo, name: "Capture-\(id)", creationDate: nil,
      original: SimulatedResource(typeIdentifier: "public.jpeg", filename: "", bytes: Array(proxyData(id))))
  }
}
