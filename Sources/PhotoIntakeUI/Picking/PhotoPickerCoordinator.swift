#if canImport(PhotosUI) && canImport(UIKit)
  import PhotoIntake
  import PhotosUI
  import UIKit

  /// The UIKit picker: makes a `PHPickerViewController` from ``PickerOptions`` and imports what the user picks.
  ///
  /// Each result's `NSItemProvider` is wrapped (``ItemProviderAdapter``) and handed to ``PickImport``, which
  /// chooses the best registered type, adopts each file inside `loadFileRepresentation`'s completion handler,
  /// forwards the returned `Progress`, keeps Live Photos as pairs and merges with the preselected selection.
  ///
  /// ```swift
  /// let coordinator = PhotoPickerCoordinator(importer: importer)
  /// coordinator.onEvent = { event in progressView.update(event) }
  /// present(coordinator.makePicker(), animated: true)
  /// ```
  @MainActor
  public final class PhotoPickerCoordinator: NSObject, PHPickerViewControllerDelegate {
    public let importer: Importer
    public var options: PickerOptions
    /// The selection, in the user's order; the next picker opens with it preselected.
    public private(set) var selection: PhotoSelection
    /// Called on the main actor with each event of a running import.
    public var onEvent: ((PickEvent) -> Void)?
    /// Called on the main actor when an import finished, with the new selection already stored.
    public var onFinish: ((PickOutcome) -> Void)?
    private var running: Task<Void, Never>?
    private var session: PickSession?
    /// The last picker made, while it lives: an embedded picker stays on screen and is told about the app's
    /// changes (``setSelection(_:)``).
    private weak var picker: PHPickerViewController?
    /// What that picker shows as selected, in its order: its preselection, then each delivered result list.
    private var pickerSelection: [String] = []

    public init(
      importer: Importer, selection: PhotoSelection = PhotoSelection(), options: PickerOptions = .init()
    ) {
      self.importer = importer
      self.selection = selection
      self.options = options
    }

    /// A picker configured from ``options``, with this coordinator as its delegate.
    public func makePicker() -> PHPickerViewController {
      let configuration = options.pickerConfiguration(preselecting: selection)
      let picker = PHPickerViewController(configuration: configuration)
      picker.delegate = self
      self.picker = picker
      pickerSelection = configuration.preselectedAssetIdentifiers
      return picker
    }

    /// Replaces the selection after the app removed or reordered items, and makes a picker that is still on
    /// screen (embedded, continuous) follow: the removed items are deselected in it and the rest moved into the
    /// app's order, as ``PickerUpdatePlan`` decides.
    ///
    /// `deselectAssets(withIdentifiers:)` and `moveAsset(withIdentifier:afterAssetWithIdentifier:)` exist since
    /// iOS 16 (PHPicker.h), but only iOS 17 embeds a picker (`PHPickerConfiguration.mode`, continuous
    /// selection); on iOS 16 the picker is a sheet that is gone by the time the app edits its selection, and the
    /// next one opens with the new selection preselected. The calls are ignored without a photo library, as
    /// PhotoKit documents, since results then carry no identifiers.
    ///
    /// - Returns: the plan that was sent; its ``PickerUpdatePlan/notInPicker`` lists items the picker cannot
    ///   be told to select.
    @discardableResult
    public func setSelection(_ selection: PhotoSelection) -> PickerUpdatePlan {
      self.selection = selection
      let plan = PickerUpdatePlan(picker: pickerSelection, app: selection.preselectedAssetIdentifiers)
      guard let picker, options.usesPhotoLibrary, !plan.isEmpty else { return plan }
      if !plan.deselect.isEmpty { picker.deselectAssets(withIdentifiers: plan.deselect) }
      if options.ordered {
        for move in plan.moves {
          picker.moveAsset(withIdentifier: move.identifier, afterAssetWithIdentifier: move.after)
        }
        pickerSelection = plan.result
      } else {
        // Without ordered selection the picker shows no order to follow.
        let removed = Set(plan.deselect)
        pickerSelection.removeAll { removed.contains($0) }
      }
      return plan
    }

    /// Stops a running import; picks not yet stored are dropped.
    public func cancelImport() { session?.cancel() }

    public func picker(_ picker: PHPickerViewController, didFinishPicking results: [PHPickerResult]) {
      // "The picker won't be automatically dismissed when this method is called" (PHPicker.h). Only a picker
      // that was itself presented is dismissed: `dismiss(animated:)` on an embedded (child) picker is handed
      // to the nearest presented ancestor, which is the app's own screen. A continuous picker stays too.
      if !options.continuous, picker.parent == nil, picker.presentingViewController != nil {
        picker.dismiss(animated: true)
      }
      pickerSelection = results.compactMap(\.assetIdentifier)
      importResults(
        results.map {
          PickedResult(assetIdentifier: $0.assetIdentifier, provider: ItemProviderAdapter($0.itemProvider))
        })
    }

    /// Imports results merged into ``selection``; a second call waits for the first, so each merges into the
    /// selection the previous one produced (continuous selection delivers one call per change).
    public func importResults(_ results: [PickedResult]) {
      let previous = running
      running = Task { [weak self] in
        await previous?.value
        await self?.run(results)
      }
    }

    private func run(_ results: [PickedResult]) async {
      let before = selection
      let session = PickImport(importer: importer, livePhotos: options.livePhotos)
        .start(results, previous: options.mergeBase(for: before))
      self.session = session
      // Keeps copying when the user switches apps; cancelled when the system's time runs out.
      let protection = BackgroundImportProtection(name: "PhotoIntake import of picked photos") {
        session.cancel()
      }
      defer { protection.end() }
      for await event in session { onEvent?(event) }
      let outcome = await session.outcome()
      selection = options.selection(after: outcome.selection, previous: before, current: selection)
      self.session = nil
      onFinish?(outcome)
    }
  }
#endif
