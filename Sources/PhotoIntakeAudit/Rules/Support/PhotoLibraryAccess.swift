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

  /// Every `PHPhotoLibrary.requestAuthorization` call in the file and what it asks for. A level passed
  /// in a variable is not reported: the rules cannot tell what it holds.
  static func requests(in file: SourceFile) -> [(index: Int, request: Request)] {
    guard file.source.words.contains(.requestAuthorization) else { return [] }
    var requests: [(Int, Request)] = []
    for index in 0..<file.count where file.word(index) == .requestAuthorization && file.isMember(index) {
      let receiver = file.postfixStart(endingAt: index)..<index
      guard file.contains([.PHPhotoLibrary], in: receiver) else { continue }
      let next = index + 1
      if file.kind(next) == .leftBrace {
        requests.append((index, .legacy))
      } else if file.kind(next) == .leftParen, let close = file.match(next) {
        if file.word(next + 1) == .for, file.kind(next + 2) == .colon {
          let arguments = (next + 3)..<close
          if let level = file.first([.readWrite, .addOnly], in: arguments), file.isMember(level) {
            requests.append((index, file.word(level) == .readWrite ? .readWrite : .addOnly))
          }
        } else {
          requests.append((index, .legacy))
        }
      }
    }
    return requests
  }
}
