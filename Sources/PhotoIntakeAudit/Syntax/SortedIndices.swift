/// Binary search over values kept in order (a file's declarations of a name, its reads of one, token
/// indices): the per-file indexes that keep the audit's passes linear look up a function's slice with it.
extension RandomAccessCollection {
  /// The first index whose element `isAfter` holds for, in a collection where every element it holds
  /// for comes after every element it does not (`endIndex` when none does).
  func partitioningIndex(where isAfter: (Element) -> Bool) -> Index {
    var low = startIndex
    var length = count
    while length > 0 {
      let half = length / 2
      let middle = index(low, offsetBy: half)
      if isAfter(self[middle]) {
        length = half
      } else {
        low = index(after: middle)
        length -= half + 1
      }
    }
    return low
  }
}

extension Array where Element == Int {
  /// The first position whose index is at or after `lower` (`count` when none is).
  func firstPosition(atOrAfter lower: Int) -> Int { partitioningIndex { $0 >= lower } }
}

/// How many tokens of a file before each position pass a test, counted in one pass: whether a range of
/// tokens holds one is then one subtraction, however many ranges (nested statements, bodies) ask.
struct TokenCounts {
  /// `before[i]`: how many of tokens `0..<i` pass; one more entry than the file has tokens.
  private let before: [Int32]

  init(_ file: SourceFile, counting passes: (Int) -> Bool) {
    var before = [Int32](repeating: 0, count: file.count + 1)
    var count: Int32 = 0
    for index in 0..<file.count {
      if passes(index) { count += 1 }
      before[index + 1] = count
    }
    self.before = before
  }

  /// Whether a token in `range` (clamped to the file) passes.
  func any(in range: Range<Int>) -> Bool {
    let range = range.clamped(to: 0..<(before.count - 1))
    return before[range.upperBound] > before[range.lowerBound]
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
