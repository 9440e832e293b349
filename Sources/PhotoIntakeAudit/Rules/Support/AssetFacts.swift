/// What a file says about its `AVAsset` values, per value (the receiver's text: `asset`, `self.video`,
/// `player.currentItem?.asset`): whether one is already loaded when a synchronous property is read, and
/// whether it comes from a remote URL.
///
/// Only the first synchronous read of an asset can block: the asset keeps what it loaded. So a read is
/// harmless after an earlier read of the same value in the same function, after `load(_:)`,
/// `loadValuesAsynchronously(forKeys:)`, `loadTracks(withMediaType:)` or a `statusOfValue(forKey:error:)`
/// check on it (in that function, or for a property, anywhere in its type), and on the asset of a player
/// item, which the player loaded before it could play — unless the function has just made that item
/// (`let item = AVPlayerItem(asset: …)`) and reads its asset before any player could load it.
struct AssetFacts {
  let file: SourceFile
  /// The reads and loads of each receiver key in the file, by token, in order. A function's are the slice
  /// inside its body (nested functions included, as its body scan always counted them), found by binary
  /// search: one pass per file, however deeply functions nest.
  private var uses: [String: [Int]]?
  /// Per type scope: the keys some function of the type loads.
  private var loadedInType: [Int: Set<String>] = [:]
  /// Per type scope: the stored properties its methods set to a new asset (``reassignedKeys(in:)``).
  private var reassignedInType: [Int: Set<String>] = [:]
  /// The file's type and extension scopes by name, built once (``reassignedKeys(in:)``).
  private var typeScopesByName: [String: [Int]]?
  /// Per `type name:key`: the names of the type's methods in the file that read or load the key
  /// (``calledReader(before:key:type:)``).
  private var readers: [String: Set<String>] = [:]
  /// Per function scope and key: whether the key names a property (not a parameter or local).
  private var properties: [Int: [String: Bool]] = [:]
  /// Per function scope and receiver text: whether the asset or generator is remote.
  private var remote: [Int: [String: Bool]] = [:]
  /// Per function scope: each local name's declarations (see ``localDeclarations(in:)``).
  private var declarations: [Int: [String: [Declaration]]] = [:]
  /// A `let`/`var` name's token, and whether its value is `AVPlayerItem(…)`.
  private typealias Declaration = (token: Int, makesPlayerItem: Bool)
  /// `type scope:key` of stored assets whose blocking read was already reported.
  private var reportedProperties: Set<String> = []
  /// Per function scope: the names of its parameters (see ``isDeclared(_:in:)``).
  private var declared: [Int: Set<String>] = [:]
  /// Each name declared with `let`/`var` anywhere in the file, by token, in order (see ``isDeclared(_:in:)``).
  private var localsInFile: [String: [Int]]?
  /// Each name's assignments and declarations with a value in the file, by name hash, in order (see
  /// ``assignments()``). A function's are the slice inside its body, found by binary search.
  private var assignmentIndex: [UInt64: [(token: Int, value: Range<Int>)]]?

  init(_ file: SourceFile) { self.file = file }

  private static let reads: Set<Word> = [.duration, .tracks, .commonMetadata, .isPlayable]
  /// The most tokens a receiver key reads back from its member (`player.currentItem?.asset` is six).
  /// A longer receiver (`a.duration.duration…` thousands long) keys by its last tokens behind a mark,
  /// so that keying every member of a chain stays linear in the chain, not quadratic in time and memory.
  static let maxReceiverTokens = 256
  private static let loaderNames: Set<String> = ["load", "loadValuesAsynchronously", "loadTracks"]

