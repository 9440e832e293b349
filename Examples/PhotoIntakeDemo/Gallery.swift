import CloudKit
import Foundation
import Observation
import PhotoIntake
import PhotoIntakeUI

/// The demo's state: the library, the picker's import model, the camera, and the assets of the selection.
@MainActor
@Observable
final class Gallery {
  let library: Library
  let importer: Importer
  let renditions: RenditionStore
  let picking: PhotoImportModel
  let camera: CameraModel
  /// The assets the grid shows, by identifier (a Live Photo's movie included).
  private(set) var assets: [AssetID: Asset] = [:]
  /// iCloud sync, made when the user first turns it on (`CKContainer.default()` needs the iCloud entitlement).
  private(set) var sync: LibrarySyncModel?
  @ObservationIgnored private let selectionFile: URL
  @ObservationIgnored private var following: Task<Void, Never>?

  /// Opens (or creates) the library in Application Support, and the selection saved with it.
  static func open() async throws(Library.Error) -> Gallery {
    let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
    let root = support.appendingPathComponent("PhotoIntake", isDirectory: true)
    try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    let library = try await Library.open(at: root.appendingPathComponent("Library").path)
    let selectionFile = root.appendingPathComponent("selection.json")
    let saved = (try? Data(contentsOf: selectionFile)).flatMap {
      try? JSONDecoder().decode(PhotoSelection.self, from: $0)
    }
    let gallery = Gallery(
      library: library, selection: saved ?? PhotoSelection(), selectionFile: selectionFile)
    await gallery.loadAssets()
    gallery.followLibrary()
    return gallery
  }

  /// The "iCloud" switch: the library syncs with the user's private database, or stops (keeping everything).
  func setICloud(_ enabled: Bool) {
    if enabled && sync == nil {
      sync = LibrarySyncModel(library: library, database: CKContainer.default().privateCloudDatabase)
    }
    sync?.setEnabled(enabled)
  }

  /// Photos that arrive from the user's other devices join the grid (those imported here join it through the
  /// picker's selection).
  private func followLibrary() {
    let library = self.library
    following = Task { [weak self] in
      for await change in await library.changes() where !change.inserted.isEmpty {
        guard let self, let sync = self.sync?.sync else { continue }
        var arrived: [Asset] = []
        for id in change.inserted { if let asset = try? await library.asset(id) { arrived.append(asset) } }
        let states = await sync.states(of: arrived)
        let known = Set(self.picking.selection.items.map(\.asset))
        let new = arrived.filter { states[$0.id] == .synced && !known.contains($0.id) }
          .map { PhotoSelection.Item(assetIdentifier: nil, asset: $0.id) }
        guard !new.isEmpty else { continue }
        self.picking.setSelection(PhotoSelection(items: self.picking.selection.items + new))
        await self.loadAssets()
      }
    }
  }

  private init(library: Library, selection: PhotoSelection, selectionFile: URL) {
    self.library = library
    importer = Importer(library: library)
    renditions = RenditionStore(library: library)
    picking = PhotoImportModel(importer: importer, selection: selection)
    camera = CameraModel(importer: importer)
    self.selectionFile = selectionFile
  }

  /// One cell of the grid.
  struct Entry: Identifiable {
    let position: Int
    let item: PhotoSelection.Item
    let asset: Asset
    var id: Int { position }
  }

  /// The picked items in the user's order, with their assets.
  var items: [Entry] {
    picking.selection.items.enumerated().compactMap { position, item in
      assets[item.asset].map { Entry(position: position, item: item, asset: $0) }
    }
  }

  /// The asset of an identifier the grid knows.
  func asset(_ id: AssetID?) -> Asset? { id.flatMap { assets[$0] } }

  /// Reads the selection's assets from the library (after an import, or on launch).
  func loadAssets() async {
    var found: [AssetID: Asset] = [:]
    for item in picking.selection.items {
      for id in [item.asset] + (item.pairedVideo.map { [$0] } ?? []) {
        if let asset = try? await library.asset(id) { found[id] = asset }
      }
    }
    assets = found
    saveSelection()
    await sync?.refreshBadges(for: Array(found.values))
  }

  /// Adds a captured photo to the selection.
  func addCapture(_ asset: Asset) async {
    let item = PhotoSelection.Item(assetIdentifier: nil, asset: asset.id)
    picking.setSelection(PhotoSelection(items: picking.selection.items + [item]))
    await loadAssets()
  }

  /// Removes an item from the selection (its asset stays in the library).
  func remove(_ item: PhotoSelection.Item) async {
    picking.setSelection(PhotoSelection(items: picking.selection.items.filter { $0 != item }))
    await loadAssets()
  }

  /// The selection is what the app keeps (with the library), never picker results or temporary URLs.
  private func saveSelection() {
    guard let data = try? JSONEncoder().encode(picking.selection) else { return }
    try? data.write(to: selectionFile, options: .atomic)
  }
}
