/// `temp-url-escapes`: the file URL from `loadFileRepresentation` kept past its completion handler.
///
/// "This method writes a copy of the file's data to a temporary file, which the system deletes when the
/// completion handler returns" (NSItemProvider documentation). Within the handler, the URL parameter
/// escapes when it is assigned to anything not declared in the handler, appended or inserted into a
/// collection, passed to `resume`, `success` or a completion/handler/callback closure, or captured by
/// work that runs later (`async`, `asyncAfter`, `Task`, `Task.detached`) or by a closure that is itself
/// kept (`self.source = { url }`) or handed on. A local made from the URL (`let file = url`,
/// `let path = url.path`) escapes the same ways; one made by a call that reads or copies it
/// (`Data(contentsOf: url)`, `destination.appendingPathComponent(url.lastPathComponent)`) does not.
/// Copying the file and keeping the copy is fine.
struct TempURLEscapesRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "temp-url-escapes", severity: .error,
    summary:
      "The URL from loadFileRepresentation escapes its completion handler; the system deletes that file when the handler returns.",
    leavesAlone:
      "A URL that is only read, copied or moved inside its completion handler — also by an app method it is handed to that copies before returning — and the copies made from it.",
    fix: """
      Inside the completion handler, copy or move the file into a folder the app owns (FileManager \
      copyItem/moveItem, or read its bytes), and pass on only the new location.
      """,
    reference: .documentation(
      "NSItemProvider.loadFileRepresentation(forTypeIdentifier:completionHandler:)",
      "foundation/nsitemprovider/loadfilerepresentation(fortypeidentifier:completionhandler:)"))

  let triggers: Set<Word> = [.loadFileRepresentation]

  /// Calls whose closures run after the current one has returned.
  private static let deferred: Set<Word> = [.async, .asyncAfter, .Task, .detached]
  /// Calls that keep or hand on their argument.
  private static let sinks: Set<Word> = [
    .append, .insert, .resume, .success, .send, .yield, .updateValue, .setValue,
  ]

  /// What one check has already worked out, so that each scope is read once however many names or calls
  /// lead to it.
  ///
  /// A handler with many aliases of the URL (`let p1 = url.path`, `let p2 = url.path`…) reads only each
  /// alias's own occurrences from ``occurrences``, and a handler that passes the URL to the same method at
  /// many call sites (which passes it on to another method many times) follows each method's parameter once
  /// per depth through ``escapes``: the work is linear in the scopes' sizes.
  private final class Memo {
    /// Per file path and scope, the identifier tokens of the scope's body by the hash of their text, in
    /// order.
    var occurrences: [String: [Int: [UInt64: [Int]]]] = [:]
    /// Per function of the project model, parameter and depth, whether the parameter escapes.
    var escapes: [EscapeKey: Bool] = [:]

    struct EscapeKey: Hashable {
      var function: Int
      var parameter: Int
      var depth: Int
    }

    /// The identifier tokens in the body of `scope` whose text is that of `name`, in order.
    func occurrences(_ file: SourceFile, of name: Int, in scope: Int) -> [Int] {
      if let table = occurrences[file.path]?[scope] {
        return table[ProjectModel.hash(file, name)] ?? []
      }
      var table: [UInt64: [Int]] = [:]
      for index in file.body(of: scope) where file.kind(index) == .identifier {
        table[ProjectModel.hash(file, index), default: []].append(index)
      }
      occurrences[file.path, default: [:]][scope] = table
      return table[ProjectModel.hash(file, name)] ?? []
    }
  }

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    var findings: [Finding] = []
    let memo = Memo()
    for index in 0..<file.count
    where file.word(index) == .loadFileRepresentation && file.kind(index + 1) == .leftParen {
      guard let close = file.match(index + 1), let handler = handler(file, call: index, close: close),
        let url = file.scope(handler).parameters.first, file.text(url) != "_"
      else { continue }
      for name in [url] + aliases(file, of: url, in: handler) {
        if let escape = firstEscape(file, of: name, in: handler, project: project, depth: 2, memo: memo) {
          findings.append(file.finding(descriptor, at: escape))
          break
        }
      }
    }
    return findings
  }

  /// The trailing closure, or the closure passed as `completionHandler:`.
  private func handler(_ file: SourceFile, call: Int, close: Int) -> Int? {
    if file.kind(close + 1) == .leftBrace { return file.scopeOpened(at: close + 1) }
    for index in (call + 2)..<close where file.kind(index) == .leftBrace {
      if let scope = file.scopeOpened(at: index), file.scope(scope).label >= 0 { return scope }
    }
    return nil
  }

  /// Locals of the handler made from the URL itself, not from a call it is passed to: `let file = url`,
  /// `let path = url.path`.
  private func aliases(_ file: SourceFile, of url: Int, in handler: Int) -> [Int] {
    var names: [Int] = []
    let body = file.body(of: handler)
    for index in body
    where (file.word(index) == .let || file.word(index) == .var) && file.kind(index + 1) == .identifier
      && file.word(index + 2) == .opAssign && !file.source.sameText(index + 1, url)
    {
      // The URL itself or a property chain of it (`url`, `url.path`, `url?.absoluteString`): a call or a
      // closure (`url.flatMap { copy($0) }`) may well copy the file.
      let value = file.statement(from: index + 3)
      guard file.source.sameText(value.lowerBound, url) else { continue }
      let chain = value.dropFirst().allSatisfy { token in
        switch file.kind(token) {
        case .dot, .identifier: return true
        case .op: return file.word(token) == .opQuestion || file.word(token) == .opBang
        default: return false
        }
      }
      if chain { names.append(index + 1) }
    }
    return names
  }

  /// The first place in scope `handler` (the completion handler, or a method of the app it is passed to)
  /// where `url` escapes; `depth` bounds how many of the app's methods are followed.
  private func firstEscape(
    _ file: SourceFile, of url: Int, in handler: Int, project: ProjectFacts, depth: Int, memo: Memo
  )
    -> Int?
  {
    let handlerBody = file.body(of: handler)
    let body = url > handlerBody.lowerBound ? (url + 1)..<handlerBody.upperBound : handlerBody
    for index in memo.occurrences(file, of: url, in: handler)
    where body.contains(index) && file.source.sameText(index, url) && !file.isMember(index)
      && file.kind(index + 1) != .colon
    {
      // `let url = other` shadows the parameter from here on; `if let url`, `let url = url` do not.
      if file.word(index - 1) == .let || file.word(index - 1) == .var {
        if file.word(index + 1) == .opAssign, !file.source.sameText(index + 2, url) { return nil }
        continue
      }
      if capturedByOutlivingClosure(file, index, handler: handler, body: handlerBody) { return index }
      if file.word(index - 1) == .opAssign, storesOutside(file, assignment: index - 1, body: handlerBody) {
        return index
      }
      if let paren = file.enclosingParen(of: index) {
        if handsOn(file, callee: paren - 1) { return index }
        if depth > 0,
          escapesInProjectMethod(
            file, call: paren - 1, argument: index, project: project, depth: depth, memo: memo)
        {
          return index
        }
      }
    }
    return nil
  }

  /// Whether `argument`, passed to the call named at `call`, escapes inside the project's own method it
  /// reaches (`self.attach(url)` where `attach` keeps it in a property or hands it to later work).
  private func escapesInProjectMethod(
    _ file: SourceFile, call: Int, argument: Int, project: ProjectFacts, depth: Int, memo: Memo
  ) -> Bool {
    guard let model = project.model, let fileNumber = model.fileIndex[file.path],
      let numbers = model.callsAt[fileNumber][call], let arguments = CallArguments(file, callee: call),
      let position = arguments.values.firstIndex(where: { $0.contains(argument) })
    else { return false }
    for number in numbers {
      let function = model.functions[model.calls[number].callee]
      guard let matched = Parameter.matched(function.parameters, arguments), position < matched.count else {
        continue
      }
      let key = Memo.EscapeKey(
        function: model.calls[number].callee, parameter: matched[position], depth: depth - 1)
      if let known = memo.escapes[key] {
        if known { return true }
        continue
      }
      let parameter = function.parameters[matched[position]]
      let methodFile = model.files[function.file]
      let escapes =
        firstEscape(
          methodFile, of: parameter.nameToken, in: function.scope, project: project, depth: depth - 1,
          memo: memo) != nil
      memo.escapes[key] = escapes
      if escapes { return true }
    }
    return false
  }

  /// Whether a closure between the handler and `index` may run after the handler returned: deferred work,
  /// a closure stored outside the handler (`self.source = { url }`, a `return url` inside it included), or
  /// one handed to a sink or a completion closure.
  private func capturedByOutlivingClosure(_ file: SourceFile, _ index: Int, handler: Int, body: Range<Int>)
    -> Bool
  {
    for scope in file.syntax.enclosingScopes(of: index) {
      if scope == handler { return false }
      guard file.scope(scope).kind == .closure else { continue }
      let callee = file.scope(scope).callee, head = file.scope(scope).head
      if Self.deferred.contains(file.word(callee)) || handsOn(file, callee: callee) { return true }
      if file.word(head) == .opAssign, storesOutside(file, assignment: head, body: body) { return true }
    }
    return false
  }

  /// Whether the call named at `callee` keeps or hands on what it is given.
  private func handsOn(_ file: SourceFile, callee: Int) -> Bool {
    guard callee >= 0, file.kind(callee) == .identifier else { return false }
    let name = ASCII.lowercased(file.text(callee))
    return Self.sinks.contains(file.word(callee))
      || ["completion", "handler", "callback"].contains(where: { ASCII.contains(name, $0) })
  }

  /// Whether `target = url` stores into something declared outside the handler: a property, a
  /// subscript, or a variable from an enclosing scope.
  private func storesOutside(_ file: SourceFile, assignment: Int, body: Range<Int>) -> Bool {
    let end = assignment - 1
    if file.kind(end) == .rightBracket { return true }
    guard file.kind(end) == .identifier else { return false }
    let start = file.postfixStart(endingAt: end)
    if file.word(start - 1) == .let || file.word(start - 1) == .var { return false }
    if start != end { return true }  // `self.url = url`, `model.file = url`
    // A bare name: local if the handler declares it.
    return !body.contains { candidate in
      (file.word(candidate - 1) == .let || file.word(candidate - 1) == .var)
        && file.source.sameText(candidate, end)
    }
  }
}
