import PhotoIntake

/// One presentation of a ``SimulatedPicker``: the test taps assets as the user would, then Done or Cancel.
public final class SimulatedPickerSession: Sendable {
  private struct State {
    var selected: [String]
    var ended = false
  }

  /// The device whose library the picker shows.
  public let device: SimulatedPhotoLibrary
  /// The configuration the picker was presented with.
  public let configuration: SimulatedPickerConfiguration
  private let state: Protected<State>

  init(device: SimulatedPhotoLibrary, configuration: SimulatedPickerConfiguration) {
    self.device = device
    self.configuration = configuration
    let onDevice = Set(device.allAssets.map(\.localIdentifier))
    var seen = Set<String>()
    let preselected = configuration.preselectedAssetIdentifiers.filter {
      onDevice.contains($0) && seen.insert($0).inserted
    }
    state = Protected(State(selected: preselected))
  }

  /// The assets the picker shows: every asset on the device that passes the filter, whatever the app's access.
  public var visibleAssets: [SimulatedAsset] {
    device.allAssets.filter { configuration.filter?.matches($0) ?? true }
  }

  /// The selected identifiers, in selection order.
  public var selectedIdentifiers: [String] { state.withLock { $0.selected } }

  /// Taps an asset to select it.
  public func select(_ localIdentifier: String) throws(SimulatedPicker.Error) {
    guard let asset = device.inspect(localIdentifier) else { throw .noSuchAsset(localIdentifier) }
    if let filter = configuration.filter, !filter.matches(asset) { throw .filteredOut(localIdentifier) }
    let limit = configuration.selectionLimit
    let problem: SimulatedPicker.Error? = state.withLock { state in
      guard !state.ended else { return .sessionEnded }
      guard !state.selected.contains(localIdentifier) else { return nil }
      if limit > 0, state.selected.count >= limit { return .selectionLimitReached(limit) }
      state.selected.append(localIdentifier)
      return nil
    }
    if let problem { throw problem }
  }

  /// Taps a selected asset to deselect it.
  public func deselect(_ localIdentifier: String) {
    state.withLock { $0.selected.removeAll { $0 == localIdentifier } }
  }

  /// The app deselects assets, like `PHPickerViewController.deselectAssets(withIdentifiers:)` (iOS 16).
  ///
  /// As PhotoKit documents, identifiers that are invalid or not selected are ignored, and so is the whole call
  /// when the configuration was made without a photo library.
  public func deselectAssets(withIdentifiers identifiers: [String]) {
    guard configuration.photoLibrary != nil else { return }
    let removed = Set(identifiers)
    state.withLock { $0.selected.removeAll { removed.contains($0) } }
  }

  /// The app reorders a selected asset, like `PHPickerViewController.moveAsset(withIdentifier:
  /// afterAssetWithIdentifier:)` (iOS 16): right after `afterIdentifier`, or to the front when it is nil.
  ///
  /// Ignored when either asset is not selected (PhotoKit ignores "assets that are invalid or aren't in a
  /// selected state"), or when the configuration was made without a photo library.
  public func moveAsset(withIdentifier identifier: String, afterAssetWithIdentifier afterIdentifier: String?)
  {
    guard configuration.photoLibrary != nil, identifier != afterIdentifier else { return }
    state.withLock { state in
      guard let from = state.selected.firstIndex(of: identifier) else { return }
      if let afterIdentifier, !state.selected.contains(afterIdentifier) { return }
      state.selected.remove(at: from)
      let to = afterIdentifier.flatMap { state.selected.firstIndex(of: $0).map { $0 + 1 } } ?? 0
      state.selected.insert(identifier, at: to)
    }
  }

  /// Taps Done (or Add).
  ///
  /// - Returns: one result per selected asset: in selection order with `.ordered` selection, in library order
  ///   otherwise. Preselected assets that stayed selected come back with empty item providers.
  /// - Throws: ``SimulatedPicker/Error/doneDisabled(selected:limit:)`` when more assets are selected than the
  ///   limit (possible through preselection).
  public func done() throws(SimulatedPicker.Error) -> [SimulatedPickerResult] {
    let limit = configuration.selectionLimit
    let selected: [String] = try state.withLock { state in
      Result.typed { () throws(SimulatedPicker.Error) in
        guard !state.ended else { throw .sessionEnded }
        if limit > 0, state.selected.count > limit {
          throw .doneDisabled(selected: state.selected.count, limit: limit)
        }
        state.ended = true
        return state.selected
      }
    }.typedGet()
    var ordered = selected
    if configuration.selection == .default {
      let position = Dictionary(
        uniqueKeysWithValues: device.allAssets.enumerated().map { ($1.localIdentifier, $0) })
      ordered.sort { position[$0, default: .max] < position[$1, default: .max] }
    }
    let preselected = Set(configuration.preselectedAssetIdentifiers)
    return ordered.map { identifier in
      SimulatedPickerResult(
        assetIdentifier: configuration.photoLibrary == nil ? nil : identifier,
        itemProvider: preselected.contains(identifier)
          ? .empty
          : SimulatedItemProvider(
            device: device, localIdentifier: identifier, mode: configuration.preferredAssetRepresentationMode)
      )
    }
  }

  /// Taps Cancel.
  ///
  /// - Returns: exactly the preselected identifiers, with empty item providers (none without preselection),
  ///   as the `preselectedAssetIdentifiers` documentation says.
  public func cancel() -> [SimulatedPickerResult] {
    state.withLock { $0.ended = true }
    return configuration.preselectedAssetIdentifiers.map {
      SimulatedPickerResult(assetIdentifier: $0, itemProvider: .empty)
    }
  }

  /// Selects `identifiers` in order, then taps Done.
  public func pick(_ identifiers: [String]) throws(SimulatedPicker.Error) -> [SimulatedPickerResult] {
    for identifier in identifiers { try select(identifier) }
    return try done()
  }
}

/// One selected asset, like `PHPickerResult`.
public struct SimulatedPickerResult: Sendable {
  /// The asset's local identifier; nil unless the configuration was made with a photo library.
  public let assetIdentifier: String?
  /// The asset's representations; empty for a preselected asset that stayed selected.
  public let itemProvider: SimulatedItemProvider

  /// What `PhotoIntake.SelectionMerge` needs of the result.
  public var pickedItem: PickedItem {
    PickedItem(
      assetIdentifier: assetIdentifier, hasItemProvider: !itemProvider.registeredTypeIdentifiers.isEmpty)
  }
}
