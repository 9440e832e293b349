/// A check for one classic PhotoKit mistake.
///
/// Rules see tokens and structure only (``SourceFile``), so text in comments and string literals never
/// triggers them, plus what is known about the whole project (``ProjectFacts``).
protocol AuditRule: Sendable {
  var descriptor: RuleDescriptor { get }
  /// The rule has nothing to say about a file in which none of these words occur in code; the auditor
  /// skips it without calling ``check(_:project:)``.
  var triggers: Set<Word> { get }
  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding]
}

extension RuleDescriptor.Reference {
  static func wwdc(_ year: Int, _ session: Int, _ title: String) -> Self {
    Self(
      title: "\(title) (WWDC\(year % 100) session \(session))",
      url: "https://developer.apple.com/videos/play/wwdc\(year)/\(session)/")
  }

  static func documentation(_ title: String, _ path: String) -> Self {
    Self(title: title, url: "https://developer.apple.com/documentation/\(path)")
  }
}
