/// An app's own spelling of the main queue: a function or computed property that only hands it back
/// (`func videoQueue() -> DispatchQueue { return DispatchQueue.main }`), so `videoQueue().async { … }`
/// runs its block on main as `DispatchQueue.main.async { … }` does.
extension ProjectModel {
  /// The name hashes of the project's functions and computed properties without parameters whose whole
  /// body is `DispatchQueue.main` (with or without `return`), when no other function of that name hands
  /// back something else. One pass over the functions, a few tokens each.
  ///
  /// Also, per function, whether it is a stored property with observers (`var asset: AVAsset? { didSet
  /// { … } }`, a body of only `willSet` and `didSet`), whose observer runs when the property is set, not
  /// when it is read: worked out here once, so that resolving each call costs one look-up.
  static func mainQueueHelpers(_ functions: [Function], files: [SourceFile]) -> (
    helpers: Set<UInt64>, observed: [Bool]
  ) {
    var main: Set<UInt64> = []
    var other: Set<UInt64> = []
    var observed = [Bool](repeating: false, count: functions.count)
    for (id, function) in functions.enumerated() {
      let file = files[function.file]
      let scope = file.scope(function.scope)
      let name = hash(file, scope.name)
      if function.parameters.isEmpty, returnsMainQueue(file, body: file.body(of: function.scope)) {
        main.insert(name)
      } else {
        other.insert(name)
      }
      if file.word(scope.head) == .var {
        let first = file.word(scope.open + 1)
        observed[id] = first == .didSet || first == .willSet
      }
    }
    return (main.subtracting(other), observed)
  }

  /// `return DispatchQueue.main`, `DispatchQueue.main`, `return .main` or `.main`, and nothing else.
  private static func returnsMainQueue(_ file: SourceFile, body: Range<Int>) -> Bool {
    var start = body.lowerBound
    if start < body.upperBound, file.word(start) == .return { start += 1 }
    if start < body.upperBound, file.word(start) == .DispatchQueue { start += 1 }
    return body.upperBound - start == 2 && file.kind(start) == .dot && file.word(start + 1) == .main
  }

  /// Whether the queue call named at `callee` (`async` in `videoQueue().async`, `self.videoQueue.async`)
  /// is made on one of ``mainQueueHelpers``.
  func isOnMainQueueHelper(callee: Int, in file: SourceFile) -> Bool {
    guard !mainQueueHelpers.isEmpty, Self.queueCalls.contains(file.word(callee)),
      file.kind(callee - 1) == .dot
    else { return false }
    var name = callee - 2
    if file.kind(name) == .rightParen, file.kind(name - 1) == .leftParen { name -= 2 }
    guard file.kind(name) == .identifier,
      file.postfixStart(endingAt: callee) == name
        || (file.word(name - 2) == .selfKeyword && file.postfixStart(endingAt: callee) == name - 2)
    else { return false }
    return mainQueueHelpers.contains(Self.hash(file, name))
  }
}
