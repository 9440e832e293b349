/// What a rule is: its id, severity, the one-line message its findings carry, how to fix it, and the Apple
/// documentation or WWDC session it rests on.
public struct RuleDescriptor: Sendable, Hashable {
  /// A document the rule rests on.
  public struct Reference: Sendable, Hashable {
    public var title: String
    public var url: String
  }

  public var id: String
  public var severity: Severity
  /// The message findings carry unless the rule words a more specific one.
  public var summary: String
  /// Why it matters and what to do instead, in a few sentences.
  public var fix: String
  public var reference: Reference

  init(id: String, severity: Severity, summary: String, fix: String, reference: Reference) {
    self.id = id
    self.severity = severity
    self.summary = summary
    self.fix = fix
    self.reference = reference
  }
}