  /// Whether the synchronous read at `index` (`asset.duration`, `asset.tracks(withMediaType:)`) finds
  /// the asset already loaded.
  mutating func isLoaded(readAt index: Int) -> Bool {
    guard let end = receiverEnd(of: index) else { return false }
    let key = Self.key(file, end: end)
    // `player.currentItem?.asset.duration`, `playerItem.asset.duration`: the player loaded it.
    let lower = ASCII.lowercased(key)
    if ASCII.contains(lower, "currentitem") { return true }
    let function = file.enclosingFunction(of: index)
    // A player item this function has just made: only a use after it was made counts.
    var since = -1
    if ASCII.hasSuffix(lower, ".asset"), ASCII.contains(lower, "item") || ASCII.contains(lower, "player") {
      guard let made = newPlayerItem(assetAt: end, in: function) else { return true }
      since = made
    }
    let after = max(since, file.body(of: function).lowerBound - 1)
    if let earlier = usesOf(key), Self.any(earlier, after: after, before: index) { return true }
    guard isProperty(key, in: function), let type = file.enclosingType(of: index) else { return false }
    return keysLoaded(in: type).contains(key)
  }

  /// Whether the asset named `source` (a bare name another name was bound to: `avAsset` in
  /// `if let video = avAsset`) was read or loaded under that name before `index` in the function around
  /// `index`: the same asset, so a read under the new name finds it loaded.
  mutating func isLoaded(source: Int, before index: Int) -> Bool {
    let function = file.enclosingFunction(of: index)
    guard let earlier = usesOf(Self.key(file, end: source)) else { return false }
    return Self.any(earlier, after: file.body(of: function).lowerBound - 1, before: index)
  }

  /// Whether the read at `index` is the one to report for its asset: always for a local or parameter, and
  /// for a stored property of a type only the first read reported in the file (an asset blocks once; which
  /// of the type's methods reads it first is not known, and every later read finds it loaded).
  mutating func claim(readAt index: Int) -> Bool {
    guard let end = receiverEnd(of: index) else { return true }
    let key = Self.key(file, end: end)
    let function = file.enclosingFunction(of: index)
    guard isProperty(key, in: function), let type = file.enclosingType(of: index) else { return true }
    // A property a member sets to a new asset (`videoAsset = AVURLAsset(url: exportURL)` after each edit)
    // holds an unloaded asset again, and the type's actions run in any order: each function's first read
    // may be the first.
    if reassignedKeys(in: type).contains(key) {
      let claim = "\(type):\(key):\(function)"
      guard !reportedProperties.contains(claim) else { return false }
      reportedProperties.insert(claim)
      return !calledReader(before: index, key: key, type: type)
    }
    return reportedProperties.insert("\(type):\(key)").inserted
  }

  /// Whether the function around `index` called, before it, a method of its own type that reads or loads
  /// `key` itself (`let composition = getVideoComposition()`, then `videoAsset.tracks(…)`): that read came
  /// first, and the asset is loaded by now.
  private mutating func calledReader(before index: Int, key: String, type: Int) -> Bool {
    let typeName = file.name(of: type) ?? ""
    let memoKey = typeName + ":" + key
    if readers[memoKey] == nil {
      var names: Set<String> = []
      for use in usesOf(key) ?? [] {
        let function = file.enclosingFunction(of: use)
        guard function > 0, file.scope(function).kind == .function,
          let owner = file.enclosingType(of: use), file.name(of: owner) == typeName,
          let name = file.name(of: function)
        else { continue }
        names.insert(name)
      }
      readers[memoKey] = names
    }
    guard let names = readers[memoKey], !names.isEmpty else { return false }
    let function = file.enclosingFunction(of: index)
    let own = file.name(of: function)
    for token in file.body(of: function).lowerBound..<index
    where file.kind(token) == .identifier && file.kind(token + 1) == .leftParen {
      let name = file.text(token)
      guard name != own, names.contains(name) else { continue }
      if file.kind(token - 1) == .dot, file.word(token - 2) != .selfKeyword { continue }
      return true
    }
    return false
  }

