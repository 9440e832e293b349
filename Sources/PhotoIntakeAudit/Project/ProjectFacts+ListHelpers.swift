/// Calls that list and grid cells make one function away (issue 25, round 13: "a decode reached through a
/// helper"): a cell calls `imageView.setImage(storageChild: name)`, and that function calls
/// `placeholderImage(filename: name)`, which decodes the stored photo whole. The second call is made for
/// every cell as surely as the first, so ``FullDecodeThumbnailRule`` treats a helper it reaches like one
/// a cell calls itself.
extension ProjectFacts {
  /// Records, once every file is read (``listCalls`` must be complete), the calls made inside functions
  /// that list or grid contexts call (``helperListCalls``): one look at each function declaration whose
  /// name a list calls, then one pass over each file that holds one (a call counts for the innermost
  /// function around it), so the cost is linear in the project.
  mutating func addCallsOfListHelpers(_ files: [SourceFile]) {
    guard !listCalls.isEmpty else { return }
    // Only calls of functions that decode whole matter (``FullDecodeThumbnailRule`` asks for no others):
    // their names, from one look at each decode.
    var decoders: Set<String> = []
    for file in files
    where file.source.words.containsAny([.UIImage, .copyCGImage, .CGImageSourceCreateImageAtIndex]) {
      for index in 0..<file.count where FullDecodeThumbnailRule.isFullDecode(file, index) {
        let function = file.enclosingFunction(of: index)
        if function > 0, let name = file.name(of: function) { decoders.insert(name) }
      }
    }
    guard !decoders.isEmpty else { return }
    for file in files {
      var reached: [Int: ContextStep] = [:]
      for (index, scope) in file.syntax.scopes.enumerated() where scope.kind == .function {
        if let via = listCallReaching(file, function: index) { reached[index] = via }
      }
      guard !reached.isEmpty else { continue }
      // One pass over the file: a call belongs to the innermost function around it, so a token of a
      // function nested in reached functions is read once, not once per function around it.
      for index in 0..<file.count
      where file.kind(index) == .identifier && file.word(index) == .none
        && file.kind(index + 1) == .leftParen
      {
        if Self.helperDeclarationKeywords.contains(file.word(index - 1)) || file.isSelectorReference(index) {
          continue
        }
        let name = file.text(index)
        guard decoders.contains(name) else { continue }
        let function = file.enclosingFunction(of: index)
        guard let via = reached[function],
          helperListCalls[name, default: []].count < Self.helperCallsKept
        else { continue }
        let labels = ListCall.labels(file, paren: index + 1)
        let (line, column) = file.source.location(ofByte: file.tokens[index].start)
        let typeName = file.enclosingType(of: index).flatMap { file.name(of: $0) }
        let helper = file.name(of: function) ?? "a helper"
        helperListCalls[name, default: []].append(
          ListCall(
            labels: labels, isBare: !file.isMember(index) || file.word(index - 2) == .selfKeyword,
            typeName: typeName,
            namesSmallImage: ListCall.namesSmallImage(file, paren: index + 1),
            step: ContextStep(
              function: (typeName.map { $0 + "." } ?? "") + helper,
              reason:
                "\(helper), which \(via.function) calls for each cell, uses \(name)(\(labels.map { $0 + ":" }.joined()))",
              file: file.path, line: line, column: column)))
      }
    }
  }

  /// The first list or grid call (``listCalls``) that reaches the function declared at `function`, matched
  /// by name, argument labels and, for a bare call, its type or file; `nil` for none, for initializers and
  /// for a view's `body`.
  private func listCallReaching(_ file: SourceFile, function: Int) -> ContextStep? {
    let scope = file.scope(function)
    guard scope.kind == .function, file.word(scope.head) != .initKeyword, let name = file.name(of: function),
      name != "body", let calls = listCalls[name]
    else { return nil }
    let parameters: [String]?
    if file.word(scope.head) == .var {
      parameters = nil
    } else if let paren = (scope.head..<max(scope.head, scope.open)).first(where: {
      file.kind($0) == .leftParen
    }) {
      parameters = ListCall.parameterLabels(file, paren: paren)
    } else {
      return nil
    }
    var modifier = scope.head - 1
    var isPrivate = false
    while modifier >= 0, file.word(modifier).isModifier || file.kind(modifier) == .attribute {
      isPrivate = isPrivate || file.word(modifier) == .private || file.word(modifier) == .fileprivate
      modifier -= 1
    }
    let typeName = file.enclosingType(of: scope.head).flatMap { file.name(of: $0) }
    return calls.first {
      !$0.namesSmallImage
        && $0.matches(parameters: parameters, typeName: typeName, file: file.path, isPrivate: isPrivate)
    }?.step
  }

  static let helperCallsKept = 8
  private static let helperDeclarationKeywords: Set<Word> = [.func, .initKeyword, .var, .let, .case]
}
