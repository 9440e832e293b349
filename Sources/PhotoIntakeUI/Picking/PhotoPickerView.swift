#if canImport(PhotosUI) && canImport(SwiftUI) && canImport(UIKit)
  import PhotoIntake
  import PhotosUI
  import SwiftUI

  /// `PHPickerViewController` in SwiftUI, importing through a ``PhotoPickerCoordinator``: for apps that need
  /// the UIKit picker's configuration (`preselectedAssetIdentifiers` with result identifiers, the iOS 17
  /// compact mode) inside SwiftUI. Most SwiftUI apps use ``PhotoImportPicker`` instead.
  @MainActor
  public struct PhotoPickerView: UIViewControllerRepresentable {
    public let coordinator: PhotoPickerCoordinator

    public init(coordinator: PhotoPickerCoordinator) { self.coordinator = coordinator }

    public func makeCoordinator() -> PhotoPickerCoordinator { coordinator }

    public func makeUIViewController(context: Context) -> PHPickerViewController {
      context.coordinator.makePicker()
    }

    public func updateUIViewController(_ picker: PHPickerViewController, context: Context) {}
  }
#endif