  /// The stored properties of the type at scope `type` that one of its methods (not an initializer) sets
  /// to a new asset (`videoAsset = AVURLAsset(url: url)`, `self.asset = AVAsset(url: url)`), in the type's
  /// declaration or any extension of it in the file, found in one pass over the file per type name.
  private mutating func reassignedKeys(in type: Int) -> Set<String> {
    if let known = reassignedInType[type] { return known }
    if typeScopesByName == nil {
      var byName: [String: [Int]] = [:]
      for scope in file.syntax.scopes.indices where file.scope(scope).kind == .type {
        if let name = file.name(of: scope) { byName[name, default: []].append(scope) }
      }
      typeScopesByName = byName
    }
    let scopes = file.name(of: type).flatMap { typeScopesByName?[$0] } ?? [type]
    var keys: Set<String> = []
    for scope in scopes {
      keys.formUnion(reassignedKeys(inBodyOf: scope))
    }
    for scope in scopes { reassignedInType[scope] = keys }
    return keys
  }

  /// ``reassignedKeys(in:)`` for one type or extension scope.
  private func reassignedKeys(inBodyOf type: Int) -> Set<String> {
    var keys: Set<String> = []
    for token in file.body(of: type)
    where file.word(token) == .opAssign && file.kind(token - 1) == .identifier {
      let name = token - 1
      let isOwn = file.kind(name - 1) != .dot || (file.word(name - 2) == .selfKeyword && name - 2 >= 0)
      guard isOwn, file.word(name - 1) != .let, file.word(name - 1) != .var else { continue }
      let function = file.enclosingFunction(of: token)
      guard function > 0, file.scope(function).kind == .function,
        file.word(file.scope(function).head) != .initKeyword
      else { continue }
      let value = file.statement(from: token + 1)
      guard value.contains(where: { file.word($0) == .AVURLAsset || file.word($0) == .AVAsset }) else {
        continue
      }
      keys.insert(file.text(name))
    }
    return keys
  }

  /// ``isRemote(assetAt:)`` or ``isRemote(generatorAt:)``, remembered per function and name.
  mutating func isRemote(_ receiver: Int, generator: Bool) -> Bool {
    guard file.kind(receiver) == .identifier else { return false }
    let function = file.enclosingFunction(of: receiver)
    let name = file.text(receiver)
    if let known = remote[function]?[name] { return known }
    let answer = generator ? isRemote(generatorAt: receiver) : isRemote(assetAt: receiver)
    remote[function, default: [:]][name] = answer
    return answer
  }

  /// Whether the asset named at `receiver` is made from a remote URL (`AVURLAsset(url: URL(string: …))`).
  private mutating func isRemote(assetAt receiver: Int) -> Bool {
    guard file.kind(receiver) == .identifier, let value = initializer(of: receiver) else { return false }
    guard let url = urlArgument(in: value) else { return false }
    return isRemote(url: url, depth: 2)
  }

  /// Whether the asset made at `constructor` (`AVURLAsset(url: URL(string: "https://…")!)`, read straight
  /// off its initializer) is of a remote URL.
  mutating func isRemote(constructorAt constructor: Int) -> Bool {
    guard let close = file.match(constructor + 1), let url = urlArgument(in: constructor..<(close + 1)) else {
      return false
    }
    return isRemote(url: url, depth: 2)
  }

  /// Whether the image generator named at `receiver` reads a remote asset:
  /// `AVAssetImageGenerator(asset: AVAsset(url: remote))`.
  private mutating func isRemote(generatorAt receiver: Int) -> Bool {
    guard file.kind(receiver) == .identifier, let value = initializer(of: receiver),
      let make = value.first(where: { file.word($0) == .AVAssetImageGenerator }),
      file.kind(make + 1) == .leftParen, let close = file.match(make + 1)
    else { return false }
    let argument = (make + 2)..<close
    if let url = urlArgument(in: argument) { return isRemote(url: url, depth: 2) }
    guard let asset = argument.last(where: { file.kind($0) == .identifier }) else { return false }
    return isRemote(assetAt: asset)
  }

