/// A perfect-enough hash table from a word's UTF-8 bytes to its ``Word``, built once.
///
/// The lexer hashes every identifier as it scans it (FNV-1a, so no second pass over the bytes) and asks
/// this table; a hit is confirmed by comparing bytes. Open addressing in flat arrays keeps the lookup free
/// of allocation, which matters at a few hundred thousand identifiers per second.
struct WordTable: Sendable {
  static let shared = WordTable()

  /// Older spellings of the APIs the rules know, read as today's word: real projects still hold Swift 2–4
  /// code (`requestImageForAsset(_:targetSize:…)`, `tableView(_:cellForRowAtIndexPath:)`,
  /// `dispatch_async(dispatch_get_main_queue())`). The Swift 3 renaming ("Grand Renaming", SE-0005) moved
  /// the first argument's description from the base name into a label, so one word per old base name is
  /// enough: the rules look at base names, and at labels only where the current spelling has one of its own.
  static let olderSpellings: [String: Word] = [
    // Lists and grids (UITableViewDataSource, UICollectionViewDataSource before Swift 3).
    "cellForRowAtIndexPath": .cellForRowAt, "cellForItemAtIndexPath": .cellForItemAt,
    "enumerateObjectsUsingBlock": .enumerateObjects,
    // AVFoundation.
    "copyCGImageAtTime": .copyCGImage, "tracksWithMediaType": .tracks,
    "loadValuesAsynchronouslyForKeys": .loadValuesAsynchronously, "statusOfValueForKey": .statusOfValue,
    "exportAsynchronouslyWithCompletionHandler": .exportAsynchronously,
    "generateCGImagesAsynchronouslyForTimes": .generateCGImagesAsynchronously,
    "finishWritingWithCompletionHandler": .finishWriting, "requestAccessForMediaType": .requestAccess,
    "authorizationStatusForMediaType": .authorizationStatus, "AVMediaTypeVideo": .video,
    "AVMediaTypeAudio": .audio,
    // PhotoKit.
    "requestImageForAsset": .requestImage, "requestImageDataForAsset": .requestImageData,
    "requestAVAssetForVideo": .requestAVAsset, "requestPlayerItemForVideo": .requestPlayerItem,
    "requestExportSessionForVideo": .requestExportSession,
    "requestContentEditingInputWithOptions": .requestContentEditingInput,
    "fetchAssetsWithMediaType": .fetchAssets, "fetchAssetsWithOptions": .fetchAssets,
    "fetchAssetsInAssetCollection": .fetchAssets, "fetchAssetsWithLocalIdentifiers": .fetchAssets,
    "fetchAssetCollectionsWithType": .fetchAssetCollections, "sharedPhotoLibrary": .shared,
    "registerChangeObserver": .register, "UIImagePickerControllerSourceType": .SourceType,
    "creationRequestForAssetFromVideoAtFileURL": .creationRequestForAssetFromVideo,
    "creationRequestForAssetFromImageAtFileURL": .creationRequestForAssetFromImage,
    // Foundation and Grand Central Dispatch.
    "NSUserDefaults": .UserDefaults, "standardUserDefaults": .standard, "NSOperationQueue": .OperationQueue,
    "mainQueue": .main, "addOperationWithBlock": .addOperation, "dispatch_get_main_queue": .main,
    "dataTaskWithURL": .dataTask, "dataTaskWithRequest": .dataTask, "downloadTaskWithURL": .downloadTask,
    "downloadTaskWithRequest": .downloadTask,
  ]

  /// Older spellings that are today's word only as a member (`.PhotoLibrary`, `options.synchronous`):
  /// capitalized enum cases before Swift 3 and `is`-less Boolean properties, names an app may also give
  /// its own types and values.
  static let olderMemberSpellings: [String: Word] = [
    "PhotoLibrary": .photoLibrary, "SavedPhotosAlbum": .savedPhotosAlbum, "Camera": .camera,
    "synchronous": .isSynchronous, "networkAccessAllowed": .isNetworkAccessAllowed,
  ]

  private let mask: Int
  /// Per slot: the word's raw value, with ``memberOnly`` set for ``olderMemberSpellings``.
  private var slots: [UInt16]
  private var hashes: [UInt64]
  private var spellings: [[UInt8]]
  private static let memberOnly: UInt16 = 0x8000

  private init() {
    var entries = Word.allCases.filter { $0 != .none }.map { ($0.rawValue, $0.number) }
    entries += Self.olderSpellings.sorted { $0.key < $1.key }.map { ($0.key, $0.value.number) }
    entries += Self.olderMemberSpellings.sorted { $0.key < $1.key }.map {
      ($0.key, $0.value.number | Self.memberOnly)
    }
    var capacity = 1
    while capacity < entries.count * 4 { capacity <<= 1 }
    mask = capacity - 1
    slots = Array(repeating: 0, count: capacity)
    hashes = Array(repeating: 0, count: capacity)
    spellings = Array(repeating: [], count: capacity)
    for (spelling, raw) in entries {
      let bytes = Array(spelling.utf8)
      let hash = Self.hash(bytes[...])
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = raw
      hashes[slot] = hash
      spellings[slot] = bytes
    }
  }

  /// FNV-1a, 64 bit: the lexer computes the same value incrementally with ``step(_:_:)``.
  static let seed: UInt64 = 0xcbf2_9ce4_8422_2325
  @inline(__always) static func step(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
    (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
  }

  static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var hash = seed
    for byte in bytes { hash = step(hash, byte) }
    return hash
  }

  /// The hash of a string's UTF-8 bytes, as the byte-slice `hash` gives, without copying them into an array.
  static func hash(_ text: String) -> UInt64 {
    var hash = seed
    for byte in text.utf8 { hash = step(hash, byte) }
    return hash
  }

  /// The word spelled by `bytes[start..<end]`, given its precomputed hash; `isMember` says whether a `.`
  /// comes before it (``olderMemberSpellings`` count only then).
  func lookup(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, hash: UInt64, isMember: Bool = false
  ) -> Word {
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let raw = slots[slot]
      if raw == 0 { return .none }
      if hashes[slot] == hash {
        let spelling = spellings[slot]
        if spelling.count == end - start {
          var equal = true
          var index = 0
          while index < spelling.count {
            if spelling[index] != bytes[start + index] {
              equal = false
              break
            }
            index += 1
          }
          if equal {
            if raw & Self.memberOnly != 0 {
              return isMember ? Word(number: raw & ~Self.memberOnly) ?? .none : .none
            }
            return Word(number: raw) ?? .none
          }
        }
      }
      slot = (slot + 1) & mask
    }
  }
}
