#if canImport(SwiftUI) && canImport(Observation) && canImport(PhotosUI)
  import PhotoIntake
  import SwiftUI

  /// The progress of a ``PhotoImportModel``'s import: "3 of 8" and a bar over every pick, with a Cancel
  /// button. Shows nothing when no import runs.
  @available(iOS 17, macOS 14, *)
  @MainActor
  public struct ImportProgressView: View {
    private let model: PhotoImportModel

    public init(model: PhotoImportModel) { self.model = model }

    public var body: some View {
      if model.isImporting, let overall = model.overall {
        HStack {
          ProgressView(value: overall.fraction) {
            Text("Importing \(overall.completed) of \(overall.total)")
              .font(.footnote)
          }
          Button("Cancel", role: .cancel) { model.cancel() }
        }
        .padding(.horizontal)
      }
    }
  }
#endif
