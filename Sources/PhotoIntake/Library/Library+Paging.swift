extension Library {
  /// The order of ``list(order:limit:after:)``.
  public enum ListOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// Batches in import order, each in the user's order. An asset in several batches is listed in each.
    case batch
    /// By capture date when known, else import date, oldest first; each asset once.
    case date
  }

  /// Where the next page starts; opaque to callers.
  public struct ListCursor: Sendable, Hashable, Codable {
    var order: ListOrder
    var primary: Double
    var secondary: String
  }

  /// One page of assets and the cursor of the next page (nil on the last page).
  public struct Page: Sendable {
    /// The assets of this page, in the order asked for.
    public var assets: [Asset]
    /// Pass to ``Library/list(order:limit:after:)`` for the next page; nil on the last page.
    public var next: ListCursor?
  }
}
