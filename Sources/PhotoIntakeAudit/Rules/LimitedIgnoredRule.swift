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
      "A status switch with a .limited case, and == .authorized checks in code that also handles .limited.",
    fix: """
      Treat .limited as a grant: show the photos the person shared, and offer \
      PHPhotoLibrary.shared().presentLimitedLibraryPicker(from:) to widen the selection. Add an explicit \
      `case .limited` (or a `.limited` branch next to `.authorized`) instead of letting it fall into default.
      """,
    reference: .wwdc(2020, 10641, "Handle the Limited Photos Library in your app"))

  let triggers: Set<Word> = [.switch, .authorized]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard file.source.words.contains(.PHPhotoLibrary) || file.source.words.contains(.PHAuthorizationStatus)
    else { return [] }
    /// `authorizationStatus()` or `requestAuthorization { … }` / `requestAuthorization(handler)`.
    func callsLegacyAPI(_ range: Range<Int>) -> Bool {
      range.contains { index in
        let word = file.word(index)
        guard word == .authorizationStatus || word == .requestAuthorization else { return false }
        return file.kind(index + 1) == .leftBrace
          || (file.kind(index + 1) == .leftParen && file.word(index + 2) != .for)
      }
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
      if let parameter = scope.parameters.first { statuses.add(parameter, visibleIn: file.body(of: index)) }
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
      for scope in file.syntax.enclosingScopes(of: last) where file.scope(scope).kind == .closure {
        if file.scope(scope).parameters.contains(where: { file.source.sameText($0, last) }) {
          return handlers.contains(scope)
        }
      }
      return statuses.refers(last)
    }

    func mentionsLimited(_ range: Range<Int>) -> Bool {
      range.contains { file.isDotted($0, .limited) }
    }

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
        guard brace < file.count, let close = file.match(brace), isPhotoStatus((index + 1)..<brace),
          !mentionsLimited((brace + 1)..<close)
        else { continue }
        findings.append(file.finding(descriptor, at: index))
      case .opEqual, .opNotEqual:
        var authorized = index + 2
        if file.word(index + 1) == .PHAuthorizationStatus { authorized += 1 }
        guard file.isDotted(authorized, .authorized) else { continue }
        var end = index - 1
        if file.kind(end) == .rightParen, let open = file.match(end) { end = open - 1 }
        guard file.kind(end) == .identifier else { continue }
        let operand = file.postfixStart(endingAt: end)..<index
        guard isPhotoStatus(operand),
          !mentionsLimited(file.body(of: file.enclosingFunction(of: index)))
        else { continue }
        findings.append(file.finding(descriptor, at: authorized))
      default: continue
      }
    }
    return findings
  }
}
