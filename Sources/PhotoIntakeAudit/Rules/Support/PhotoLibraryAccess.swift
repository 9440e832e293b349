/// How a project touches the photo library, in the terms of PhotoKit's access levels: picking needs no
/// authorization, adding needs `.addOnly`, and only fetching or changing existing assets needs `.readWrite`
/// (see `PHAccessLevel` and "Delivering an Enhanced Privacy Experience in Your Photos App").
enum PhotoLibraryAccess {
  /// The access an authorization request asks for.
  enum Request {
    case readWrite, addOnly
    /// `requestAuthorization(_:)`, the pre-iOS 14 call: it asks for read-write access.
    case legacy
  }

  /// APIs that fetch, observe or change existing assets, which need read-write access.
  static let fetches: Set<Word> = [
    .fetchAssets, .fetchAssetCollections, .fetchCollections, .fetchTopLevelUserCollections, .fetchKeyAssets,
    .PHImageManager, .PHCachingImageManager, .PHAssetResourceManager, .PHFetchResult, .PHFetchOptions,
    .presentLimitedLibraryPicker, .deleteAssets, .PHAssetCollectionChangeRequest,
  ]

  /// The system photo pickers, which need no authorization.
  static let picks: Set<Word> = [
    .PHPickerViewController, .PHPickerConfiguration, .PHPickerResult, .PhotosPicker, .PhotosPickerItem,
    .photosPicker,
  ]

  /// APIs that only add new assets, for which `.addOnly` suffices.
  static let creates: Set<Word> = [
    .creationRequestForAsset, .creationRequestForAssetFromImage, .creationRequestForAssetFromVideo,
    .PHAssetCreationRequest, .UIImageWriteToSavedPhotosAlbum, .UISaveVideoAtPathToSavedPhotosAlbum,
  ]

  static func fetches(_ words: WordSet) -> Bool { fetches.contains { words.contains($0) } }
  static func picks(_ words: WordSet) -> Bool { picks.contains { words.contains($0) } }
  static func creates(_ words: WordSet) -> Bool { creates.contains { words.contains($0) } }

  /// The level an argument writes as a literal (`.readWrite`, `PHAccessLevel.addOnly`), if it does.
  private static func literalLevel(in argument: Range<Int>, _ file: SourceFile) -> Request? {
    guard let level = file.first([.readWrite, .addOnly], in: argument), file.isMember(level) else {
      return nil
    }
    return file.word(level) == .readWrite ? .readWrite : .addOnly
  }

  /// The level a request passes in a parameter of its function, read from the calls of that function in
  /// the same file that pass it a literal (`resolve(level: .readWrite, …)`), or pass on a parameter of their
  /// own function in turn (up to four functions deep): `.readWrite` when any does, `.addOnly` when every one
  /// does, nil when none passes a literal. `calls` maps each name the file calls to its first 64 calls,
  /// made on first use in one pass, so the file is read once however many requests ask; `budget` bounds
  /// the functions followed for the whole file.
  private static func levelThroughParameter(
    _ argument: Range<Int>, request: Int, in file: SourceFile, calls: inout [String: [Int]]?, depth: Int = 0,
    budget: inout Int
  ) -> Request? {
    budget -= 1
    guard depth < 4, budget >= 0, argument.count == 1, file.kind(argument.lowerBound) == .identifier else {
      return nil
    }
    let function = file.enclosingFunction(of: request)
    let scope = file.scope(function)
    guard function > 0, scope.kind == .function, scope.name >= 0, file.kind(scope.name + 1) == .leftParen,
      let parameter = Parameter.list(file, paren: scope.name + 1).first(where: {
        $0.name == file.text(argument.lowerBound)
      }), parameter.label != "_"
    else { return nil }
    if calls == nil {
      var found: [String: [Int]] = [:]
      for index in 0..<file.count
      where file.kind(index) == .identifier && file.kind(index + 1) == .leftParen
        && file.word(index - 1) != .func
      {
        let name = file.text(index)
        if found[name, default: []].count < 64 { found[name, default: []].append(index) }
      }
      calls = found
    }
    var levels: [Request] = []
    for call in calls?[file.text(scope.name)] ?? [] {
      guard let close = file.match(call + 1) else { continue }
      var start = call + 2
      while start < close {
        let end = file.endOfArgument(from: start, close: close)
        if file.kind(start) == .identifier, file.kind(start + 1) == .colon,
          file.text(start) == parameter.label
        {
          if let level = literalLevel(in: (start + 2)..<end, file) {
            levels.append(level)
          } else if let level = levelThroughParameter(
            (start + 2)..<end, request: call, in: file, calls: &calls, depth: depth + 1, budget: &budget)
          {
            levels.append(level)
          }
        }
        start = end + 1
      }
    }
    if levels.contains(.readWrite) { return .readWrite }
    return levels.isEmpty ? nil : .addOnly
  }

