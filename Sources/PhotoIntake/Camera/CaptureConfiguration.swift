/// What a photo output is set up with before the session starts: the largest photo size, and the iOS 17
/// features that make the shutter fast, each enabled only where the output says it is supported.
///
/// Two facts of AVCapturePhotoOutput.h decide it:
/// - `AVCapturePhotoSettings.maxPhotoDimensions` "defaults to the smallest dimensions returned by
///   `AVCaptureDeviceFormat.supportedMaxPhotoDimensions`", and it may not exceed the output's
///   `maxPhotoDimensions`: an app that sets neither captures at the smallest size. So the output gets the
///   largest supported size (``largest(of:)``) before `startRunning()`, and each shot's settings the output's.
/// - The features depend on each other, and each one's `…Supported` may change once another is enabled:
///   responsive capture "is only supported when zero shutter lag is enabled", fast capture prioritization
///   "only when responsiveCaptureEnabled is YES"; setting one that is not supported throws. So they are
///   enabled in that order, asking the output after each step (``enable(_:isSupported:enable:)``).
public enum CaptureConfiguration {
  /// Photo dimensions in pixels (`CMVideoDimensions`).
  public struct Dimensions: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int32
    /// Height in pixels.
    public var height: Int32

    /// Dimensions of `width` × `height` pixels.
    public init(width: Int32, height: Int32) {
      self.width = width
      self.height = height
    }

    /// The number of pixels.
    public var pixelCount: Int64 { Int64(width) * Int64(height) }
  }

  /// An iOS 17 feature of the photo output, in the order they must be enabled.
  public enum Feature: Int, Sendable, Hashable, CaseIterable, Comparable {
    /// `isZeroShutterLagEnabled`: the photo is taken from frames already buffered when the shutter is pressed.
    case zeroShutterLag
    /// `isResponsiveCaptureEnabled`: a new shot may start while the last is processed (needs zero shutter lag).
    case responsiveCapture
    /// `isFastCapturePrioritizationEnabled`: quality steps down to keep up with a burst (needs responsive
    /// capture).
    case fastCapturePrioritization
    /// `isAutoDeferredPhotoDeliveryEnabled`: a proxy now, the final photo processed later by Photos.
    case autoDeferredPhotoDelivery

    public static func < (lhs: Feature, rhs: Feature) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// The largest of the supported sizes (`supportedMaxPhotoDimensions` of the device's active format), by pixel
  /// count; nil when the format lists none.
  public static func largest(of supported: [Dimensions]) -> Dimensions? {
    supported.max { ($0.pixelCount, $0.width) < ($1.pixelCount, $1.width) }
  }

  /// Enables the `wanted` features that are supported, in dependency order, asking `isSupported` afresh before
  /// each one (the output's answer changes as features are enabled). A feature whose prerequisite was not
  /// enabled is skipped.
  ///
  /// - Returns: the features enabled.
  public static func enable(
    _ wanted: Set<Feature>, isSupported: (Feature) -> Bool, enable: (Feature) -> Void
  ) -> Set<Feature> {
    var enabled = Set<Feature>()
    for feature in Feature.allCases where wanted.contains(feature) {
      let prerequisite: Feature? =
        switch feature {
        case .responsiveCapture: .zeroShutterLag
        case .fastCapturePrioritization: .responsiveCapture
        case .zeroShutterLag, .autoDeferredPhotoDelivery: nil
        }
      if let prerequisite, !enabled.contains(prerequisite) { continue }
      guard isSupported(feature) else { continue }
      enable(feature)
      enabled.insert(feature)
    }
    return enabled
  }
}