  /// Whether the function around `index` lets PhotoKit download (`options.isNetworkAccessAllowed = true`).
  func allowsNetwork(around index: Int) -> Bool {
    let body = file.body(of: file.enclosingFunction(of: index))
    return body.contains { file.word($0) == .isNetworkAccessAllowed && file.word($0 + 2) == .true }
  }

  // MARK: Loads

  /// The last token of the receiver of the member at `index` (`asset` in `asset?.duration`).
  private func receiverEnd(of index: Int) -> Int? {
    guard file.kind(index - 1) == .dot else { return nil }
    var end = index - 2
    if file.word(end) == .opQuestion || file.word(end) == .opBang { end -= 1 }
    return end >= 0 ? end : nil
  }

  /// `self.asset`, `asset?` and `asset!` are the same value as `asset`: the receiver's text without
  /// operators, from its postfix start to `end`. A receiver longer than ``maxReceiverTokens`` keys by its
  /// last tokens behind `…`.
  private static func key(_ file: SourceFile, end: Int) -> String {
    var text = ""
    let floor = max(0, end - maxReceiverTokens)
    var start = floor
    if let found = file.postfixStart(endingAt: end, notBefore: floor) { start = found } else { text = "…" }
    for token in start...max(start, end) where file.kind(token) != .op {
      text += file.text(token)
    }
    return text.hasPrefix("self.") ? String(text.dropFirst(5)) : text
  }

  /// ``uses`` for `key`, built in one pass over the file.
  private mutating func usesOf(_ key: String) -> [Int]? {
    if let known = uses { return known[key] }
    var found: [String: [Int]] = [:]
    for token in 0..<file.count where file.kind(token) == .identifier && file.isMember(token) {
      let loads = Self.loaderNames.contains(file.text(token)) || file.word(token) == .statusOfValue
      guard loads || Self.reads.contains(file.word(token)), let end = receiverEnd(of: token) else { continue }
      found[Self.key(file, end: end), default: []].append(token)
    }
    uses = found
    return found[key]
  }

  /// Whether the sorted `tokens` hold one strictly between `lower` and `upper` (a binary search, so a
  /// function of thousands of reads stays linear-logarithmic).
  private static func any(_ tokens: [Int], after lower: Int, before upper: Int) -> Bool {
    let low = tokens.partitioningIndex { $0 > lower }
    return low < tokens.count && tokens[low] < upper
  }

  private mutating func keysLoaded(in type: Int) -> Set<String> {
    if let known = loadedInType[type] { return known }
    var keys: Set<String> = []
    for token in file.body(of: type) where file.kind(token) == .identifier && file.isMember(token) {
      guard Self.loaderNames.contains(file.text(token)) || file.word(token) == .statusOfValue,
        let end = receiverEnd(of: token)
      else { continue }
      keys.insert(Self.key(file, end: end))
    }
    loadedInType[type] = keys
    return keys
  }

  /// Where this function made the player item whose asset `item.asset` at `asset` reads
  /// (`let item = AVPlayerItem(asset: AVAsset(url: url))`), if it did: no player has had the time to load
  /// it, so the first read after that blocks. An item that comes from elsewhere (a property, a parameter, a
  /// player) is one a player loaded before it could play: nil.
  private mutating func newPlayerItem(assetAt asset: Int, in function: Int) -> Int? {
    let item = asset - 2
    guard file.kind(asset - 1) == .dot, file.kind(item) == .identifier,
      file.postfixStart(endingAt: asset) == item
    else { return nil }
    // The nearest declaration of the name before the read, in this function.
    let declarations = localDeclarations(in: function)[file.text(item)] ?? []
    // Declarations are in token order: the last one before the read, by binary search.
    let low = declarations.partitioningIndex { $0.token >= item }
    guard low > 0, declarations[low - 1].makesPlayerItem else { return nil }
    return declarations[low - 1].token
  }

