/// What to tell an embedded picker so that its selection follows the app's: the assets to deselect and the
/// moves that put the rest in the app's order.
///
/// An inline or compact picker with continuous selection (iOS 17) stays on screen next to the app's own list.
/// When the user removes or reorders a photo in that list, the picker still shows it selected, in the old
/// order, until it is told: `PHPickerViewController.deselectAssets(withIdentifiers:)` and
/// `moveAsset(withIdentifier:afterAssetWithIdentifier:)`. This plan is the decision of what to send; the Apple
/// layer only sends it.
///
/// The plan is minimal: it deselects exactly the assets the app no longer has, and moves the fewest assets
/// (those outside a longest run that is already in the app's order). A picker cannot be told to *select*
/// anything, so assets the app has and the picker does not are reported in ``notInPicker`` and never sent.
///
/// ```swift
/// let plan = PickerUpdatePlan(picker: ["A", "B", "C", "D"], app: ["D", "A", "C"])
/// plan.deselect   // ["B"]
/// plan.moves      // [Move(identifier: "D", after: nil)]
/// ```
///
/// Apply the deselections first, then the moves in order: each move names only assets that stay selected,
/// and each is correct given the ones before it.
public struct PickerUpdatePlan: Sendable, Hashable {
  /// One `moveAsset(withIdentifier:afterAssetWithIdentifier:)` call.
  public struct Move: Sendable, Hashable, CustomStringConvertible {
    /// The asset to move.
    public let identifier: String
    /// The asset it goes right after; nil moves it to the front ("If `afterIdentifier` is nil, the identifier
    /// you specify moves to the beginning of the picker", PhotosUI documentation).
    public let after: String?

    /// A move of `identifier` to right after `after` (to the front when nil).
    public init(identifier: String, after: String?) {
      self.identifier = identifier
      self.after = after
    }

    /// "D after nil", for test output.
    public var description: String { "\(identifier) after \(after ?? "nil")" }
  }

  /// The assets to deselect (`deselectAssets(withIdentifiers:)`), in the picker's order.
  public let deselect: [String]
  /// The moves, to send in this order after the deselections.
  public let moves: [Move]
  /// Assets the app has that the picker does not show as selected, in the app's order. They are not sent: a
  /// picker can deselect and reorder, never select. The next picker opened with the app's selection
  /// preselected shows them.
  public let notInPicker: [String]
  /// The picker's order once the plan is applied: the app's order without ``notInPicker``.
  public let result: [String]
  /// The app's order, each identifier once.
  private let wanted: [String]

  /// The plan that turns the picker's selection `picker` into the app's `app`, both in their order.
  ///
  /// An identifier listed twice counts once, at its first place, on either side: a picker never shows an asset
  /// twice, and a selection that lists one twice means the first place.
  public init(picker: [String], app: [String]) {
    let current = Self.uniqued(picker)
    let wanted = Self.uniqued(app)
    self.wanted = wanted
    let wantedSet = Set(wanted)
    let currentSet = Set(current)
    deselect = current.filter { !wantedSet.contains($0) }
    notInPicker = wanted.filter { !currentSet.contains($0) }
    let target = wanted.filter { currentSet.contains($0) }
    result = target

    // What stays, in the picker's order, as positions in the target order. The assets on a longest increasing
    // run of those positions are already in the app's order relative to each other: they stay put, and every
    // other asset is moved once. Fewer moves are impossible, since each move fixes at most one asset that is
    // out of order.
    let position = Dictionary(uniqueKeysWithValues: target.enumerated().map { ($1, $0) })
    let kept = current.compactMap { position[$0] }
    let settled = Set(longestIncreasingRun(kept).map { kept[$0] })

    // Walking the target in order, an asset that is not settled goes right after its predecessor in the
    // target. After each step the settled assets and those already walked are in target order relative to
    // each other, so the last step leaves the whole selection in target order.
    var moves: [Move] = []
    for (index, identifier) in target.enumerated() where !settled.contains(index) {
      moves.append(Move(identifier: identifier, after: index == 0 ? nil : target[index - 1]))
    }
    self.moves = moves
  }

  /// Whether there is nothing to send.
  public var isEmpty: Bool { deselect.isEmpty && moves.isEmpty }

  /// A selection that the app may set as a whole (`PhotosPicker(selection:)`'s binding), following the app:
  /// `elements` in the app's order without the removed ones, plus `adding(identifier)` for each of
  /// ``notInPicker`` at its place, since a binding, unlike `PHPickerViewController`, can select. Elements
  /// without an identifier are kept at the end.
  public func binding<Element>(
    _ elements: [Element], identifier: (Element) -> String?, adding: (String) -> Element
  ) -> [Element] {
    var byIdentifier: [String: Element] = [:]
    var anonymous: [Element] = []
    for element in elements {
      if let key = identifier(element) {
        if byIdentifier[key] == nil { byIdentifier[key] = element }
      } else {
        anonymous.append(element)
      }
    }
    return wanted.map { byIdentifier[$0] ?? adding($0) } + anonymous
  }

  private static func uniqued(_ identifiers: [String]) -> [String] {
    var seen = Set<String>()
    return identifiers.filter { seen.insert($0).inserted }
  }
}
