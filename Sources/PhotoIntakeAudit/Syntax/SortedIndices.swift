/// Binary search over token indices kept in order (a file's declarations of a name, its reads of one):
/// the per-file indexes that keep the audit's passes linear look up a function's slice with it.
extension Array where Element == Int {
  /// The first position whose index is at or after `lower` (`count` when none is).
  func firstPosition(atOrAfter lower: Int) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle] < lower { low = middle + 1 } else { high = middle }
    }
    return low
  }
}

/// The parts of a path inside the audited folder, as the project readers name them.
enum ProjectPath {
  /// `App/Views` for `App/Views/Home.swift`; `""` for a file at the root.
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[..<slash])
  }

  /// `Home.swift` for `App/Views/Home.swift`.
  static func lastComponent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }
}