  /// Per function: each name's `let`/`var` declarations in order, and whether each is initialised with
  /// `AVPlayerItem(…)`. Worked out once per function, so a file of many reads stays linear.
  private mutating func localDeclarations(in function: Int) -> [String: [Declaration]] {
    if let known = declarations[function] { return known }
    var found: [String: [Declaration]] = [:]
    let body = file.body(of: function)
    for token in body
    where file.kind(token) == .identifier && (file.word(token - 1) == .let || file.word(token - 1) == .var) {
      var assign = token + 1
      while assign < body.upperBound, file.word(assign) != .opAssign, !file.tokens[assign].startsLine,
        file.kind(assign) != .leftBrace
      {
        assign += 1
      }
      let makes =
        assign < body.upperBound && file.word(assign) == .opAssign && file.word(assign + 1) == .AVPlayerItem
        && file.kind(assign + 2) == .leftParen
      found[file.text(token), default: []].append((token, makes))
    }
    declarations[function] = found
    return found
  }

  /// Whether `key` names a stored value of the type rather than a parameter or local of `function`.
  private mutating func isProperty(_ key: String, in function: Int) -> Bool {
    if let known = properties[function]?[key] { return known }
    let scope = file.scope(function)
    var answer = (scope.kind == .function || scope.kind == .accessor) && !key.contains(".")
    if answer { answer = !isDeclared(key, in: function) }
    properties[function, default: [:]][key] = answer
    return answer
  }

  /// Whether function scope `function` declares `name`: a parameter, or a `let`/`var` or loop variable
  /// (`for asset in assets`, `for (index, asset) in assets.enumerated()`) anywhere from its head to its
  /// end (nested functions included). Parameters are read from the head once per function;
  /// locals are looked up by binary search in ``localsInFile``, built in one pass per file, so neither a
  /// function of thousands of differently named assets nor thousands of nested functions rescan a body.
  private mutating func isDeclared(_ name: String, in function: Int) -> Bool {
    let scope = file.scope(function)
    let head = max(scope.head, 0)
    if declared[function] == nil {
      var names: Set<String> = []
      for token in head..<max(head, min(scope.open, scope.close))
      where file.kind(token) == .identifier && file.kind(token + 1) == .colon {
        names.insert(file.text(token))
      }
      declared[function] = names
    }
    if declared[function]?.contains(name) == true { return true }
    if localsInFile == nil {
      var found: [String: [Int]] = [:]
      for token in 0..<file.count where file.kind(token) == .identifier {
        let loopVariable =
          file.word(token - 1) == .for || (file.kind(token - 1) == .leftParen && file.word(token - 2) == .for)
          || (file.kind(token - 1) == .comma && file.kind(token - 3) == .leftParen
            && file.word(token - 4) == .for)
        guard file.word(token - 1) == .let || file.word(token - 1) == .var || loopVariable else { continue }
        found[file.text(token), default: []].append(token)
      }
      localsInFile = found
    }
    guard let tokens = localsInFile?[name] else { return false }
    let index = tokens.firstPosition(atOrAfter: head)
    return index < tokens.count && tokens[index] < scope.close
  }

  // MARK: Remote URLs

  /// The value a name was declared or last assigned with, in its function or else in the file: the first
  /// assignment after `name` if there is one, else the last before it. Looked up in an index built once per
  /// region, so that a function of thousands of assets costs one pass, not one per asset.
  private mutating func initializer(of name: Int) -> Range<Int>? {
    let function = file.enclosingFunction(of: name)
    let hash = ProjectModel.hash(file, name)
    let all = assignments()[hash] ?? []
    for key in [function, -1] {
      var slice = all[...]
      if key >= 0 {
        // Nested functions included, as the function's body scan always counted them.
        let body = file.body(of: key)
        let low = all.partitioningIndex { $0.token >= body.lowerBound }
        let end = all.partitioningIndex { $0.token >= body.upperBound }
        slice = all[low..<max(low, end)]
      }
      let entries = slice.filter { $0.token != name && file.source.sameText($0.token, name) }
      guard let last = entries.last else { continue }
      // The first assignment after the name, else the last one before it.
      let low = entries.partitioningIndex { $0.token > name }
      return low < entries.count ? entries[low].value : last.value
    }
    return nil
  }

