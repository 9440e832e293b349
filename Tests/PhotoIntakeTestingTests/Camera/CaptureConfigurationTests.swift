import PhotoIntake
import Testing

/// The photo output's set-up: the largest size, and the iOS 17 features in the order their support allows.
struct CaptureConfigurationTests {
  typealias Dimensions = CaptureConfiguration.Dimensions

  @Test func theLargestSupportedSizeIsChosenWhateverTheOrder() {
    // An iPhone 15 Pro's wide camera lists 12 MP, 24 MP and 48 MP; the settings' default is the smallest.
    let twelve = Dimensions(width: 4032, height: 3024)
    let twentyFour = Dimensions(width: 5712, height: 4284)
    let fortyEight = Dimensions(width: 8064, height: 6048)
    #expect(CaptureConfiguration.largest(of: [twelve, twentyFour, fortyEight]) == fortyEight)
    #expect(CaptureConfiguration.largest(of: [fortyEight, twelve]) == fortyEight)
    #expect(CaptureConfiguration.largest(of: [twelve]) == twelve)
    #expect(CaptureConfiguration.largest(of: []) == nil)
  }

  /// An output whose support changes as features are enabled, as AVCapturePhotoOutput.h describes it.
  final class Output {
    var enabled: [CaptureConfiguration.Feature] = []
    var supportsZeroShutterLag = true
    var supportsDeferred = true
    func isSupported(_ feature: CaptureConfiguration.Feature) -> Bool {
      switch feature {
      case .zeroShutterLag: supportsZeroShutterLag
      case .responsiveCapture: enabled.contains(.zeroShutterLag)
      case .fastCapturePrioritization: enabled.contains(.responsiveCapture)
      case .autoDeferredPhotoDelivery: supportsDeferred
      }
    }
    func enable(_ feature: CaptureConfiguration.Feature) {
      precondition(isSupported(feature), "NSInvalidArgumentException: \(feature) is not supported")
      enabled.append(feature)
    }
  }

  @Test func featuresAreEnabledInDependencyOrder() {
    let output = Output()
    let enabled = CaptureConfiguration.enable(
      Set(CaptureConfiguration.Feature.allCases), isSupported: output.isSupported, enable: output.enable)
    #expect(
      output.enabled == [
        .zeroShutterLag, .responsiveCapture, .fastCapturePrioritization, .autoDeferredPhotoDelivery,
      ])
    #expect(enabled.count == 4)
  }

  @Test func withoutZeroShutterLagNothingThatNeedsItIsTried() {
    let output = Output()
    output.supportsZeroShutterLag = false
    output.supportsDeferred = false
    let enabled = CaptureConfiguration.enable(
      Set(CaptureConfiguration.Feature.allCases), isSupported: output.isSupported, enable: output.enable)
    #expect(enabled.isEmpty)
    #expect(output.enabled.isEmpty)
  }

  @Test func onlyWhatIsWantedIsEnabled() {
    let output = Output()
    let enabled = CaptureConfiguration.enable(
      [.zeroShutterLag, .autoDeferredPhotoDelivery], isSupported: output.isSupported, enable: output.enable)
    #expect(enabled == [.zeroShutterLag, .autoDeferredPhotoDelivery])
  }
}
