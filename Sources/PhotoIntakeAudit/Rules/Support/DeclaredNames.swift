/// Names the file declares with a given type or initializer, and the region where each is visible:
/// `status: PHAuthorizationStatus`, `let semaphore = DispatchSemaphore(value: 0)`.
///
/// Visibility is approximate (the enclosing scope, or the function for a parameter) but is enough to keep
/// a `status` of AVFoundation in one function apart from a `status` of PhotoKit in another.
struct DeclaredNames {
  private var names: [(token: Int, region: Range<Int>)] = []
  /// ``names`` by the hash of the name's text and the start of the region it is visible in (a scope's
  /// body), so `refers(_:)` looks only at the declarations of that name in the scopes around the
  /// reference: a file of thousands of functions that each declare and read `asset` stays linear.
  private var byName: [Key: [Int]] = [:]
  /// ``names`` by the hash of the name's text alone, in order.
  private var byHash: [UInt64: [Int]] = [:]
  private struct Key: Hashable {
    var name: UInt64
    var regionStart: Int
  }
  private let file: SourceFile

  /// - Parameters:
  ///   - types: a declaration `name: T` (or `T?`, `[T]`) with `T` in `types` counts.
  ///   - initializers: `let/var name = …` counts when the initializer mentions one of these words…
  ///   - excluding: …and none of these…
  ///   - accepting: …and this accepts the initializer's tokens.
  init(
    in file: SourceFile, types: Set<Word>, initializers: Set<Word>, excluding: Set<Word> = [],
    accepting: (Range<Int>) -> Bool = { _ in true }
  ) {
    self.file = file
    // How many tokens before each token are one of `initializers` (or of `excluding`): whether an
    // initializer mentions one is a subtraction, so `let w = { let w = { … }() }()` nested thousands deep
    // does not rescan the closures inside once per level.
    let mentions = Self.prefixCounts(file, initializers)
    let excluded = Self.prefixCounts(file, excluding)
    func anyOf(_ counts: [Int32], in range: Range<Int>) -> Bool {
      counts[range.upperBound] > counts[range.lowerBound]
    }
    for index in 0..<file.count where file.kind(index) == .identifier && !file.isMember(index) {
      if file.kind(index + 1) == .colon {
        var type = index + 2
        if file.kind(type) == .leftBracket { type += 1 }
        guard types.contains(file.word(type)) else { continue }
        add(index, visibleIn: region(of: index))
      } else if file.word(index - 1) == .let || file.word(index - 1) == .var {
        let statement = file.statement(from: index)
        guard let assign = statement.first(where: { file.word($0) == .opAssign }),
          anyOf(mentions, in: (assign + 1)..<statement.upperBound),
          !anyOf(excluded, in: (assign + 1)..<statement.upperBound),
          accepting((assign + 1)..<statement.upperBound)
        else { continue }
        add(index, visibleIn: region(of: index))
      }
    }
  }

  /// For each token position (and the end), how many tokens before it are one of `words`.
  private static func prefixCounts(_ file: SourceFile, _ words: Set<Word>) -> [Int32] {
    var counts = [Int32](repeating: 0, count: file.count + 1)
    var count: Int32 = 0
    for index in 0..<file.count {
      if !words.isEmpty, words.contains(file.word(index)) { count += 1 }
      counts[index + 1] = count
    }
    return counts
  }

  private func region(of index: Int) -> Range<Int> {
    // `let asset: AVAsset` declares no parameter: no need to look for the parentheses around it (a search
    // back through the type, once per property, which made a type of thousands of them quadratic).
    let declaresVariable = file.word(index - 1) == .let || file.word(index - 1) == .var
    if !declaresVariable, let function = file.functionDeclaring(parameter: index) {
      return file.body(of: function)
    }
    return file.body(of: file.syntax.scope(of: index))
  }

  mutating func add(_ token: Int, visibleIn region: Range<Int>) {
    let hash = ProjectModel.hash(file, token)
    byName[Key(name: hash, regionStart: region.lowerBound), default: []].append(names.count)
    byHash[hash, default: []].append(names.count)
    names.append((token, region))
  }

  /// Whether the identifier token `index` refers to one of the recorded names: one declared in a scope
  /// around it (every region is a scope's body, and scope bodies nest, so a region holds `index` exactly
  /// when its scope is around it).
  ///
  /// Two ways give the answer: the scopes around the read, each looked up with the name, or every
  /// declaration of the name, each region tested. Taken a step of each in turn, the answer costs twice
  /// the shorter: thousands of functions that each declare `asset` and a read thousands of closures deep
  /// both stay linear.
  func refers(_ index: Int) -> Bool {
    let hash = ProjectModel.hash(file, index)
    guard let declarations = byHash[hash] else { return false }
    func matches(_ name: Int) -> Bool {
      names[name].region.contains(index) && file.source.sameText(names[name].token, index)
    }
    var scopes = file.syntax.enclosingScopes(of: index).makeIterator()
    var next = 0
    while true {
      guard next < declarations.count else { return false }
      if matches(declarations[next]) { return true }
      next += 1
      guard let scope = scopes.next() else { return false }
      if let candidates = byName[Key(name: hash, regionStart: file.body(of: scope).lowerBound)],
        candidates.contains(where: matches)
      {
        return true
      }
    }
  }
}
