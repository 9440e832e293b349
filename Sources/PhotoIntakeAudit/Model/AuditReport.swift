/// The result of auditing one folder.
public struct AuditReport: Sendable {
  /// Findings sorted by file, line, column and rule, with suppressed ones removed.
  public var findings: [Finding]
  /// How many Swift files were read.
  public var swiftFiles: Int
  /// The rules that ran.
  public var rules: [RuleDescriptor]
  /// The audited folder, absolute.
  public var root: String
  /// Swift files found but not audited, with the reason: string interpolations nested too deep to lex, or
  /// no target of the Xcode project that holds the file compiles it.
  public var skipped: [SkippedFile] = []

  /// A report of `findings` after reading `swiftFiles` Swift files under `root` with `rules`.
  public init(findings: [Finding], swiftFiles: Int, rules: [RuleDescriptor], root: String) {
    self.findings = findings
    self.swiftFiles = swiftFiles
    self.rules = rules
    self.root = root
  }

  /// The worst severity found, or nil when clean.
  public var worstSeverity: Severity? { findings.map(\.severity).max() }

  /// Whether any finding is at or above `threshold`.
  public func hasFindings(atLeast threshold: Severity) -> Bool {
    findings.contains { $0.severity >= threshold }
  }
}

/// A Swift file the audit read but could not audit, and why.
public struct SkippedFile: Sendable, Hashable, Codable {
  /// The file, named as findings name files.
  public var file: String
  /// Why it was skipped, as a sentence.
  public var reason: String

  /// A file `file` skipped for `reason`.
  public init(file: String, reason: String) {
    self.file = file
    self.reason = reason
  }
}
