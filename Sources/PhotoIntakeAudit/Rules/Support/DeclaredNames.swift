/// Names the file declares with a given type or initializer, and the region where each is visible:
/// `status: PHAuthorizationStatus`, `let semaphore = DispatchSemaphore(value: 0)`.
///
/// Visibility is approximate (the enclosing scope, or the function for a parameter) but is enough to keep
/// a `status` of AVFoundation in one function apart from a `status` of PhotoKit in another.
struct DeclaredNames {
  /// Declarations by the hash of the name's text and the scope they are visible in (the scope whose body
  /// is their region), so `refers(_:)` looks only at the scopes around a read: a file that declares and
  /// reads thousands of assets, in thousands of functions, stays linear.
  private struct Key: Hashable {
    var hash: UInt64
    var scope: Int
  }
  private var byKey: [Key: [Int]] = [:]
  /// Every declaration (token and scope) by the hash of its name alone, in order: for a read more than
  /// ``scopeWalkLimit`` scopes deep.
  private var byHash: [UInt64: [(token: Int, scope: Int)]] = [:]
  /// How many scopes around a read ``declaration(_:)`` looks at one by one before it also reads the name's
  /// declarations, one per further scope (a read thousands of closures deep stays linear).
  static let scopeWalkLimit = 256
  /// Declarations in a type's body by the type's name, for reads in its extensions in the same file.
  private var byTypeName: [String: [UInt64: [Int]]] = [:]
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
    let mentions = TokenCounts(file) { initializers.contains(file.word($0)) }
    let excluded = TokenCounts(file) { excluding.contains(file.word($0)) }
    for index in 0..<file.count where file.kind(index) == .identifier && !file.isMember(index) {
      if file.kind(index + 1) == .colon {
        var type = index + 2
        if file.kind(type) == .leftBracket { type += 1 }
        guard types.contains(file.word(type)) else { continue }
        add(index, inScope: scope(of: index))
      } else if file.word(index - 1) == .let || file.word(index - 1) == .var {
        let statement = file.statement(from: index)
        guard let assign = statement.first(where: { file.word($0) == .opAssign }),
          mentions.any(in: (assign + 1)..<statement.upperBound),
          !excluded.any(in: (assign + 1)..<statement.upperBound),
          accepting((assign + 1)..<statement.upperBound)
        else { continue }
        add(index, inScope: scope(of: index))
      }
    }
  }

  /// The scope a declaration is visible in: the function for a parameter, else the scope around it.
  private func scope(of index: Int) -> Int {
    // `let asset: AVAsset` declares no parameter: no need to look for the parentheses around it (a search
    // back through the type, once per property, which made a type of thousands of them quadratic).
    let declaresVariable = file.word(index - 1) == .let || file.word(index - 1) == .var
    if !declaresVariable, let function = file.functionDeclaring(parameter: index) {
      return function
    }
    return file.syntax.scope(of: index)
  }

  /// Adds the variables of `for` loops over a recorded collection: `for asset in assets {`,
  /// `for asset in self.assets {`, `for (index, asset) in assets.enumerated() {` (Swift 2: `enumerate()`),
  /// where `assets` was declared `[AVAsset]` or made by `urls.map { AVAsset(url: $0) }`. Each loop variable
  /// is visible in its loop's body. One pass over the file; each loop costs a bounded look.
  mutating func addLoopVariables() {
    for index in 0..<file.count where file.word(index) == .for {
      // The loop variable: `asset`, or the last name of `(index, asset)`.
      var cursor = index + 1
      if file.word(cursor) == .case { continue }
      var variable = cursor
      if file.kind(cursor) == .leftParen {
        guard let close = file.match(cursor), close - cursor == 4, file.kind(cursor + 2) == .comma else {
          continue
        }
        variable = cursor + 3
        cursor = close
      }
      guard file.kind(variable) == .identifier, file.word(cursor + 1) == .in else { continue }
      // The collection: `assets` or `self.assets`, then `{` or `.enumerated() {`.
      var collection = cursor + 2
      if file.word(collection) == .selfKeyword, file.kind(collection + 1) == .dot { collection += 2 }
      guard file.kind(collection) == .identifier, let declared = declaration(collection) else { continue }
      var brace = collection + 1
      if file.kind(brace) == .dot, ["enumerated", "enumerate"].contains(file.text(brace + 1)),
        file.kind(brace + 2) == .leftParen, file.kind(brace + 3) == .rightParen
      {
        brace += 4
      }
      guard file.kind(brace) == .leftBrace, let body = file.scopeOpened(at: brace) else { continue }
      add(variable, inScope: body)
      if file.scope(file.syntax.scope(of: declared)).kind == .type {
        storedLoops[variable] = file.text(collection)
      }
    }
  }

  /// Adds the first parameter of each closure handed to one of `callees`, visible in the closure's body:
  /// `{ avAsset, audioMix, info in` of `requestAVAsset(forVideo:options:resultHandler:)`, whose result
  /// handler's first argument is the `AVAsset?` PhotoKit made, untyped in the source. One pass over the
  /// scopes.
  mutating func addFirstClosureParameters(of callees: Set<Word>) {
    for (number, scope) in file.syntax.scopes.enumerated()
    where scope.kind == .closure && scope.callee >= 0 && callees.contains(file.word(scope.callee)) {
      guard let first = scope.parameters.first, file.text(first) != "_" else { continue }
      add(first, inScope: number)
    }
  }

  /// Adds names bound to a recorded name: `if let video = avAsset {`, `guard let video = avAsset else`,
  /// `let video = avAsset!`: the same value under another name, visible in the scope around the binding
  /// (as every declaration here). Only a bare name or a forced one counts; a member, call or subscript
  /// after it (`avAsset.tracks`, `assets[0]`) makes another value. One pass over the file, in order, so a
  /// binding of a binding counts too.
  mutating func addBindings() {
    for index in 0..<file.count
    where file.kind(index) == .identifier && (file.word(index - 1) == .let || file.word(index - 1) == .var)
      && file.word(index + 1) == .opAssign && file.kind(index + 2) == .identifier
    {
      var after = index + 3
      if file.word(after) == .opBang, file.tokens[after].start == file.tokens[after - 1].end { after += 1 }
      guard file.kind(after) != .dot, file.kind(after) != .leftParen, file.kind(after) != .leftBracket,
        file.word(after) != .opQuestion, refers(index + 2)
      else { continue }
      add(index, inScope: scope(of: index))
      boundFrom[index] = index + 2
    }
  }

  /// For each name ``addBindings()`` recorded (by token), the name it was bound to (`avAsset` for
  /// `if let video = avAsset`): reads of either are reads of one asset.
  private(set) var boundFrom: [Int: Int] = [:]

  /// Loop variables (by token) over a collection the type stores (`var assets: [AVAsset]`), with the
  /// collection's name: every loop over it reads the same assets.
  private(set) var storedLoops: [Int: String] = [:]

  /// Records `token` as a declaration visible in the body of scope `scope`.
  mutating func add(_ token: Int, inScope scope: Int) {
    let hash = ProjectModel.hash(file, token)
    byKey[Key(hash: hash, scope: scope), default: []].append(token)
    byHash[hash, default: []].append((token, scope))
    if file.scope(scope).kind == .type, let type = file.name(of: scope) {
      byTypeName[type, default: [:]][hash, default: []].append(token)
    }
  }

  /// Whether the identifier token `index` refers to one of the recorded names.
  func refers(_ index: Int) -> Bool { declaration(index) != nil }

  /// The declaration the identifier token `index` refers to: the nearest recorded one whose scope
  /// encloses it. Past ``scopeWalkLimit`` scopes it also reads the name's declarations, one per further
  /// scope, and when those run out first answers with the innermost that holds `index` (a type's stored
  /// property read in an extension that deep is not looked for): the cost is bounded by the shorter list.
  func declaration(_ index: Int) -> Int? {
    let hash = ProjectModel.hash(file, index)
    let all = byHash[hash] ?? []
    var walked = 0
    var scanned = 0
    var best: (start: Int, token: Int)?
    for scope in file.syntax.enclosingScopes(of: index) {
      walked += 1
      if walked > Self.scopeWalkLimit {
        guard scanned < all.count else { return best?.token }
        let candidate = all[scanned]
        scanned += 1
        let region = file.body(of: candidate.scope)
        if region.contains(index), file.source.sameText(candidate.token, index),
          best.map({ region.lowerBound >= $0.start }) ?? true
        {
          best = (region.lowerBound, candidate.token)
        }
      }
      if let tokens = byKey[Key(hash: hash, scope: scope)],
        let token = tokens.last(where: { file.source.sameText($0, index) })
      {
        return token
      }
      // A stored property of the type read in an extension of it (`extension MergeViewController {`).
      if file.scope(scope).kind == .type, let type = file.name(of: scope),
        let token = byTypeName[type]?[hash]?.last(where: { file.source.sameText($0, index) })
      {
        return token
      }
    }
    return nil
  }
}
