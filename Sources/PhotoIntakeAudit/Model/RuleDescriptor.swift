/// What a rule is: its id, severity, the one-line message its findings carry, how to fix it, and the Apple
/// documentation or WWDC session it rests on.
public struct RuleDescriptor: Sendable, Hashable {
  /// A document the rule rests on.
  public struct Reference: Sendable, Hashable {
    /// The document's title.
    public var title: String
    /// Where to read it.
    public var url: String
  }

  /// The rule's id (`limited-ignored`), used to enable, disable and suppress it.
  public var id: String
  /// How serious a finding of the rule is.
  public var severity: Severity
  /// The message findings carry unless the rule words a more specific one.
  public var summary: String
  /// What the rule reports, in a sentence (`--list-rules`): the summary, or a fuller account of the shapes.
  public var reports: String
  /// What the rule deliberately does not report, in a sentence: the look-alikes that are harmless.
  public var leavesAlone: String
  /// Why it matters and what to do instead, in a few sentences.
  public var fix: String
  /// The Apple documentation or WWDC session the rule rests on.
  public var reference: Reference

  init(
    id: String, severity: Severity, summary: String, reports: String? = nil, leavesAlone: String, fix: String,
    reference: Reference
  ) {
    self.id = id
    self.severity = severity
    self.summary = summary
    self.reports = reports ?? summary
    self.leavesAlone = leavesAlone
    self.fix = fix
    self.reference = reference
  }
}
