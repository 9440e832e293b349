import PhotoIntake
import PhotoIntakeTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct PickerUpdatePlanTests {
  /// Single letters as identifiers: "ABC" is ["A", "B", "C"].
  static func ids(_ text: String) -> [String] { text.map { String($0) } }

  /// The picker's side of the plan, written from the PhotosUI documentation rather than from the plan:
  /// `deselectAssets(withIdentifiers:)` and `moveAsset(withIdentifier:afterAssetWithIdentifier:)` ignore
  /// assets that are not selected; a nil `afterIdentifier` moves to the beginning.
  static func pickerApplying(_ plan: PickerUpdatePlan, to selection: [String]) -> [String] {
    var selected: [String] = []
    for identifier in selection where !selected.contains(identifier) { selected.append(identifier) }
    selected.removeAll { plan.deselect.contains($0) }
    for move in plan.moves {
      guard let from = selected.firstIndex(of: move.identifier) else { continue }
      if let after = move.after, !selected.contains(after) { continue }
      selected.remove(at: from)
      if let after = move.after {
        selected.insert(move.identifier, at: selected.firstIndex(of: after)! + 1)
      } else {
        selected.insert(move.identifier, at: 0)
      }
    }
    return selected
  }

  /// The fewest moves that sort `start` into `goal` (same elements), by breadth-first search over every
  /// arrangement: an oracle independent of the plan's longest-run argument, for small selections.
  static func fewestMoves(from start: [String], to goal: [String]) -> Int {
    var seen: Set<[String]> = [start]
    var frontier = [start]
    var distance = 0
    while !frontier.contains(goal) {
      distance += 1
      var next: [[String]] = []
      for arrangement in frontier {
        for from in arrangement.indices {
          var rest = arrangement
          let moved = rest.remove(at: from)
          for to in 0...rest.count {
            var candidate = rest
            candidate.insert(moved, at: to)
            if seen.insert(candidate).inserted { next.append(candidate) }
          }
        }
      }
      frontier = next
    }
    return distance
  }

  @Test(arguments: [
    // picker, app, deselect, moves, not in picker
    ("ABCD", "DAC", "B", "D after nil", ""),  // the case: one removed, one moved to the front
    ("", "", "", "", ""),
    ("ABC", "ABC", "", "", ""),  // nothing changed: nothing to send
    ("ABC", "", "ABC", "", ""),  // the app cleared its selection
    ("", "AB", "", "", "AB"),  // a picker cannot be told to select
    ("ABC", "CBA", "", "B after C, A after B", ""),  // reversed: all but one move
    ("ABCDE", "BCDEA", "", "A after E", ""),  // one item to the end
    ("ABCDE", "EABCD", "", "E after nil", ""),  // one item to the front
    ("AAB", "BAB", "", "A after B", ""),  // duplicates count once, at their first place
    ("AB", "XBA", "", "A after B", "X"),  // an identifier the picker never had is reported, not sent
    ("ABC", "CXA", "B", "A after C", "X"),  // either of the two could move; one does
  ])
  func plans(_ picker: String, _ app: String, _ deselect: String, _ moves: String, _ missing: String) {
    let plan = PickerUpdatePlan(picker: Self.ids(picker), app: Self.ids(app))
    #expect(plan.deselect.joined() == deselect)
    #expect(plan.moves.map(\.description).joined(separator: ", ") == moves)
    #expect(plan.notInPicker.joined() == missing)
    #expect(plan.isEmpty == (deselect.isEmpty && moves.isEmpty))
    #expect(Self.pickerApplying(plan, to: Self.ids(picker)) == plan.result)
  }

  /// Many random selections and edits (reorders, removals, additions, repeats): the picker, applying the plan
  /// as PhotoKit documents, ends in the app's order without what it cannot select, and no plan moves more
  /// assets than needed.
  @Test(arguments: 0..<8)
  func randomEditsReachTheAppsOrder(_ seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    for _ in 0..<250 {
      let pool = (0..<14).map { "asset-\($0)" }
      let picker = Array(pool.shuffled(using: &random).prefix(Int.random(in: 0...9, using: &random)))
      // The app keeps some of the picker's, in a new order, adds others, and may list one twice.
      var app = picker.filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
      app += pool.filter { !picker.contains($0) }.filter { _ in Int.random(in: 0..<6, using: &random) == 0 }
      app.shuffle(using: &random)
      if let repeated = app.randomElement(using: &random), Bool.random(using: &random) {
        app.insert(repeated, at: Int.random(in: 0...app.count, using: &random))
      }

      let plan = PickerUpdatePlan(picker: picker, app: app)
      var expected: [String] = []
      for identifier in app where picker.contains(identifier) && !expected.contains(identifier) {
        expected.append(identifier)
      }
      #expect(Self.pickerApplying(plan, to: picker) == expected, "picker \(picker) app \(app)")
      #expect(plan.result == expected)
      #expect(Set(plan.deselect) == Set(picker).subtracting(app))
      #expect(Set(plan.notInPicker) == Set(app).subtracting(picker))
      let kept = picker.filter { expected.contains($0) }
      if kept.count <= 6 {
        #expect(plan.moves.count == Self.fewestMoves(from: kept, to: expected), "picker \(picker) app \(app)")
      }
    }
  }

  /// The simulated picker applies the plan through the same calls as `PHPickerViewController`, and its Done
  /// then returns the selection in the app's order.
  @Test(arguments: 0..<4)
  func simulatedPickerFollowsTheApp(_ seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let directory = TemporaryDirectory(inMemory: true)
    let device = directory.device()
    let photos = device.add((0..<10).map { _ in .photo() })
    let session = try SimulatedPicker(device: device).present(orderedConfiguration(device))
    for identifier in photos.shuffled(using: &random).prefix(7) { try session.select(identifier) }

    for _ in 0..<20 {
      let shown = session.selectedIdentifiers
      var app = shown.filter { _ in Int.random(in: 0..<5, using: &random) > 0 }.shuffled(using: &random)
      if let extra = photos.first(where: { !shown.contains($0) }) { app.append(extra) }
      let plan = PickerUpdatePlan(picker: shown, app: app)
      session.deselectAssets(withIdentifiers: plan.deselect)
      for move in plan.moves {
        session.moveAsset(withIdentifier: move.identifier, afterAssetWithIdentifier: move.after)
      }
      #expect(session.selectedIdentifiers == plan.result)
      #expect(plan.result == app.filter { shown.contains($0) })
      // The user goes on picking in between, as in a continuous picker.
      if let next = photos.first(where: { !session.selectedIdentifiers.contains($0) }) {
        try session.select(next)
      }
    }
    let final = session.selectedIdentifiers
    #expect(try session.done().map(\.assetIdentifier) == final)
  }

  @Test func simulatedPickerIgnoresWhatPhotoKitIgnores() throws {
    let directory = TemporaryDirectory(inMemory: true)
    let device = directory.device()
    let photos = device.add([.photo(), .photo(), .photo()])
    let session = try SimulatedPicker(device: device).present(orderedConfiguration(device))
    try session.select(photos[0])
    try session.select(photos[1])
    session.moveAsset(withIdentifier: photos[2], afterAssetWithIdentifier: nil)  // not selected
    session.moveAsset(withIdentifier: photos[0], afterAssetWithIdentifier: photos[2])  // target not selected
    session.deselectAssets(withIdentifiers: [photos[2], "no-such-asset"])
    #expect(session.selectedIdentifiers == [photos[0], photos[1]])

    // Without a photo library PhotoKit ignores both calls.
    var configuration = SimulatedPickerConfiguration()
    configuration.selection = .ordered
    configuration.selectionLimit = 0
    let anonymous = try SimulatedPicker(device: device).present(configuration)
    try anonymous.select(photos[0])
    try anonymous.select(photos[1])
    anonymous.deselectAssets(withIdentifiers: [photos[0]])
    anonymous.moveAsset(withIdentifier: photos[1], afterAssetWithIdentifier: nil)
    #expect(anonymous.selectedIdentifiers == [photos[0], photos[1]])
  }

  /// A binding (`PhotosPicker`'s) ends as the app's selection: its own elements in the app's order, the
  /// removed ones gone, and the app's others added at their places.
  @Test(arguments: 0..<4)
  func bindingBecomesTheAppsSelection(_ seed: UInt64) {
    struct Item: Equatable {
      let identifier: String
      let fromPicker: Bool
    }
    var random = SeededGenerator(seed: seed)
    for _ in 0..<200 {
      let pool = (0..<10).map { "asset-\($0)" }
      let picker = Array(pool.shuffled(using: &random).prefix(Int.random(in: 0...7, using: &random)))
      let app = Array(pool.shuffled(using: &random).prefix(Int.random(in: 0...7, using: &random)))
      let items = picker.map { Item(identifier: $0, fromPicker: true) }
      let plan = PickerUpdatePlan(picker: picker, app: app)
      let bound = plan.binding(items, identifier: \.identifier) { Item(identifier: $0, fromPicker: false) }
      #expect(bound.map(\.identifier) == app)
      #expect(bound.allSatisfy { $0.fromPicker == picker.contains($0.identifier) })
    }
  }

  /// A binding of picker items keeps its own elements (with what they carry), and those without an identifier.
  @Test func bindingKeepsTheElements() {
    struct Item: Equatable {
      let identifier: String?
      let payload: Int
    }
    let items = [
      Item(identifier: "A", payload: 1), Item(identifier: nil, payload: 2), Item(identifier: "B", payload: 3),
      Item(identifier: "C", payload: 4),
    ]
    let plan = PickerUpdatePlan(picker: ["A", "B", "C"], app: ["C", "A", "X", "A"])
    #expect(
      plan.binding(items, identifier: \.identifier) { Item(identifier: $0, payload: 0) } == [
        Item(identifier: "C", payload: 4), Item(identifier: "A", payload: 1),
        Item(identifier: "X", payload: 0),
        Item(identifier: nil, payload: 2),
      ])
  }
}
