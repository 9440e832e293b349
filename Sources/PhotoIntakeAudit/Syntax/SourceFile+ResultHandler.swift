extension SourceFile {
  /// The closure scope a PhotoKit request named at `callee` (`requestImage(for:targetSize:…)`) hands its
  /// result to: its trailing closure, or a `resultHandler:` argument. Nil when the call passes none (a
  /// handler held in a variable).
  func resultHandler(ofCallAt callee: Int) -> Int? {
    guard kind(callee + 1) == .leftParen, let close = match(callee + 1) else { return nil }
    if kind(close + 1) == .leftBrace { return scopeOpened(at: close + 1) }
    var start = callee + 2
    while start < close {
      let end = endOfArgument(from: start, close: close)
      if text(start) == "resultHandler", kind(start + 1) == .colon, kind(start + 2) == .leftBrace {
        return scopeOpened(at: start + 2)
      }
      start = end + 1
    }
    return nil
  }
}
