#if canImport(PhotosUI) && canImport(SwiftUI) && canImport(Observation)
  import Observation
  import PhotoIntake
  import PhotosUI
  import SwiftUI

  /// The state of picking and importing for SwiftUI: the selection in the user's order, and while an import
  /// runs, each pick's progress and the overall progress.
  ///
  /// It only runs ``PickImport`` and records its events; ``PhotoImportPicker`` and
  /// ``SwiftUI/View/photoImportPicker(isPresented:model:)`` feed it `PhotosPicker`'s selection, and
  /// ``PhotoPickerCoordinator`` is the UIKit counterpart. `@Observable` needs iOS 17 or macOS 14.
  @available(iOS 17, macOS 14, *)
  @MainActor
  @Observable
  public final class PhotoImportModel {
    /// One pick of the running (or last) import.
    public struct Pick: Identifiable, Sendable {
      /// The pick's position, which is the user's order.
      public let id: Int
      /// 0…1.
      public var fraction: Double = 0
      /// Set when the pick is done.
      public var result: PickResult?
      /// A Live Photo kept without its movie, and why.
      public var motionError: Importer.Error?
    }

    public let importer: Importer
    public var options: PickerOptions
    /// The selection, in the user's order.
    public private(set) var selection: PhotoSelection
    /// The picks of the running or last import, in the user's order.
    public private(set) var picks: [Pick] = []
    /// The running import's progress in picks; nil when none has run.
    public private(set) var overall: ImportProgress?
    public private(set) var isImporting = false
    /// The outcome of the last import.
    public private(set) var lastOutcome: PickOutcome?

    @ObservationIgnored private var running: Task<Void, Never>?
    @ObservationIgnored private var session: PickSession?

    public init(
      importer: Importer, selection: PhotoSelection = PhotoSelection(), options: PickerOptions = .init()
    ) {
      self.importer = importer
      self.selection = selection
      self.options = options
      // Files a killed app left parked by the Transferable import closures: listing and deleting them is file
      // I/O, so on a lane of PhotoIntake's own, not on the main thread that makes the model. Only items older
      // than an hour go, so an import that parks one meanwhile is not disturbed.
      Task.detached { _ = await BlockingLanes.io.run { ReceivedFileHandOver.shared.sweep(olderThan: 3600) } }
    }

    /// The items to give `PhotosPicker` so it opens with the selection preselected (none where PhotoKit does not
    /// allow it).
    public var preselectedPickerItems: [PhotosPickerItem] {
      options.preselectedAssetIdentifiers(for: selection).map(PhotosPickerItem.init(itemIdentifier:))
    }

    /// `PhotosPicker`'s bound selection made to follow ``selection`` after the app removed or reordered
    /// items: the removed ones leave it and the rest take the app's order (``PickerUpdatePlan``), keeping the
    /// picker's own items. Unlike `PHPickerViewController`, a binding can also select, so items of the selection
    /// the picker lacks are added by identifier. Without identifiers (no photo library) the picker's items
    /// cannot be matched, and the result is ``preselectedPickerItems``.
    public func pickerItems(following items: [PhotosPickerItem]) -> [PhotosPickerItem] {
      let wanted = options.preselectedAssetIdentifiers(for: selection)
      let identifiers = items.compactMap(\.itemIdentifier)
      guard identifiers.count == items.count else { return preselectedPickerItems }
      let plan = PickerUpdatePlan(picker: identifiers, app: wanted)
      guard !plan.isEmpty || !plan.notInPicker.isEmpty else { return items }
      return plan.binding(items, identifier: \.itemIdentifier, adding: PhotosPickerItem.init(itemIdentifier:))
    }

    /// Imports a `PhotosPicker` selection. A selection that lists exactly the selection's identifiers in its
    /// order (nothing new, nothing removed, nothing moved) does nothing: ``SelectionMerge`` would reuse every
    /// item, whether or not the picker offers it again.
    public func pick(_ items: [PhotosPickerItem]) {
      let unchanged = items.map(\.itemIdentifier) == preselectedPickerItems.map(\.itemIdentifier)
      guard !unchanged else { return }
      importResults(items.map(PhotosPickerItemAdapter.pickedResult(for:)))
    }

    /// Imports picker results merged into ``selection``. A call made while an import runs waits for it, so each
    /// merges into the selection the previous one produced (continuous selection changes often).
    public func importResults(_ results: [PickedResult]) {
      let previous = running
      running = Task { [weak self] in
        await previous?.value
        await self?.run(results)
      }
    }

    /// Stops the running import; picks not yet stored are dropped, nothing partial is kept.
    public func cancel() { session?.cancel() }

    /// Replaces the selection (after the app removed an item, or restored a saved selection).
    public func setSelection(_ selection: PhotoSelection) { self.selection = selection }

    private func run(_ results: [PickedResult]) async {
      let before = selection
      let session = PickImport(importer: importer, livePhotos: options.livePhotos)
        .start(results, previous: options.mergeBase(for: before))
      self.session = session
      isImporting = true
      picks = session.plan.picks.indices.map { Pick(id: $0) }
      overall = nil
      for await event in session {
        switch event {
        case .pickProgress(let index, let fraction):
          picks[index].fraction = fraction
        case .pickFinished(let report):
          picks[report.index].fraction = 1
          picks[report.index].result = report.result
          picks[report.index].motionError = report.motionError
        case .progress(let progress):
          overall = progress
        case .started, .finished:
          break
        }
      }
      let outcome = await session.outcome()
      selection = options.selection(after: outcome.selection, previous: before, current: selection)
      lastOutcome = outcome
      isImporting = false
      self.session = nil
    }
  }
#endif