  /// Whether the code at `index` runs only before iOS 14, which has no add-only level: the `else` of
  /// `if #available(iOS 14, *)` (or a later version), the body of `if #unavailable(iOS 14)`, or the
  /// `else` of `guard #available(iOS 14, *)`. A legacy request there asks the only question iOS 13 knows.
  /// `answers` keeps each block's answer for the file's other places, so every condition is read once
  /// however many requests a file holds.
  static func runsOnlyBeforeAddOnly(_ index: Int, in file: SourceFile, answers: inout [Int: Bool]) -> Bool {
    var chain: [Int] = []
    var scope = file.syntax.scope(of: index)
    var answer = false
    while scope > 0, file.scope(scope).kind == .block {
      if let known = answers[scope] {
        answer = known
        break
      }
      if opensOnlyBeforeAddOnly(block: scope, in: file) {
        answer = true
        break
      }
      chain.append(scope)
      scope = file.scope(scope).parent
    }
    // Every block below an answer shares it: true if any block around it runs only before iOS 14.
    if answer, scope > 0, answers[scope] == nil { answers[scope] = true }
    for block in chain { answers[block] = answer }
    return answer
  }

  /// Whether block `scope` itself is a branch only iOS 13 and earlier take.
  private static func opensOnlyBeforeAddOnly(block scope: Int, in file: SourceFile) -> Bool {
    let block = file.scope(scope)
    let head = block.head
    if file.word(head) == .else, file.kind(head - 1) == .rightBrace, let open = file.match(head - 1),
      let branch = file.scopeOpened(at: open), file.word(file.scope(branch).head) == .if
    {
      return asksFor("#available", in: (file.scope(branch).head + 1)..<open, file)
    } else if file.word(head) == .if {
      return asksFor("#unavailable", in: (head + 1)..<block.open, file)
    } else if file.word(head) == .guard {
      return asksFor("#available", in: (head + 1)..<block.open, file)
    }
    return false
  }

  /// Whether `range` holds `#available(iOS 14, *)` (`pound` names it) with iOS 14 or later.
  private static func asksFor(_ pound: String, in range: Range<Int>, _ file: SourceFile) -> Bool {
    for token in range where file.kind(token) == .pound && file.text(token) == pound {
      guard file.kind(token + 1) == .leftParen, file.text(token + 2) == "iOS", file.kind(token + 3) == .number
      else { continue }
      let major = file.text(token + 3).split(separator: ".").first.flatMap { Int($0) } ?? 0
      if major >= 14 { return true }
    }
    return false
  }

  /// Every `PHPhotoLibrary.requestAuthorization` call in the file and what it asks for. A level passed in
  /// a parameter of the function around the request (`func ask(level: PHAccessLevel) { …
  /// requestAuthorization(for: level) … }`) is what the file's calls of that function pass it (see
  /// ``levelThroughParameter(_:request:in:calls:depth:budget:)``); any other variable is not reported, since the rules
  /// cannot tell what it holds.
  static func requests(in file: SourceFile) -> [(index: Int, request: Request)] {
    guard file.source.words.contains(.requestAuthorization) else { return [] }
    var requests: [(Int, Request)] = []
    var calls: [String: [Int]]?
    // The functions all requests of the file may follow, in all: past 256 the levels stay unknown.
    var budget = 256
    for index in 0..<file.count where file.word(index) == .requestAuthorization && file.isMember(index) {
      let receiver = file.postfixStart(endingAt: index)..<index
      guard file.contains([.PHPhotoLibrary], in: receiver) else { continue }
      let next = index + 1
      if file.kind(next) == .leftBrace {
        requests.append((index, .legacy))
      } else if file.kind(next) == .leftParen, let close = file.match(next) {
        if file.word(next + 1) == .for, file.kind(next + 2) == .colon {
          let arguments = (next + 3)..<close
          if let level = literalLevel(in: arguments, file) {
            requests.append((index, level))
          } else if let level = levelThroughParameter(
            arguments, request: index, in: file, calls: &calls, budget: &budget)
          {
            requests.append((index, level))
          }
        } else {
          requests.append((index, .legacy))
        }
      }
    }
    return requests
  }
}
