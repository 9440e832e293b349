import PhotoIntake
import PhotoIntakeUI
import Photos
import SwiftUI

/// "From your library": the user's photos (or limited selection) with cached thumbnails; tap to select, then
/// import them (as they look now, with the user's edits) into the app's library. Browsing asks read-write access (`NSPhotoLibraryUsageDescription`)
/// and only when the user opens this screen; nothing is fetched before access allows it.
@MainActor
struct LibraryView: View {
  let gallery: Gallery
  @State private var access = PhotoLibraryAccess(features: [.browse])
  @StateObject private var grid = PhotoLibraryGridModel(
    cellSize: CGSize(width: 100, height: 100), displayScale: 2)
  @Environment(\.displayScale) private var displayScale
  @Environment(\.dismiss) private var dismiss

  private let columns = [GridItem(.adaptive(minimum: 100), spacing: 2)]

  var body: some View {
    NavigationStack {
      content
        .navigationTitle("From Your Library")
        .toolbar {
          ToolbarItem(placement: .cancellationAction) { Button("Done") { dismiss() } }
          ToolbarItem(placement: .confirmationAction) {
            Button("Import \(grid.selection.count)") {
              Task {
                let outcome = await grid.importSelected(into: gallery.importer)
                await gallery.add(outcome)
                grid.selection = []
              }
            }
            .disabled(grid.selection.isEmpty || grid.isImporting)
          }
        }
    }
    .onAppear {
      grid.displayScale = displayScale
      access.onReload = { grid.load() }
      access.refresh()
      grid.load()
    }
    // Observing starts once access allows reading, and again whenever the screen changes.
    .task(id: access.screen) { await grid.observe() }
  }

  @ViewBuilder private var content: some View {
    switch access.screen {
    case .content, .contentWithLimitedBanner:
      ScrollView {
        if access.screen == .contentWithLimitedBanner {
          Button("Add More Photos and Import Them") {
            guard let presenter = PresentingViewController.current() else { return }
            Task {
              if let outcome = await grid.addFromLimitedPicker(presenter: presenter, into: gallery.importer) {
                await gallery.add(outcome)
              }
              access.refresh()
            }
          }
          .buttonStyle(.borderedProminent)
          .padding()
        }
        if let failures = grid.lastOutcome?.failures, !failures.isEmpty {
          ForEach(failures.indices, id: \.self) { index in
            Label(failures[index].error.description, systemImage: "exclamationmark.triangle")
              .font(.footnote)
          }
        }
        LazyVGrid(columns: columns, spacing: 2) {
          // Keyed by local identifier, never by index: a library change (a screenshot, an iCloud sync) shifts
          // every index, and a cell keyed by index would show one photo and import another.
          ForEach(grid.identifiers, id: \.self) { identifier in
            LibraryCell(grid: grid, identifier: identifier)
          }
        }
      }
    case .ask:
      ContentUnavailableView {
        Label("Your Photos", systemImage: "photo.on.rectangle.angled")
      } description: {
        Text(access.message ?? "Allow access to import photos straight from your library.")
      } actions: {
        Button("Allow Access") { Task { await access.ask() } }
      }
    case .waitingForAnswer:
      ProgressView()
    case .explainAndLinkToSettings, .explainRestricted:
      PermissionDeniedView(screen: access.screen, message: access.message)
    }
  }
}

/// One thumbnail: a degraded image at once, then the final one; selected cells show their order. The cell's
/// identity, its image and its request all follow the asset's local identifier.
@MainActor
struct LibraryCell: View {
  @ObservedObject var grid: PhotoLibraryGridModel
  let identifier: String
  @State private var image: UIImage?

  var body: some View {
    let position = grid.selection.firstIndex(of: identifier)
    Color.secondary.opacity(0.2)
      .aspectRatio(1, contentMode: .fill)
      .overlay {
        if let image { Image(uiImage: image).resizable().scaledToFill() }
      }
      .clipped()
      .overlay(alignment: .topTrailing) {
        if let position {
          Text("\(position + 1)").font(.caption.bold()).padding(6)
            .background(.tint, in: Circle()).foregroundStyle(.white).padding(4)
        }
      }
      .overlay(alignment: .bottom) {
        if let fraction = grid.progress[identifier], fraction < 1 {
          ProgressView(value: fraction).padding(4)
        }
      }
      .onTapGesture {
        if let position { grid.selection.remove(at: position) } else { grid.selection.append(identifier) }
      }
      .onAppear {
        grid.cellAppeared(identifier) { delivered, _ in image = delivered }
      }
      .onDisappear { grid.cellDisappeared(identifier) }
  }
}

extension Gallery {
  /// Adds what an import from the library brought to the selection, Live Photos with their movies.
  func add(_ outcome: AssetImportOutcome) async {
    let known = Set(picking.selection.items.map(\.asset))
    let new = outcome.selection.items.filter { !known.contains($0.asset) }
    picking.setSelection(PhotoSelection(items: picking.selection.items + new))
    await loadAssets()
  }
}
