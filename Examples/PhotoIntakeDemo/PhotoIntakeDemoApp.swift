import PhotoIntake
import PhotoIntakeUI
import SwiftUI

/// PhotoIntake's demo: pick photos (no permission), import them durably with progress, show them in the order
/// the user picked them, look at one's metadata, share it without its location, save it to Photos (add-only),
/// and take photos with the camera.
///
/// Add the package to an iOS 17 app target, copy these files and `Info.plist`'s keys, and run. For the "iCloud"
/// switch, also give the target `PhotoIntakeDemo.entitlements` (iCloud with CloudKit, your own container, push).
@main
struct PhotoIntakeDemoApp: App {
  var body: some Scene {
    WindowGroup { RootView() }
  }
}

/// Opens the library, then shows the gallery.
@MainActor
struct RootView: View {
  @State private var gallery: Gallery?
  @State private var failure: String?

  var body: some View {
    Group {
      if let gallery {
        GalleryView(gallery: gallery)
      } else if let failure {
        ContentUnavailableView(
          "Library Unavailable", systemImage: "externaldrive.badge.xmark", description: Text(failure))
      } else {
        ProgressView("Opening library…")
      }
    }
    .task {
      guard gallery == nil else { return }
      do {
        gallery = try await Gallery.open()
      } catch {
        failure = String(describing: error)
      }
    }
  }
}
