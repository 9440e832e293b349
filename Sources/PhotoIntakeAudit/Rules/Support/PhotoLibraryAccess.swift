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
