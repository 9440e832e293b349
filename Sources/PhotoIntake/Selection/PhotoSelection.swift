/// The photos a user has picked for something (a post, an album, a form), in their order, each backed by a
/// durable asset in the ``Library``.
///
/// Keep this, not picker results or temporary URLs: the asset survives restarts and a narrowed limited
/// selection, and the asset identifier lets the next picker session show the same photos as preselected.
/// `Codable`, so an app can store it with its own documents.
public struct PhotoSelection: Sendable, Hashable, Codable {
  /// One picked photo.
  public struct Item: Sendable, Hashable, Codable {
    /// The Photos local identifier the picker returned (`PHPickerResult.assetIdentifier`); nil when the picker
    /// was configured without a photo library, and then the item cannot be preselected.
    public var assetIdentifier: String?
    /// The durable copy in the app's library (for a Live Photo, its still).
    public var asset: AssetID
    /// A Live Photo's movie, kept as an asset of its own next to the still; nil for photos and videos, and for a
    /// Live Photo whose movie could not be imported (it is then shown as a photo).
    public var pairedVideo: AssetID?

    /// An item for the asset picked as `assetIdentifier`, with a Live Photo's movie when there is one.
    public init(assetIdentifier: String?, asset: AssetID, pairedVideo: AssetID? = nil) {
      self.assetIdentifier = assetIdentifier
      self.asset = asset
      self.pairedVideo = pairedVideo
    }
  }

  /// The items in the user's order.
  public var items: [Item]

  /// A selection of `items`, in the user's order.
  public init(items: [Item] = []) { self.items = items }

  /// The identifiers to preselect in the next picker session
  /// (`PHPickerConfiguration.preselectedAssetIdentifiers`), in the user's order.
  public var preselectedAssetIdentifiers: [String] { items.compactMap(\.assetIdentifier) }

  /// The assets in the user's order.
  public var assets: [AssetID] { items.map(\.asset) }
}

/// What a picker returned for one item, reduced to what ``SelectionMerge`` needs.
///
/// The Apple layer makes one from a `PHPickerResult`: its `assetIdentifier`, and whether its item provider
/// offers anything (a preselected item that stayed selected comes back with an empty provider).
public struct PickedItem: Sendable, Hashable {
  /// `PHPickerResult.assetIdentifier`; nil without a photo library.
  public var assetIdentifier: String?
  /// Whether the item provider has at least one registered type to load.
  public var hasItemProvider: Bool

  /// An item as the picker returned it.
  public init(assetIdentifier: String?, hasItemProvider: Bool) {
    self.assetIdentifier = assetIdentifier
    self.hasItemProvider = hasItemProvider
  }
}
