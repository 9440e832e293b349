/// An app's own spelling of the main queue: a function or computed property that only hands it back
/// (`func videoQueue() -> DispatchQueue { return DispatchQueue.main }`), so `videoQueue().async { … }`
/// runs its block on main as `DispatchQueue.main.async { … }` does; or a constant or stored property set to
/// it (`let queue = DispatchQueue.main`, `let q = dispatch_get_main_queue()`), so `queue.async { … }` and
/// `dispatch_async(q) { … }` do too.
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
    for file in files {
      let values = mainQueueValues(in: file)
      main.formUnion(values.main)
      other.formUnion(values.other)
    }
    return (main.subtracting(other), observed)
  }

  /// The names a `let` or `var` of `file` gives the main queue (`let queue = DispatchQueue.main`,
  /// `private let callbackQueue: DispatchQueue = .main`, `let q = dispatch_get_main_queue()`), and the
  /// names it gives any other value: a name given both, anywhere in the project, is not the main queue.
  /// One pass over the file's tokens.
  static func mainQueueValues(in file: SourceFile) -> (main: Set<UInt64>, other: Set<UInt64>) {
    var main: Set<UInt64> = []
    var other: Set<UInt64> = []
    for name in 1..<max(1, file.count) where file.kind(name) == .identifier {
      let keyword = file.word(name - 1)
      guard keyword == .let || keyword == .var else { continue }
      var value = name + 1
      var annotated = false
      if file.kind(value) == .colon, file.word(value + 1) == .DispatchQueue {
        annotated = true
        value += 2
      }
      guard file.word(value) == .opAssign else { continue }
      value += 1
      if isMainQueueValue(file, at: value, annotated: annotated) {
        main.insert(hash(file, name))
      } else {
        other.insert(hash(file, name))
      }
    }
    return (main, other)
  }

  /// Whether the value starting at `start` is the main queue and nothing more: `DispatchQueue.main`,
  /// `.main` after a `DispatchQueue` annotation, or `dispatch_get_main_queue()` (read as `main`).
  private static func isMainQueueValue(_ file: SourceFile, at start: Int, annotated: Bool) -> Bool {
    let end: Int
    if file.word(start) == .DispatchQueue, file.kind(start + 1) == .dot, file.word(start + 2) == .main {
      end = start + 3
    } else if annotated, file.kind(start) == .dot, file.word(start + 1) == .main {
      end = start + 2
    } else if file.kind(start) == .identifier, file.text(start) == "dispatch_get_main_queue",
      file.kind(start + 1) == .leftParen, file.kind(start + 2) == .rightParen
    {
      end = start + 3
    } else {
      return false
    }
    // `DispatchQueue.main.async { … }` assigned is not the queue.
    return file.kind(end) != .dot && file.kind(end) != .leftParen
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
    guard !mainQueueHelpers.isEmpty else { return false }
    let word = file.word(callee)
    if word == .dispatchAsync || word == .dispatchSync || word == .dispatchAfter {
      // `dispatch_async(q) { … }`, `dispatch_after(time, q, { … })`: an argument that is only the name.
      guard file.kind(callee + 1) == .leftParen, let close = file.match(callee + 1) else { return false }
      var start = callee + 2
      while start < close {
        let end = file.endOfArgument(from: start, close: close)
        if end == start + 1, file.kind(start) == .identifier,
          mainQueueHelpers.contains(Self.hash(file, start))
        {
          return true
        }
        start = end + 1
      }
      return false
    }
    guard Self.queueCalls.contains(word), file.kind(callee - 1) == .dot else { return false }
    var name = callee - 2
    if file.kind(name) == .rightParen, file.kind(name - 1) == .leftParen { name -= 2 }
    guard file.kind(name) == .identifier,
      file.postfixStart(endingAt: callee) == name
        || (file.word(name - 2) == .selfKeyword && file.postfixStart(endingAt: callee) == name - 2)
    else { return false }
    return mainQueueHelpers.contains(Self.hash(file, name))
  }
}
