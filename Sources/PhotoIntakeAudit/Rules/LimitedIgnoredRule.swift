/// `limited-ignored`: `PHAuthorizationStatus.limited` treated as a denial.
///
/// Two shapes: a `switch` over a photo library status with no `.limited` case (so `.limited` falls into
/// `default`), and `== .authorized` / `!= .authorized` on a photo library status in a function that never
/// mentions `.limited`. A status counts as the photo library's when the expression names `PHPhotoLibrary`
/// or `PHAuthorizationStatus`, is a variable declared with that type or from those calls, or is the
/// parameter of a `PHPhotoLibrary.requestAuthorization(for:)` handler; `AVCaptureDevice` statuses are left
/// alone. So are the pre-iOS 14 calls `authorizationStatus()` and `requestAuthorization(_:)`, and add-only
/// statuses: the legacy calls report limited access as `.authorized`, and `.limited` exists for read-write
/// access only (WWDC20 session 10641).
struct LimitedIgnoredRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "limited-ignored", severity: .error,
    summary:
      "PHAuthorizationStatus.limited is not handled: people who chose Select Photos are treated as denied.",
    leavesAlone:
      "A .limited case that loads, shows the picker or records a limited grant, also in a label shared with .restricted or .denied, == .authorized checks in code that also handles .limited, guard status != .authorized else { return } before a request for access (a limited person is only asked again), and functions that ask about full access (hasFullAccess).",
    fix: """
      Treat .limited as a grant: show the photos the person shared, and offer \
      PHPhotoLibrary.shared().presentLimitedLibraryPicker(from:) to widen the selection. Add an explicit \
      `case .limited` (or a `.limited` branch next to `.authorized`) instead of letting it fall into default.
      """,
    reference: .wwdc(2020, 10641, "Handle the Limited Photos Library in your app"))

  let triggers: Set<Word> = [.switch, .authorized]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard
      file.source.words.contains(.PHPhotoLibrary) || file.source.words.contains(.PHAuthorizationStatus)
        || !project.photoStatusNames.isEmpty
    else { return [] }
    func callsLegacyAPI(_ range: Range<Int>) -> Bool {
      ProjectFacts.callsLegacyAuthorization(file, in: range)
    }
    // Names this file declares itself (locals, parameters, properties): for those the file's own
    // declarations decide, not a property of the same name elsewhere.
    var declaredHere: Set<String>?
    func declaresItself(_ name: Int) -> Bool {
      if declaredHere == nil {
        var names: Set<String> = []
        for index in 0..<file.count where file.kind(index) == .identifier && !file.isMember(index) {
          if file.word(index - 1) == .var || file.word(index - 1) == .let || file.kind(index + 1) == .colon {
            names.insert(file.text(index))
          }
        }
        declaredHere = names
      }
      return declaredHere?.contains(file.text(name)) == true
    }
    var statuses = DeclaredNames(
      in: file, types: [.PHAuthorizationStatus], initializers: [.PHPhotoLibrary], excluding: [.addOnly],
      accepting: { !callsLegacyAPI($0) })
    var handlers: [Int] = []
    for (index, scope) in file.syntax.scopes.enumerated()
    where scope.kind == .closure && file.word(scope.callee) == .requestAuthorization
      && !file.contains([.addOnly], in: scope.callee..<scope.open)
      && !callsLegacyAPI(scope.callee..<(scope.callee + 1))
    {
      handlers.append(index)
      if let parameter = scope.parameters.first { statuses.add(parameter, inScope: index) }
    }

    // Per scope and name, the innermost closure around the scope (itself included) with a parameter of
    // that name, or -1: each scope is walked through once per name, not once per read in it (thousands of
    // nested `switch status` bodies walked up through every enclosing one).
    var closuresDeclaring: [String: [Int: Int]] = [:]
    func closureDeclaring(_ name: Int) -> Int? {
      let text = file.text(name)
      var visited: [Int] = []
      var found = -1
      for scope in file.syntax.enclosingScopes(of: name) {
        if let known = closuresDeclaring[text]?[scope] {
          found = known
          break
        }
        visited.append(scope)
        if file.scope(scope).kind == .closure,
          file.scope(scope).parameters.contains(where: { file.source.sameText($0, name) })
        {
          found = scope
          break
        }
      }
      for scope in visited { closuresDeclaring[text, default: [:]][scope] = found }
      return found >= 0 ? found : nil
    }

    // An add-only status is never `.limited`: limited access exists for read-write only.
    func isPhotoStatus(_ range: Range<Int>) -> Bool {
      if file.contains([.addOnly], in: range) || callsLegacyAPI(range) { return false }
      if file.contains([.PHPhotoLibrary, .PHAuthorizationStatus], in: range) { return true }
      guard let last = range.last(where: { file.kind($0) == .identifier }) else { return false }
      if file.text(last) == "$0" {
        return file.syntax.enclosingScopes(of: last).contains { handlers.contains($0) }
      }
      // A closure parameter of the same name shadows outer declarations: it is a photo status only if
      // the closure is a `requestAuthorization(for:)` handler.
      if let scope = closureDeclaring(last) { return handlers.contains(scope) }
      if statuses.refers(last) { return true }
      // A status property of another file's type (`service.authState`, or `authState` in an extension).
      guard project.photoStatusNames.contains(file.text(last)) else { return false }
      if file.isMember(last) { return file.word(last - 2) != .selfKeyword || !declaresItself(last) }
      return !declaresItself(last)
    }

    // Per token, how many `.limited` come before it: whether a function's or a switch's body mentions
    // `.limited` is one subtraction, however many comparisons or nested switches ask.
    var limited: TokenCounts?
    func mentionsLimited(_ range: Range<Int>) -> Bool {
      let counts = limited ?? TokenCounts(file) { file.isDotted($0, .limited) }
      limited = counts
      return counts.any(in: range)
    }
    // Per function scope, the last `requestAuthorization` in its body (``onlyAsksAgain(_:_:lastRequest:)``).
    var lastRequests: [Int: Int] = [:]

    var findings: [Finding] = []
    for index in 0..<file.count {
      switch file.word(index) {
      case .switch:
        var brace = index + 1
        while brace < file.count, file.kind(brace) != .leftBrace {
          if let token = file.kind(brace), token == .leftParen || token == .leftBracket,
            let close = file.match(brace)
          {
            brace = close + 1
          } else {
            brace += 1
          }
        }
        guard brace < file.count, let close = file.match(brace), isPhotoStatus((index + 1)..<brace)
        else { continue }
        // `hasFullAccess()`, `isFullLibraryAvailable`: a question about full access, which `.limited` is not.
        if let name = file.name(of: file.enclosingFunction(of: index)),
          ASCII.containsAny(ASCII.lowercased(name), ["full"])
        {
          continue
        }
        if !mentionsLimited((brace + 1)..<close) {
          findings.append(file.finding(descriptor, at: index))
        } else if let limited = Self.limitedTreatedAsDenied(file, body: (brace + 1)..<close) {
          findings.append(file.finding(descriptor, at: limited))
        }
      case .opEqual, .opNotEqual:
        var authorized = index + 2
        if file.word(index + 1) == .PHAuthorizationStatus { authorized += 1 }
        guard file.isDotted(authorized, .authorized) else { continue }
        var end = index - 1
        if file.kind(end) == .rightParen, let open = file.match(end) { end = open - 1 }
        guard file.kind(end) == .identifier else { continue }
        let operand = file.postfixStart(endingAt: end)..<index
        guard isPhotoStatus(operand),
          !mentionsLimited(file.body(of: file.enclosingFunction(of: index))),
          file.word(index) != .opNotEqual || !Self.onlyAsksAgain(file, index, lastRequest: &lastRequests)
        else { continue }
        findings.append(file.finding(descriptor, at: authorized))
      default: continue
      }
    }
    return findings
  }

  /// Whether the `!=` at `index` is the condition of `guard status != .authorized else { return }` and the
  /// function then requests authorization: only full access skips the request, and a person who chose
  /// Select Photos is asked again, which returns `.limited` at once without a prompt; what the request's
  /// handler does with that status is checked where it does it.
  ///
  /// `lastRequest` keeps, per function scope, the last `requestAuthorization` of its body (-1 for none),
  /// so that thousands of guards in one function do not each read the rest of it.
  static func onlyAsksAgain(_ file: SourceFile, _ index: Int, lastRequest: inout [Int: Int]) -> Bool {
    var start = index
    while start > 0, file.word(start - 1) != .guard, file.kind(start - 1) != .leftBrace,
      file.kind(start - 1) != .rightBrace
    {
      start -= 1
    }
    guard start > 0, file.word(start - 1) == .guard else { return false }
    var elseKeyword = index
    while elseKeyword < file.count, file.word(elseKeyword) != .else, file.kind(elseKeyword) != .leftBrace {
      elseKeyword += 1
    }
    guard elseKeyword + 3 < file.count, file.word(elseKeyword) == .else,
      file.kind(elseKeyword + 1) == .leftBrace, file.word(elseKeyword + 2) == .return,
      file.match(elseKeyword + 1) == elseKeyword + 3
    else { return false }
    let function = file.enclosingFunction(of: index)
    if lastRequest[function] == nil {
      lastRequest[function] =
        file.body(of: function).last {
          file.kind($0) == .identifier && file.text($0) == "requestAuthorization"
        } ?? -1
    }
    return lastRequest[function, default: -1] >= elseKeyword + 4
  }

  /// The `.limited` of a switch's case that treats it as a denial: a label that also lists `.denied` or
  /// `.restricted` (`case .denied, .restricted, .limited:`) whose code denies (see ``denies(_:_:)``), or a
  /// `.limited` case whose statements are, token for token, those of the `.denied` case (and not those of
  /// the `.authorized` case).
  static func limitedTreatedAsDenied(_ file: SourceFile, body: Range<Int>) -> Int? {
    struct Case {
      var label: Range<Int>
      var statements: Range<Int>
    }
    // The switch's own case labels: brackets and nested braces (closures, nested switches) are skipped.
    var cases: [Case] = []
    var cursor = body.lowerBound
    while cursor < body.upperBound {
      if file.tokens[cursor].isOpening, let close = file.match(cursor) {
        cursor = close + 1
        continue
      }
      if file.word(cursor) == .case || file.word(cursor) == .default {
        var colon = cursor + 1
        while colon < body.upperBound, file.kind(colon) != .colon {
          if file.tokens[colon].isOpening, let close = file.match(colon) { colon = close }
          colon += 1
        }
        // `case .limited }` with no colon (a file being edited): no body to read.
        guard colon < body.upperBound else { break }
        if let last = cases.indices.last {
          cases[last].statements = cases[last].statements.lowerBound..<cursor
        }
        cases.append(Case(label: cursor..<colon, statements: (colon + 1)..<body.upperBound))
        cursor = colon + 1
        continue
      }
      cursor += 1
    }
    func first(_ word: Word, in range: Range<Int>) -> Int? { range.first { file.isDotted($0, word) } }
    func sameCode(_ one: Range<Int>, _ other: Range<Int>) -> Bool {
      let one = one.clamped(to: 0..<file.count)
      let other = other.clamped(to: 0..<file.count)
      guard !one.isEmpty, one.count == other.count else { return false }
      return zip(one, other).allSatisfy { file.source.sameText($0, $1) }
    }
    func namesDenial(_ label: Range<Int>) -> Bool {
      first(.denied, in: label) != nil || first(.restricted, in: label) != nil
    }
    guard let limitedCase = cases.first(where: { first(.limited, in: $0.label) != nil }),
      let limited = first(.limited, in: limitedCase.label)
    else { return nil }
    // A label shared with `.denied` or `.restricted` says nothing by itself (`case .restricted, .limited:`
    // may grant limited access): the code the case runs decides.
    if namesDenial(limitedCase.label) { return denies(file, limitedCase.statements) ? limited : nil }
    // `fallthrough` into the next case runs that case's code.
    var statements = limitedCase.statements
    if file.word(statements.lowerBound) == .fallthrough,
      let next = cases.firstIndex(where: { $0.label.lowerBound > limitedCase.label.lowerBound })
    {
      if namesDenial(cases[next].label) { return denies(file, cases[next].statements) ? limited : nil }
      statements = cases[next].statements
    }
    // A case of its own that refuses outright (`case .limited: return false`, an error or an alert) locks
    // out the people who shared some photos, whatever the other cases do.
    if denies(file, statements, silenceDenies: false) { return limited }
    let denied = cases.first { first(.denied, in: $0.label) != nil }
    let authorized = cases.first { first(.authorized, in: $0.label) != nil }
    guard let denied, sameCode(statements, denied.statements) else { return nil }
    if let authorized, sameCode(statements, authorized.statements) { return nil }
    return limited
  }

  /// Whether a case's statements deny access: an alert or error, a "denied" or "no access" state or flag,
  /// opening Settings, `return false`, or (when `silenceDenies`) nothing at all (`break`, `return`: the
  /// photos are never loaded) — and nothing that grants it (loading or fetching, the picker, a limited or
  /// partial grant, `return true`, `completion(true)`).
  static func denies(_ file: SourceFile, _ statements: Range<Int>, silenceDenies: Bool = true) -> Bool {
    let statements = statements.clamped(to: 0..<file.count)
    var denial = false
    var code = false
    for index in statements {
      switch file.kind(index) {
      case .identifier:
        let word = file.word(index)
        if word == .break || word == .return || word == .fallthrough { continue }
        code = true
        // `return true`, `completion(true)`; `animated: true` says nothing.
        let handedBack = file.word(index - 1) == .return || file.kind(index - 1) == .leftParen
        if word == .true || word == .false {
          if handedBack, word == .true { return false }
          if handedBack { denial = true }
          continue
        }
        let name = ASCII.lowercased(file.text(index))
        if ASCII.containsAny(name, refusals) {
          denial = true
        } else if ASCII.containsAny(name, grants) {
          return false
        }
      case .string:
        code = true
        let text = ASCII.lowercased(file.text(index))
        if ASCII.containsAny(text, refusals) || ASCII.containsAny(text, refusingMessages) { denial = true }
      case nil: continue
      default: code = true
      }
    }
    return denial || (silenceDenies && !code)
  }

  /// Parts of names that say the code grants access (`permission = .limited`, `fetchAssets()`,
  /// `presentLimitedLibraryPicker(from:)`).
  private static let grants: [StaticString] = [
    "limited", "partial", "authorized", "granted", "load", "fetch", "picker", "gallery",
  ]
  /// Parts of names and messages that say it refuses; checked first, so `unauthorized` and `notGranted`
  /// refuse.
  private static let refusals: [StaticString] = [
    "denied", "deny", "noaccess", "unauthorized", "notauthorized", "notallowed", "notgranted", "restricted",
    "settings", "alert", "error", "fail", "forbidden", "blocked",
  ]
  private static let refusingMessages: [StaticString] = [
    "no access", "not authorized", "not allowed", "not granted", "permission",
  ]
}
