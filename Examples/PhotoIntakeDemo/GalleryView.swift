import PhotoIntake
import PhotoIntakeUI
import SwiftUI

/// The picked photos in the user's order, the picker, the import's progress and the camera.
@MainActor
struct GalleryView: View {
  let gallery: Gallery
  @State private var showCamera = false
  @State private var showLibrary = false
  /// The "iCloud" switch, kept across launches.
  @AppStorage("iCloud") private var iCloud = false

  private let columns = [GridItem(.adaptive(minimum: 100), spacing: 2)]

  var body: some View {
    NavigationStack {
      ScrollView {
        ImportProgressView(model: gallery.picking)
        if let outcome = gallery.picking.lastOutcome, outcome.failedCount > 0 {
          FailureList(reports: outcome.reports)
        }
        LazyVGrid(columns: columns, spacing: 2) {
          ForEach(gallery.items) { entry in
            NavigationLink(value: entry.item) {
              RenditionImage(asset: entry.asset, store: gallery.renditions, size: 320)
                .frame(minWidth: 100, minHeight: 100)
                .aspectRatio(1, contentMode: .fill)
                .clipped()
                .overlay(alignment: .topLeading) {
                  if entry.item.pairedVideo != nil {
                    Image(systemName: "livephoto").padding(4).foregroundStyle(.white)
                  }
                }
                .overlay(alignment: .bottomTrailing) {
                  if let state = gallery.sync?.badges[entry.asset.id] { SyncBadge(state: state) }
                }
            }
          }
        }
      }
      .overlay {
        if gallery.items.isEmpty && !gallery.picking.isImporting {
          ContentUnavailableView(
            "No Photos", systemImage: "photo.on.rectangle",
            description: Text("Pick photos or take one. No access to your library is needed."))
        }
      }
      .navigationTitle("PhotoIntake")
      .navigationDestination(for: PhotoSelection.Item.self) { item in
        DetailView(gallery: gallery, item: item)
      }
      .toolbar {
        ToolbarItem(placement: .topBarTrailing) {
          PhotoImportPicker(model: gallery.picking) {
            Label("Add Photos", systemImage: "photo.badge.plus")
          }
        }
        ToolbarItem(placement: .bottomBar) {
          Button {
            showLibrary = true
          } label: {
            Label("From Your Library", systemImage: "photo.stack")
          }
        }
        ToolbarItem(placement: .topBarLeading) {
          Button {
            showCamera = true
          } label: {
            Label("Camera", systemImage: "camera")
          }
        }
        ToolbarItem(placement: .bottomBar) {
          Toggle(isOn: $iCloud) { Label("iCloud", systemImage: "icloud") }
            .toggleStyle(.button)
        }
      }
      .sheet(isPresented: $showCamera) { CameraView(gallery: gallery) }
      .sheet(isPresented: $showLibrary) { LibraryView(gallery: gallery) }
      .onChange(of: gallery.picking.selection) { _, _ in Task { await gallery.loadAssets() } }
      .onChange(of: iCloud, initial: true) { _, enabled in gallery.setICloud(enabled) }
      .safeAreaInset(edge: .top) {
        if let status = gallery.sync?.status, gallery.sync?.isEnabled == true {
          SyncStatusLine(status: status)
        }
      }
    }
  }
}

/// The picks that failed, each with its sentence.
@MainActor
struct FailureList: View {
  let reports: [PickReport]

  var body: some View {
    VStack(alignment: .leading, spacing: 4) {
      ForEach(reports.indices, id: \.self) { index in
        if let error = reports[index].result.error {
          Label(error.description, systemImage: "exclamationmark.triangle")
            .font(.footnote)
        }
      }
    }
    .padding(.horizontal)
  }
}

/// One line about iCloud when it needs the user's attention.
@MainActor
struct SyncStatusLine: View {
  let status: SyncStatus

  var body: some View {
    switch status.condition {
    case .offline:
      Label("Offline: changes will sync later.", systemImage: "icloud.slash").font(.footnote).padding(4)
    case .quotaExceeded:
      Label("iCloud storage is full: photos stay on this device.", systemImage: "exclamationmark.icloud")
        .font(.footnote).padding(4)
    case .zoneDeleted:
      Label(
        "You removed this app's data from iCloud: photos stay on this device.", systemImage: "icloud.slash"
      )
      .font(.footnote).padding(4)
    case .signedOut:
      Label("Sign in to iCloud to sync your photos.", systemImage: "person.crop.circle.badge.exclamationmark")
        .font(.footnote).padding(4)
    default:
      EmptyView()
    }
  }
}
