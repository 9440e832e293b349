import PhotoIntake
import PhotoIntakeUI
import PhotoMetadata
import SwiftUI

/// One picked photo: its rendition, the facts read at import, and what the user can do with it.
@MainActor
struct DetailView: View {
  let gallery: Gallery
  let item: PhotoSelection.Item
  @State private var shareFile: PreparedFile?
  @State private var compatibleFiles: [PreparedFile] = []
  @State private var status: String?
  @State private var isSaving = false
  @State private var saveWithoutLocation = true

  var body: some View {
    if let asset = gallery.asset(item.asset) {
      List {
        Section {
          media(asset)
            .frame(maxHeight: 360)
            .listRowInsets(EdgeInsets())
        }
        Section("Facts") { MetadataRows(asset: asset, movie: gallery.asset(item.pairedVideo)) }
        Section {
          if let shareFile {
            ShareLink(item: URL(fileURLWithPath: shareFile.path)) {
              Label("Share Without Location", systemImage: "square.and.arrow.up")
            }
          } else {
            ProgressView()
          }
          if !compatibleFiles.isEmpty {
            // A JPEG (and, for a Live Photo, its movie as H.264) that a recipient without an iPhone can open.
            ShareLink(items: compatibleFiles.map { URL(fileURLWithPath: $0.path) }) {
              Label("Share as JPEG", systemImage: "square.and.arrow.up.on.square")
            }
          }
          Toggle("Save without location", isOn: $saveWithoutLocation)
          Button {
            Task { await save(asset) }
          } label: {
            Label("Save to Photos", systemImage: "square.and.arrow.down")
          }
          .disabled(isSaving)
          if let status { Text(status).font(.footnote).foregroundStyle(.secondary) }
        }
        Section {
          Button("Remove from Selection", role: .destructive) { Task { await gallery.remove(item) } }
        }
      }
      .navigationTitle(asset.name ?? "Photo")
      .task(id: asset.id) {
        prepareShareFile(asset)
        await prepareCompatibleFiles(asset)
      }
      .onDisappear {
        shareFile?.release()
        shareFile = nil
        compatibleFiles.forEach { $0.release() }
        compatibleFiles = []
      }
    } else {
      ContentUnavailableView("Not in the Library", systemImage: "questionmark.square.dashed")
    }
  }

  /// The picture, played when it moves: a movie in the system player, a Live Photo in a Live Photo view
  /// (touch and hold to play), a still as its rendition.
  @ViewBuilder
  private func media(_ asset: Asset) -> some View {
    if asset.type.isMovie {
      StoredMoviePlayer(asset: asset, library: gallery.library).aspectRatio(16 / 9, contentMode: .fit)
    } else if let movie = gallery.asset(item.pairedVideo) {
      StoredLivePhotoView(still: asset, movie: movie, library: gallery.library).aspectRatio(contentMode: .fit)
    } else {
      RenditionImage(asset: asset, store: gallery.renditions, size: 1024).aspectRatio(contentMode: .fit)
    }
  }

  /// Files any device opens, without location, at most 2048 px: converted off the main actor.
  private func prepareCompatibleFiles(_ asset: Asset) async {
    compatibleFiles.forEach { $0.release() }
    compatibleFiles = []
    do {
      compatibleFiles = try await PreparedFile.files(
        for: asset, in: gallery.library,
        as: ExportOptions(format: .jpeg, stripLocation: true, maxPixelSize: 2048))
    } catch {
      status = error.description
    }
  }

  /// A named file for the share sheet: a link to the original, or a copy without GPS (no re-encoding).
  private func prepareShareFile(_ asset: Asset) {
    shareFile?.release()
    do {
      shareFile = try PreparedFile.make(for: asset, in: gallery.library, withoutLocation: true)
    } catch {
      status = error.description
    }
  }

  /// Saves with add-only access; a Live Photo goes as photo + paired video when Photos will pair them.
  private func save(_ asset: Asset) async {
    isSaving = true
    defer { isSaving = false }
    do {
      try await PhotoLibrarySaver().save(
        asset, pairedVideo: gallery.asset(item.pairedVideo), from: gallery.library,
        options: .init(withoutLocation: saveWithoutLocation))
      status = "Saved to Photos."
    } catch {
      status = error.description
    }
  }
}

/// The facts PhotoMetadata read from the bytes at import.
@MainActor
struct MetadataRows: View {
  let asset: Asset
  let movie: Asset?

  var body: some View {
    LabeledContent("Format", value: asset.type.rawValue.uppercased())
    LabeledContent("Size", value: ByteCountFormatter.string(fromByteCount: asset.size, countStyle: .file))
    if let metadata = asset.metadata {
      if let width = metadata.width, let height = metadata.height {
        LabeledContent("Pixels", value: "\(width) × \(height)")
      }
      if let date = metadata.captureDate { LabeledContent("Taken", value: date.local) }
      if let camera = [metadata.make, metadata.model].compactMap({ $0 }).joined(separator: " ").nilIfEmpty {
        LabeledContent("Camera", value: camera)
      }
      LabeledContent("Location", value: metadata.location == nil ? "None" : "Recorded")
    }
    if asset.locationStripped { LabeledContent("Stored", value: "Without location") }
    if let movie { LabeledContent("Live Photo", value: "With its \(movie.type.rawValue.uppercased()) movie") }
    LabeledContent("SHA-256", value: String(asset.sha256.hex.prefix(16)) + "…")
  }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
