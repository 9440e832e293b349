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

    public init(
      importer: Importer, selection: PhotoSelection = PhotoSelection(), options: PickerOptions = .init()
    ) {
      self.importer = importer
      self.selection = selection
      self.options = options
    }

    /// A picker configured from ``options``, with this coordinator as its delegate.
    public func makePicker() -> PHPickerViewController {
      let picker = PHPickerViewController(configuration: options.pickerConfiguration(preselecting: selection))
      picker.delegate = self
      return picker
    }

    /// Stops a running import; picks not yet stored are dropped.
    public func cancelImport() { session?.cancel() }

    public func picker(_ picker: PHPickerViewController, didFinishPicking results: [PHPickerResult]) {
      // "The picker won't be automatically dismissed when this method is called" (PHPicker.h); a continuous,
      // embedded picker stays where the app put it.
      if !options.continuous { picker.dismiss(animated: true) }
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
      for await event in session { onEvent?(event) }
      let outcome = await session.outcome()
      selection = options.selection(after: outcome.selection, previous: before)
      self.session = nil
      onFinish?(outcome)
    }
  }
#endif
