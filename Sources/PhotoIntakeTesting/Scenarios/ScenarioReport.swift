import PhotoIntake

/// What a ``SimulationScenario`` did and found: a readable timeline and a machine-checkable outcome.
public struct ScenarioReport: Sendable {
  /// The scenario that ran.
  public var scenario: SimulationScenario
  /// What happened, in simulated time.
  public var timeline: [TimelineEntry]
  /// The outcome as an ordered tree of values. Scenarios that compare a naive app with PhotoIntake put the two
  /// side by side under the keys `naive` and `photoIntake`.
  public var outcome: ScenarioValue
  /// Whether PhotoIntake did what the scenario demonstrates.
  public var succeeded: Bool
}

/// One line of a timeline.
public struct TimelineEntry: Sendable, Hashable {
  /// Simulated time since the scenario started.
  public var time: SimulatedClock.Instant
  /// Who acted: "user", "system", "naive app", "PhotoIntake".
  public var actor: String
  /// What happened.
  public var text: String
}

/// A JSON-like value with ordered object keys, so outcomes print and compare stably.
public indirect enum ScenarioValue: Sendable, Hashable {
  /// A string.
  case string(String)
  /// An integer.
  case int(Int)
  /// A Boolean.
  case bool(Bool)
  /// An array.
  case array([ScenarioValue])
  /// An object, its keys in order.
  case object([Field])

  /// One key of an object.
  public struct Field: Sendable, Hashable {
    /// The key.
    public var key: String
    /// Its value.
    public var value: ScenarioValue

    /// A key and its value.
    public init(_ key: String, _ value: ScenarioValue) {
      self.key = key
      self.value = value
    }
  }

  /// An object from key-value pairs, in order.
  public static func fields(_ pairs: KeyValuePairs<String, ScenarioValue>) -> ScenarioValue {
    .object(pairs.map { Field($0.key, $0.value) })
  }

  /// An array of strings.
  public static func strings(_ values: [String]) -> ScenarioValue { .array(values.map(ScenarioValue.string)) }

  /// An array of integers.
  public static func ints(_ values: [Int]) -> ScenarioValue { .array(values.map(ScenarioValue.int)) }

  /// The value under `key`, for objects.
  public subscript(key: String) -> ScenarioValue? {
    guard case .object(let fields) = self else { return nil }
    return fields.first { $0.key == key }?.value
  }

  /// The integer, if this is one.
  public var intValue: Int? { if case .int(let value) = self { value } else { nil } }
  /// The string, if this is one.
  public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
  /// The Boolean, if this is one.
  public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
  /// The elements, if this is an array.
  public var arrayValue: [ScenarioValue]? { if case .array(let value) = self { value } else { nil } }
}

/// Collects timeline entries against a simulated clock.
final class Timeline: Sendable {
  let clock: SimulatedClock
  private let entries = Protected<[TimelineEntry]>([])

  init(clock: SimulatedClock) { self.clock = clock }

  func log(_ actor: String, _ text: String) {
    let entry = TimelineEntry(time: clock.now, actor: actor, text: text)
    entries.withLock { $0.append(entry) }
  }

  var all: [TimelineEntry] { entries.current }
}
