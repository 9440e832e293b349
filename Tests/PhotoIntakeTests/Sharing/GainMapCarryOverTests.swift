import PhotoMetadata
import Testing

@testable import PhotoIntake

/// `GainMapCarryOver`: what a shared JPEG keeps of an HDR photo's gain map, decided in portable code for the
/// ImageIO backend.
@Suite struct GainMapCarryOverTests {
  static let turned = Orientation.allCases.filter { $0 != .up }

  @Test(arguments: Orientation.allCases, [false, true])
  func aPhotoWithoutGainMapGetsNone(orientation: Orientation, canEncodeISO: Bool) {
    #expect(
      GainMapCarryOver.decide(source: .none, orientation: orientation, canEncodeISO: canEncodeISO) == .none)
  }

  /// iOS 18 and macOS 15 make a new ISO gain map from the HDR decode, whatever the kind and the turn.
  @Test(arguments: [GainMapCarryOver.Source.apple, .iso], Orientation.allCases)
  func newerSystemsEncodeISOFromTheHDRPixels(source: GainMapCarryOver.Source, orientation: Orientation) {
    #expect(
      GainMapCarryOver.decide(source: source, orientation: orientation, canEncodeISO: true)
        == .encodeISOFromHDR)
  }

  @Test func olderSystemsCopyAnUprightApplePhotosGainMap() {
    #expect(
      GainMapCarryOver.decide(source: .apple, orientation: .up, canEncodeISO: false) == .copyAppleGainMap)
  }

  /// A stored gain map no longer lines up with pixels the converter turned.
  @Test(arguments: turned)
  func olderSystemsLeaveOutTheGainMapOfATurnedPhoto(orientation: Orientation) {
    #expect(
      GainMapCarryOver.decide(source: .apple, orientation: orientation, canEncodeISO: false)
        == .dropped(.pixelsTurned))
  }

  @Test(arguments: Orientation.allCases)
  func olderSystemsCannotKeepAnISOGainMap(orientation: Orientation) {
    #expect(
      GainMapCarryOver.decide(source: .iso, orientation: orientation, canEncodeISO: false)
        == .dropped(.isoNeedsNewerSystem))
  }

  @Test(arguments: [
    ("http://ns.adobe.com/exif/1.0/", "GPSLatitude", true),
    ("http://ns.adobe.com/exif/1.0/", "GPSLongitudeRef", true),
    ("http://ns.adobe.com/exif/1.0/", "DateTimeOriginal", false),
    ("http://ns.apple.com/HDRGainMap/1.0/", "HDRGainMapVersion", false),
    ("http://ns.apple.com/HDRGainMap/1.0/", "HDRGainMapHeadroom", false),
    ("http://ns.adobe.com/tiff/1.0/", "GPSLatitude", false),
  ])
  func withoutLocationTheGainMapsGPSPropertiesGo(namespace: String, name: String, drops: Bool) {
    #expect(GainMapCarryOver.dropsFromGainMapMetadata(namespace: namespace, name: name) == drops)
  }
}
