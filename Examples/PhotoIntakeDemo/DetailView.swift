import PhotoIntake
import PhotoIntakeUI
import PhotoMetadata
import SwiftUI

/// One picked photo: its rendition, the facts read at import, and what the user can do with it.
@MainActor
struct DetailView: View {
  let gallery: Gallery
  let item: PhotoSelection.Item
  /// Files prepared for sharing, by what they were prepared as; released when the view goes.
  @State private var prepared: [SharePreparation: [PreparedFile]] = [:]
  /// The preparation running, cancelled when the view goes (a multi-GB movie takes a while to re-encode).
  @State private var preparing: (kind: SharePreparation, task: Task<Void, Never>)?
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
          // Nothing is copied or converted until the user asks: opening the view costs nothing, and the work
          // runs off the main actor (``PreparedFile/files(for:in:as:folder:)`` uses threads of its own).
          ForEach(SharePreparation.allCases, id: \.self) { kind in
            if let files = prepared[kind] {
              ShareLink(items: files.map { URL(fileURLWithPath: $0.path) }) {
                Label(kind.shareTitle, systemImage: "square.and.arrow.up")
              }
            } else if preparing?.kind == kind {
              HStack {
                ProgressView()
                Button("Cancel", role: .cancel) { cancelPreparing() }
              }
            } else {
              Button(kind.prepareTitle) { prepare(kind, asset) }.disabled(preparing != nil)
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
      .onDisappear {
        cancelPreparing()
        prepared.values.joined().forEach { $0.release() }
        prepared = [:]
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

  /// Prepares the files for one way of sharing, on the user's tap. A preparation that finishes after the
  /// view went away (or was cancelled) releases what it made at once.
  private func prepare(_ kind: SharePreparation, _ asset: Asset) {
    let library = gallery.library
    let task = Task {
      do throws(PreparedFile.Error) {
        let files = try await PreparedFile.files(for: asset, in: library, as: kind.options)
        guard !Task.isCancelled, preparing?.kind == kind else {
          files.forEach { $0.release() }
          return
        }
        prepared[kind] = files
      } catch {
        if !Task.isCancelled { status = error.description }
      }
      if preparing?.kind == kind { preparing = nil }
    }
    preparing = (kind, task)
  }

  private func cancelPreparing() {
    preparing?.task.cancel()
    preparing = nil
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

/// The two ways the detail view shares a photo.
enum SharePreparation: CaseIterable, Hashable {
  /// The original bytes without GPS (a copy with the location left out; nothing re-encoded).
  case withoutLocation
  /// A JPEG (and, for a Live Photo, its movie as H.264) that a recipient without an iPhone can open, without
  /// location, at most 2048 px.
  case compatible

  var options: ExportOptions {
    switch self {
    case .withoutLocation: ExportOptions(format: .original, stripLocation: true)
    case .compatible: ExportOptions(format: .jpeg, stripLocation: true, maxPixelSize: 2048)
    }
  }

  var prepareTitle: String {
    switch self {
    case .withoutLocation: "Prepare to Share Without Location"
    case .compatible: "Prepare to Share as JPEG"
    }
  }

  var shareTitle: String {
    switch self {
    case .withoutLocation: "Share Without Location"
    case .compatible: "Share as JPEG"
    }
  }
}
