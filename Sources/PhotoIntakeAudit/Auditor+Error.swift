extension Auditor {
  /// Why an audit could not run.
  public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    /// The path given is missing or not a folder.
    case notAFolder(String)
    /// `--rule` or `--disable` named a rule that does not exist.
    case unknownRule(String)

    public var description: String {
      switch self {
      case .notAFolder(let path):
        "'\(path)' is not a folder; pass the folder of an Xcode project or Swift package."
      case .unknownRule(let id):
        "There is no rule '\(id)'; run 'intake audit --list-rules' to see the rule ids."
      }
    }
  }
}
