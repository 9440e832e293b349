/// One place where a rule found a mistake.
///
/// This is also the shape of `intake audit --format json`: an array of these objects.
public struct Finding: Sendable, Hashable, Codable {
  /// The rule's id (`limited-ignored`).
  public var rule: String
  /// The rule's severity.
  public var severity: Severity
  /// Path as the user named it: the audited folder as given, joined with the path inside it.
  public var file: String
  /// 1-based line.
  public var line: Int
  /// 1-based column, in Unicode scalars.
  public var column: Int
  /// One line saying what is wrong.
  public var message: String
  /// The path inside the audited folder, for SARIF's root-relative URIs; not part of the JSON output.
  var pathInRoot = ""

  enum CodingKeys: String, CodingKey {
    case rule, severity, file, line, column, message
  }

  /// A finding of `rule` at `file`:`line`:`column`.
  public init(rule: String, severity: Severity, file: String, line: Int, column: Int, message: String) {
    self.rule = rule
    self.severity = severity
    self.file = file
    self.line = line
    self.column = column
    self.message = message
    pathInRoot = file
  }
}
