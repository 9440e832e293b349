/// How serious a finding is. Ordered: `note < warning < error`, so `--fail-on warning` also fails on
/// errors. The names are SARIF's `level` values (SARIF 2.1.0 §3.27.10) and the compiler's diagnostics.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
  /// From least to most serious: a note, a warning, an error.
  case note, warning, error

  private var rank: Int {
    switch self {
    case .note: 0
    case .warning: 1
    case .error: 2
    }
  }

  public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
