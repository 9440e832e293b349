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
  /// Per function scope: the reads and loads of each receiver key in it, by token, in order.
  private var uses: [Int: [String: [Int]]] = [:]
  /// Per type scope: the keys some function of the type loads.
  private var loadedInType: [Int: Set<String>] = [:]
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
  /// Per function scope: the names of its parameters and locals (see ``declaredNames(in:)``).
  private var declared: [Int: Set<String>] = [:]
  /// Per region (a function scope, or -1 for the whole file): each name's assignments and declarations
  /// with a value, by name hash, in order (see ``assignments(in:)``).
  private var assignmentIndex: [Int: [UInt64: [(token: Int, value: Range<Int>)]]] = [:]

  init(_ file: SourceFile) { self.file = file }

  private static let reads: Set<Word> = [.duration, .tracks, .commonMetadata, .isPlayable]
  private static let loaderNames: Set<String> = ["load", "loadValuesAsynchronously", "loadTracks"]

  /// Whether the synchronous read at `index` (`asset.duration`, `asset.tracks(withMediaType:)`) finds
  /// the asset already loaded.
  mutating func isLoaded(readAt index: Int) -> Bool {
    guard let end = receiverEnd(of: index) else { return false }
    let key = Self.key(file, start: file.postfixStart(endingAt: end), end: end)
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
    if let earlier = usesOf(key, in: function), Self.any(earlier, after: since, before: index) { return true }
    guard isProperty(key, in: function), let type = file.enclosingType(of: index) else { return false }
    return keysLoaded(in: type).contains(key)
  }

  /// Whether the read at `index` is the one to report for its asset: always for a local or parameter, and
  /// for a stored property of a type only the first read reported in the file (an asset blocks once; which
  /// of the type's methods reads it first is not known, and every later read finds it loaded).
  mutating func claim(readAt index: Int) -> Bool {
    guard let end = receiverEnd(of: index) else { return true }
    let key = Self.key(file, start: file.postfixStart(endingAt: end), end: end)
    let function = file.enclosingFunction(of: index)
    guard isProperty(key, in: function), let type = file.enclosingType(of: index) else { return true }
    return reportedProperties.insert("\(type):\(key)").inserted
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

  /// `self.asset`, `asset?` and `asset!` are the same value as `asset`.
  private static func key(_ file: SourceFile, start: Int, end: Int) -> String {
    var text = ""
    for token in start...max(start, end) where file.kind(token) != .op {
      text += file.text(token)
    }
    return text.hasPrefix("self.") ? String(text.dropFirst(5)) : text
  }

  private mutating func usesOf(_ key: String, in function: Int) -> [Int]? {
    if let known = uses[function] { return known[key] }
    var found: [String: [Int]] = [:]
    for token in file.body(of: function) where file.kind(token) == .identifier && file.isMember(token) {
      let loads = Self.loaderNames.contains(file.text(token)) || file.word(token) == .statusOfValue
      guard loads || Self.reads.contains(file.word(token)), let end = receiverEnd(of: token) else { continue }
      found[Self.key(file, start: file.postfixStart(endingAt: end), end: end), default: []].append(token)
    }
    uses[function] = found
    return found[key]
  }

  /// Whether the sorted `tokens` hold one strictly between `lower` and `upper` (a binary search, so a
  /// function of thousands of reads stays linear-logarithmic).
  private static func any(_ tokens: [Int], after lower: Int, before upper: Int) -> Bool {
    var low = 0
    var high = tokens.count
    while low < high {
      let middle = (low + high) / 2
      if tokens[middle] <= lower { low = middle + 1 } else { high = middle }
    }
    return low < tokens.count && tokens[low] < upper
  }

  private mutating func keysLoaded(in type: Int) -> Set<String> {
    if let known = loadedInType[type] { return known }
    var keys: Set<String> = []
    for token in file.body(of: type) where file.kind(token) == .identifier && file.isMember(token) {
      guard Self.loaderNames.contains(file.text(token)) || file.word(token) == .statusOfValue,
        let end = receiverEnd(of: token)
      else { continue }
      keys.insert(Self.key(file, start: file.postfixStart(endingAt: end), end: end))
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
    var low = 0
    var high = declarations.count
    while low < high {
      let middle = (low + high) / 2
      if declarations[middle].token < item { low = middle + 1 } else { high = middle }
    }
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
    if answer { answer = !declaredNames(in: function).contains(key) }
    properties[function, default: [:]][key] = answer
    return answer
  }

  /// The names function scope `function` declares: its parameters, its locals and its loop variables
  /// (`for asset in assets`, `for (index, asset) in assets.enumerated()`). Found in one pass per function,
  /// so a function that reads thousands of differently named assets stays linear.
  private mutating func declaredNames(in function: Int) -> Set<String> {
    if let known = declared[function] { return known }
    let scope = file.scope(function)
    var names: Set<String> = []
    for token in max(scope.head, 0)..<scope.close where file.kind(token) == .identifier {
      let loopVariable =
        file.word(token - 1) == .for || (file.kind(token - 1) == .leftParen && file.word(token - 2) == .for)
        || (file.kind(token - 1) == .comma && file.kind(token - 3) == .leftParen
          && file.word(token - 4) == .for)
      if (token < scope.open && file.kind(token + 1) == .colon) || file.word(token - 1) == .let
        || file.word(token - 1) == .var || loopVariable
      {
        names.insert(file.text(token))
      }
    }
    declared[function] = names
    return names
  }

  // MARK: Remote URLs

  /// The value a name was declared or last assigned with, in its function or else in the file: the first
  /// assignment after `name` if there is one, else the last before it. Looked up in an index built once per
  /// region, so that a function of thousands of assets costs one pass, not one per asset.
  private mutating func initializer(of name: Int) -> Range<Int>? {
    let function = file.enclosingFunction(of: name)
    let hash = ProjectModel.hash(file, name)
    for key in [function, -1] {
      let entries = (assignments(in: key)[hash] ?? []).filter {
        $0.token != name && file.source.sameText($0.token, name)
      }
      guard let last = entries.last else { continue }
      // The first assignment after the name, else the last one before it.
      var low = 0
      var high = entries.count
      while low < high {
        let middle = (low + high) / 2
        if entries[middle].token > name { high = middle } else { low = middle + 1 }
      }
      return low < entries.count ? entries[low].value : last.value
    }
    return nil
  }

  /// Every `name = value`, `let name = value` and `var name: Type = value` in region `key` (a function
  /// scope's body, or the whole file for -1), by the name's hash, in order; a member only as `self.name`.
  private mutating func assignments(in key: Int) -> [UInt64: [(token: Int, value: Range<Int>)]] {
    if let known = assignmentIndex[key] { return known }
    let region = key >= 0 ? file.body(of: key) : 0..<file.count
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
    assignmentIndex[key] = index
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
