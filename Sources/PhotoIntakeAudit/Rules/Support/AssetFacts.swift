/// What a file says about its `AVAsset` values, per value (the receiver's text: `asset`, `self.video`,
/// `player.currentItem?.asset`): whether one is already loaded when a synchronous property is read, and
/// whether it comes from a remote URL.
///
/// Only the first synchronous read of an asset can block: the asset keeps what it loaded. So a read is
/// harmless after an earlier read of the same value in the same function, after `load(_:)`,
/// `loadValuesAsynchronously(forKeys:)`, `loadTracks(withMediaType:)` or a `statusOfValue(forKey:error:)`
/// check on it (in that function, or for a property, anywhere in its type), and on the asset of a player
/// item, which the player loaded before it could play.
struct AssetFacts {
  let file: SourceFile
  /// Per function scope: the first read or load of each receiver key in it, by token.
  private var firstUse: [Int: [String: Int]] = [:]
  /// Per type scope: the keys some function of the type loads.
  private var loadedInType: [Int: Set<String>] = [:]
  /// Per function scope and key: whether the key names a property (not a parameter or local).
  private var properties: [Int: [String: Bool]] = [:]
  /// Per function scope and receiver text: whether the asset or generator is remote.
  private var remote: [Int: [String: Bool]] = [:]
  /// `type scope:key` of stored assets whose blocking read was already reported.
  private var reportedProperties: Set<String> = []

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
    if ASCII.hasSuffix(lower, ".asset"), ASCII.contains(lower, "item") || ASCII.contains(lower, "player") {
      return true
    }
    let function = file.enclosingFunction(of: index)
    if let first = firstUses(in: function)[key], first < index { return true }
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
  private func isRemote(assetAt receiver: Int) -> Bool {
    guard file.kind(receiver) == .identifier, let value = initializer(of: receiver) else { return false }
    guard let url = urlArgument(in: value) else { return false }
    return isRemote(url: url, depth: 2)
  }

  /// Whether the image generator named at `receiver` reads a remote asset:
  /// `AVAssetImageGenerator(asset: AVAsset(url: remote))`.
  private func isRemote(generatorAt receiver: Int) -> Bool {
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

  private mutating func firstUses(in function: Int) -> [String: Int] {
    if let known = firstUse[function] { return known }
    var found: [String: Int] = [:]
    for token in file.body(of: function) where file.kind(token) == .identifier && file.isMember(token) {
      let loads = Self.loaderNames.contains(file.text(token)) || file.word(token) == .statusOfValue
      guard loads || Self.reads.contains(file.word(token)), let end = receiverEnd(of: token) else { continue }
      let key = Self.key(file, start: file.postfixStart(endingAt: end), end: end)
      if found[key] == nil { found[key] = token }
    }
    firstUse[function] = found
    return found
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

  /// Whether `key` names a stored value of the type rather than a parameter or local of `function`.
  private mutating func isProperty(_ key: String, in function: Int) -> Bool {
    if let known = properties[function]?[key] { return known }
    let scope = file.scope(function)
    var answer = (scope.kind == .function || scope.kind == .accessor) && !key.contains(".")
    if answer {
      for token in max(scope.head, 0)..<scope.close
      where file.kind(token) == .identifier && file.text(token) == key {
        // A parameter, or a local.
        if (token < scope.open && file.kind(token + 1) == .colon) || file.word(token - 1) == .let
          || file.word(token - 1) == .var
        {
          answer = false
          break
        }
      }
    }
    properties[function, default: [:]][key] = answer
    return answer
  }

  // MARK: Remote URLs

  /// The value a name was declared or last assigned with, in its function or else in the file.
  private func initializer(of name: Int) -> Range<Int>? {
    let function = file.enclosingFunction(of: name)
    for region in [file.body(of: function), 0..<file.count] {
      var found: Range<Int>?
      for token in region
      where token != name && file.kind(token) == .identifier && file.source.sameText(token, name)
        && (!file.isMember(token) || file.word(token - 2) == .selfKeyword)
      {
        var assign = token + 1
        if file.kind(assign) == .colon {
          while assign < region.upperBound, file.word(assign) != .opAssign, !file.tokens[assign].startsLine {
            assign += 1
          }
        }
        guard assign < file.count, file.word(assign) == .opAssign else { continue }
        found = file.statement(from: assign + 1)
        if token > name { break }
      }
      if let found { return found }
    }
    return nil
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
  private func isRemote(url: Range<Int>, depth: Int) -> Bool {
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
