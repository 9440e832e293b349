/// One result of a picker session, as the portable code sees a `PHPickerResult` or a `PhotosPickerItem`: the
/// asset's local identifier (when the picker was given a photo library) and its provider.
public struct PickedResult: Sendable {
  /// `PHPickerResult.assetIdentifier` / `PhotosPickerItem.itemIdentifier`.
  public var assetIdentifier: String?
  /// What loads the result's file.
  public var provider: any FileRepresentationProviding

  /// A result with its identifier (nil without a photo library) and its provider.
  public init(assetIdentifier: String?, provider: any FileRepresentationProviding) {
    self.assetIdentifier = assetIdentifier
    self.provider = provider
  }

  /// What ``SelectionMerge`` needs to know of it.
  public var pickedItem: PickedItem {
    PickedItem(assetIdentifier: assetIdentifier, hasItemProvider: !provider.registeredTypeIdentifiers.isEmpty)
  }
}

/// What to do with Live Photos.
public enum LivePhotoPolicy: String, Sendable, Hashable, Codable, CaseIterable {
  /// Keep the still and its movie, as two assets of one picked item (``PhotoSelection/Item/pairedVideo``).
  case keepPair
  /// Keep the still only, as a photo.
  case stillOnly
}

/// How one picked result is loaded.
public enum PickLoad: Sendable, Hashable {
  /// One file of this type (a photo, a video, or a Live Photo's still under ``LivePhotoPolicy/stillOnly``).
  case file(typeIdentifier: String)
  /// A Live Photo bundle: the still and, when `keepsMovie`, the movie — one or two import items.
  case livePhoto(bundleTypeIdentifier: String, keepsMovie: Bool)
  /// Nothing is registered (a preselected result that stayed selected).
  case nothing

  /// Decides how to load a result from its registered types.
  ///
  /// A provider that registers a Live Photo bundle is a Live Photo: under ``LivePhotoPolicy/keepPair`` the bundle
  /// is loaded; otherwise, and for every other provider, ``RepresentationChoice`` picks the least-derived still
  /// or movie. A provider that registers only a bundle is loaded as a bundle whatever the policy, since there is
  /// nothing else (the movie is then dropped under ``LivePhotoPolicy/stillOnly``).
  ///
  /// A bundle whose load fails falls back to the still the provider also registers (``LivePhotoLoad``): the
  /// photo is kept without its motion rather than lost with it.
  public static func decide(registered: [String], livePhotos: LivePhotoPolicy) -> PickLoad {
    let bundle = registered.first(where: LivePhotoBundle.isBundleType)
    if let bundle, livePhotos == .keepPair {
      return .livePhoto(bundleTypeIdentifier: bundle, keepsMovie: true)
    }
    let others = registered.filter { !LivePhotoBundle.isBundleType($0) }
    if let type = RepresentationChoice.preferredTypeIdentifier(among: others) {
      return .file(typeIdentifier: type)
    }
    if let bundle { return .livePhoto(bundleTypeIdentifier: bundle, keepsMovie: false) }
    return .nothing
  }

  /// How many import items the load becomes.
  public var itemCount: Int {
    switch self {
    case .file: 1
    case .livePhoto(_, let keepsMovie): keepsMovie ? 2 : 1
    case .nothing: 0
    }
  }
}
