// The README's iOS quick start, type-checked with the demo app. Keep the two in step.
import PhotoIntake
import PhotoIntakeUI
import SwiftUI

@MainActor
struct QuickStartView: View {
  @State private var model: PhotoImportModel?

  var body: some View {
    VStack {
      if let model {
        PhotoImportPicker(model: model) { Label("Add photos", systemImage: "photo.badge.plus") }
        ImportProgressView(model: model)
        Text("\(model.selection.items.count) photos kept, in the order you picked them")
      }
    }
    .task {
      let folder = URL.applicationSupportDirectory.appending(path: "PhotoIntake")
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      guard let library = try? await Library.open(at: folder.path) else { return }
      model = PhotoImportModel(importer: Importer(library: library))
    }
  }
}
