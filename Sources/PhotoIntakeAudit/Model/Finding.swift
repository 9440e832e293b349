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
  /// Why the code runs where the rule says it does, outermost first: the seed (a view controller's
  /// `viewDidLoad`, a SwiftUI view's `body`) at its declaration, then each call on the way at the line of
  /// the call, then every other main-thread call site of a blocking helper (a step with a ``ContextStep/reason``).
  /// For `full-decode-thumbnail`, the list cells that call a decoding helper. Empty for rules that do not
  /// depend on where code runs; left out of the JSON output when empty.
  public var contextPath: [ContextStep] = []
  /// The path inside the audited folder, for SARIF's root-relative URIs; not part of the JSON output.
  var pathInRoot = ""

  enum CodingKeys: String, CodingKey {
    case rule, severity, file, line, column, message, contextPath
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

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    rule = try container.decode(String.self, forKey: .rule)
    severity = try container.decode(Severity.self, forKey: .severity)
    file = try container.decode(String.self, forKey: .file)
    line = try container.decode(Int.self, forKey: .line)
    column = try container.decode(Int.self, forKey: .column)
    message = try container.decode(String.self, forKey: .message)
    contextPath = try container.decodeIfPresent([ContextStep].self, forKey: .contextPath) ?? []
    pathInRoot = file
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(rule, forKey: .rule)
    try container.encode(severity, forKey: .severity)
    try container.encode(file, forKey: .file)
    try container.encode(line, forKey: .line)
    try container.encode(column, forKey: .column)
    try container.encode(message, forKey: .message)
    if !contextPath.isEmpty { try container.encode(contextPath, forKey: .contextPath) }
  }
}

/// One step on the way to a finding: the seed function at its declaration (`PhotoCell.configure(with:)` at
/// `Cells/PhotoCell.swift:12`), or a call at its own line (`calls PhotoAsset.fullImage` at
/// `Cells/PhotoCell.swift:14`).
public struct ContextStep: Sendable, Hashable, Codable {
  /// `Type.name(label:)`, or `Type.property` for a computed property: the seed, the function called, or
  /// for another call site the function that makes it.
  public var function: String
  /// Why the first step runs on the main thread (`override of viewDidLoad`, `@MainActor`); empty for the
  /// calls of the path; for another main-thread call site, what it does (`also calls X on the main thread`).
  public var reason: String
  /// Path as the user named it, like ``Finding/file``.
  public var file: String
  /// 1-based line of the seed's declaration or of the call.
  public var line: Int
  /// 1-based column of the seed's declaration or of the call.
  public var column: Int
  /// The path inside the audited folder, for SARIF; not part of the JSON output.
  var pathInRoot = ""

  enum CodingKeys: String, CodingKey {
    case function, reason, file, line, column
  }

  /// A step at `file:line:column`; `reason` only for the first step of a path.
  public init(function: String, reason: String, file: String, line: Int, column: Int) {
    self.function = function
    self.reason = reason
    self.file = file
    self.line = line
    self.column = column
    pathInRoot = file
  }
}
