/// An Info.plist key that holds the sentence iOS shows when the app asks for a permission.
public enum UsageDescriptionKey: String, Sendable, Hashable, Codable, CaseIterable {
  /// Read-write photo library access (`PHPhotoLibrary.requestAuthorization(for: .readWrite)`).
  case photoLibrary = "NSPhotoLibraryUsageDescription"
  /// Add-only photo library access (`PHPhotoLibrary.requestAuthorization(for: .addOnly)`).
  case photoLibraryAdd = "NSPhotoLibraryAddUsageDescription"
  /// The camera (`AVCaptureDevice.requestAccess(for: .video)`).
  case camera = "NSCameraUsageDescription"
  /// The microphone, for videos with sound.
  case microphone = "NSMicrophoneUsageDescription"
}