  /// Every `name = value`, `let name = value` and `var name: Type = value` in the file, by the name's
  /// hash, in order; a member only as `self.name`. One pass per file.
  private mutating func assignments() -> [UInt64: [(token: Int, value: Range<Int>)]] {
    if let known = assignmentIndex { return known }
    let region = 0..<file.count
    var index: [UInt64: [(token: Int, value: Range<Int>)]] = [:]
    for token in region
    where file.kind(token) == .identifier && (!file.isMember(token) || file.word(token - 2) == .selfKeyword) {
      var assign = token + 1
      // `var name: Type = value`: only after `let`/`var` (a label `name: value` in a call is no
      // declaration), and only to the statement's end (`;`, `{`, a bracket closing, the next `let` or
      // `var`), so a line of thousands of labels or declarations is read once.
      if file.kind(assign) == .colon, file.word(token - 1) == .let || file.word(token - 1) == .var {
        while assign < region.upperBound, file.word(assign) != .opAssign, !file.tokens[assign].startsLine,
          file.kind(assign) != .semicolon, file.kind(assign) != .leftBrace, !file.tokens[assign].isClosing,
          file.word(assign) != .let, file.word(assign) != .var
        {
          assign += 1
        }
      }
      guard assign < file.count, file.word(assign) == .opAssign else { continue }
      index[ProjectModel.hash(file, token), default: []].append((token, file.statement(from: assign + 1)))
    }
    assignmentIndex = index
    return index
  }

  /// The `url:` argument of `AVAsset(url:)`, `AVURLAsset(url:options:)` or `AVPlayer(url:)` in `range`.
  private func urlArgument(in range: Range<Int>) -> Range<Int>? {
    for token in range
    where (file.word(token) == .AVAsset || file.word(token) == .AVURLAsset || file.word(token) == .AVPlayer)
      && file.kind(token + 1) == .leftParen
    {
      guard let close = file.match(token + 1), file.text(token + 2) == "url", file.kind(token + 3) == .colon
      else {
        continue
      }
      return (token + 4)..<file.endOfArgument(from: token + 4, close: close)
    }
    return nil
  }

  /// `URL(string: "https://…")`, `URL(string: post.videoURL)` or a name saying remote or stream; not
  /// `URL(fileURLWithPath:)`, a bundle resource or a file in the app's folders.
  private mutating func isRemote(url: Range<Int>, depth: Int) -> Bool {
    var sawString = false
    for token in url {
      let text = file.text(token)
      if file.word(token) == .fileURLWithPath
        || [
          "Bundle", "FileManager", "documentDirectory",
          "temporaryDirectory", "documentsDirectory", "mediaURL", "cachesDirectory",
        ].contains(text)
      {
        return false
      }
      if file.kind(token) == .string {
        let literal = ASCII.lowercased(text)
        if ASCII.contains(literal, "http://") || ASCII.contains(literal, "https://") { return true }
        if ASCII.contains(literal, "file://") { return false }
      }
      if text == "string", file.kind(token + 1) == .colon, file.text(token - 2) == "URL" { sawString = true }
      let lower = ASCII.lowercased(text)
      if file.kind(token) == .identifier,
        ["remote", "stream", "http", "server", "download"].contains(where: { ASCII.contains(lower, $0) })
      {
        return true
      }
    }
    if sawString { return true }
    // `let url = URL(string: …)` one line up.
    if depth > 0, url.count == 1, file.kind(url.lowerBound) == .identifier,
      let value = initializer(of: url.lowerBound)
    {
      return isRemote(url: value, depth: depth - 1)
    }
    return false
  }
}
