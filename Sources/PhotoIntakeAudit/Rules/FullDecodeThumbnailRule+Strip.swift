extension FullDecodeThumbnailRule {
  /// Closures that run once per element, as a loop body does.
  private static let loopingCallees: Set<String> = ["map", "forEach", "compactMap", "flatMap"]

  /// Whether `index` lies in a loop inside its function: a `for`, `while` or `repeat` body, or a closure given
  /// to `map`, `forEach`, `compactMap` or `flatMap`. At most 32 enclosing blocks and closures are asked, so
  /// each question costs a bounded look however deep the code nests.
  static func isInLoop(_ file: SourceFile, _ index: Int) -> Bool {
    for scope in file.syntax.enclosingScopes(of: index).prefix(32) {
      let info = file.scope(scope)
      switch info.kind {
      case .block:
        if [Word.for, .while, .repeat].contains(file.word(info.head)) { return true }
      case .closure:
        if info.callee >= 0, loopingCallees.contains(file.text(info.callee)) { return true }
      default:
        return false
      }
    }
    return false
  }

  /// Whether the decode at `index` copies one of many video frames for a strip of image views: a
  /// `copyCGImage` in a loop, in a type that also makes image views in a loop (`UIImageView(…)` in a `for`
  /// body or a `map` closure, one view per frame). A trimmer's or timeline's strip draws each frame a few
  /// points wide; copied at the video's size, each is a full-size decode. Frames copied in a loop for
  /// anything else (a GIF's frames, an export) make no image views. `viewMakers` keeps the type scopes that
  /// make image views in a loop (the innermost type around each such view; 0 for the file's top level),
  /// found in one pass over the file when first needed.
  static func copiesStripFrame(_ file: SourceFile, _ index: Int, viewMakers: inout Set<Int>?) -> Bool {
    guard file.word(index) == .copyCGImage, isInLoop(file, index) else { return false }
    if viewMakers == nil {
      var types: Set<Int> = []
      for token in 0..<file.count
      where file.kind(token) == .identifier && file.kind(token + 1) == .leftParen && !file.isMember(token)
        && file.text(token) == "UIImageView" && isInLoop(file, token)
      {
        types.insert(file.enclosingType(of: token) ?? 0)
      }
      viewMakers = types
    }
    return viewMakers?.contains(file.enclosingType(of: index) ?? 0) ?? false
  }
}
