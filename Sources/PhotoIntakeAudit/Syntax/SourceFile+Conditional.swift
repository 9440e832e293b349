extension SourceFile {
  /// Whether the `?` at `index` is the conditional operator (`flag ? a : b`), not a postfix `?`
  /// (`picker?.sourceType`, `UIImage?`): Swift requires white space before a conditional `?` and allows
  /// none before a postfix one.
  func isConditionalQuestion(_ index: Int) -> Bool {
    word(index) == .opQuestion && index > 0 && index < count
      && tokens[index].start != tokens[index - 1].end
  }

  /// The token in front of the value that the implicit member at `index` (`.camera`, its dot at
  /// `index - 1`) makes. For a member that is a branch of a conditional expression
  /// (`isUsingCamera ? .camera : .photoLibrary`, `tag == 0 ? .photoLibrary : .camera`) that is the token
  /// before the condition: the `=` of `picker.sourceType = flag ? .camera : .photoLibrary`, the label's
  /// colon of `ImagePicker(sourceType: flag ? …)`. Otherwise it is `index - 2`, the token before the member.
  /// The condition is read back at most 16 tokens, stepping over bracketed groups (`isCamera()`), and a
  /// comma, an opening bracket or a line's start ends it without an answer (`index - 2` again).
  func tokenBeforeValue(ofMember index: Int) -> Int {
    let before = index - 2
    let question: Int
    if isConditionalQuestion(before) {
      question = before
    } else if kind(before) == .colon, kind(before - 1) == .identifier, kind(before - 2) == .dot,
      isConditionalQuestion(before - 3)
    {
      question = before - 3
    } else {
      return before
    }
    var cursor = question - 1
    var steps = 0
    while cursor > 0, steps < 16 {
      steps += 1
      if tokens[cursor].isClosing {
        guard let open = match(cursor), open < cursor else { return before }
        if tokens[open].startsLine { return before }
        cursor = open - 1
        continue
      }
      switch kind(cursor) {
      case .colon: return cursor
      case .comma, .semicolon, .leftParen, .leftBracket, .leftBrace: return before
      default: break
      }
      if word(cursor) == .opAssign { return cursor }
      if tokens[cursor].startsLine { return before }
      cursor -= 1
    }
    return before
  }
}
