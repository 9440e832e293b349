/// The identifiers, keywords and operators the rules look for, interned by the lexer.
///
/// Rules compare small integers instead of bytes: the lexer looks each identifier up once in
/// ``WordTable`` and stores the result in ``Token/word``. Anything not listed here is ``none``.
/// A case's spelling is its raw value: its name, so keywords are written with backticks, or for the few
/// names Swift reserves as members (`init`, `self`, `Self`, `some`, `any`) and the operators, the raw value
/// written out. A raw value is a string literal the compiler returns from a `switch`, so ``WordTable`` gets
/// every spelling without reflection (`String(describing:)` of each case cost a millisecond at every start).
enum Word: String, CaseIterable, Sendable {
  case none = ""

  // MARK: Operators
  case opAssign = "=", opEqual = "==", opNotEqual = "!=", opBang = "!", opQuestion = "?", opArrow = "->"
  case opAmpersand = "&"

  // MARK: Keywords and contextual keywords
  case `func`, initKeyword = "init", `deinit`, `subscript`, `class`, `struct`, `enum`, `actor`, `extension`,
    `protocol`
  case `var`, `let`, `if`, `guard`, `else`, `for`, `while`, `repeat`, `do`, `catch`, `defer`, `switch`
  case `case`, `default`, `return`, `in`, `try`, await, selfKeyword = "self", selfType = "Self", `where`,
    `throws`, `rethrows`
  case async, nonisolated, `static`, get, set, willSet, didSet, `import`, `typealias`, someKeyword = "some"
  case anyKeyword = "any"
  case `inout`, `throw`, `break`, `continue`, `fallthrough`, `is`, `as`, `nil`, `true`, `false`
  case `private`, `fileprivate`, `public`, `open`, `internal`, package, final, override, mutating
  case nonmutating, convenience, required, lazy, weak, unowned, dynamic, indirect, consuming, borrowing

  // MARK: Attributes (after `@`)
  case MainActor, objc, escaping, Sendable, AppStorage, SceneStorage, Model, NSManaged, Attribute
  case Published, State, StateObject, Observable, unknown, preconcurrency

  // MARK: Photos picker and PhotoKit
  case UIImagePickerController, sourceType, SourceType, photoLibrary, savedPhotosAlbum, camera
  case editedImage, originalImage, UIImagePickerControllerEditedImage, UIImagePickerControllerOriginalImage
  case allowsEditing
  case isSourceTypeAvailable
  case PHPhotoLibrary, PHAccessLevel, readWrite, addOnly, requestAuthorization, authorizationStatus
  case PHAuthorizationStatus, authorized, limited, denied, restricted, notDetermined
  case PHPickerViewController, PHPickerConfiguration, PHPickerResult, PhotosPicker, PhotosPickerItem
  case photosPicker
  case fetchAssets, fetchAssetCollections, fetchCollections, fetchTopLevelUserCollections, fetchKeyAssets
  case PHImageManager, PHCachingImageManager, PHAssetResourceManager, PHFetchResult, PHFetchOptions
  case presentLimitedLibraryPicker, deleteAssets, PHAssetChangeRequest, PHAssetCollectionChangeRequest
  case creationRequestForAsset, creationRequestForAssetFromImage, creationRequestForAssetFromVideo
  case PHAssetCreationRequest, UIImageWriteToSavedPhotosAlbum, UISaveVideoAtPathToSavedPhotosAlbum
  case UIActivityViewController, saveToCameraRoll
  case ALAssetsLibrary, phAsset, UIImagePickerControllerPHAsset
  case register, unregisterChangeObserver, unregisterAvailabilityObserver, shared
  case cloudIdentifierMappings, PHCloudIdentifier

  // MARK: Loading picked items
  case loadTransferable, loadObject, loadFileRepresentation, loadDataRepresentation
  case loadInPlaceFileRepresentation, loadItem, completionHandler, type, Image
  case assetIdentifier, localIdentifier, itemIdentifier
  case DispatchSemaphore, DispatchGroup, wait

  // MARK: Where references go
  case append, enumerateObjects, insert, resume, returning, success, send, yield, updateValue, setValue,
    count, isEmpty
  case UserDefaults, NSUbiquitousKeyValueStore, standard, forKey, write, encode
  /// `NSUserDefaults.setObject(_:forKey:)` before Swift 3: its own word, since reading it as `set` would make a
  /// bare `setObject(…)` at the start of a line look like a property's `set` accessor.
  case setObject
  case Codable, Encodable, Decodable, NSManagedObject

  // MARK: Images, lists and grids
  case UIImage, data, contentsOfFile, CGImageSourceCreateThumbnailAtIndex, preparingThumbnail
  case byPreparingThumbnail, prepareThumbnail, prepareForDisplay, kCGImageSourceThumbnailMaxPixelSize
  case CGImageSourceCreateImageAtIndex, kCGImageSourceSubsampleFactor, maximumSize
  case UICollectionViewCell, UITableViewCell, UICollectionViewListCell, cellForItemAt, cellForRowAt
  case willDisplay
  case CellRegistration, UICollectionViewDiffableDataSource, UITableViewDiffableDataSource
  case List, ForEach, LazyVGrid, LazyHGrid, LazyVStack, LazyHStack, Grid, AsyncImage, TabView
  case PHImageManagerMaximumSize, NavigationLink, sheet, fullScreenCover, navigationDestination, popover
  case label, CGImage, jpegData, pngData, heicData, UIImageJPEGRepresentation, UIImagePNGRepresentation

  // MARK: Camera
  case AVCaptureSession, AVCaptureMultiCamSession, startRunning, stopRunning, AVCaptureDevice
  case AVCaptureDeviceInput, requestAccess, video, audio, requestRecordPermission, AVAudioRecorder
  case VNDocumentCameraViewController, DataScannerViewController

  // MARK: Threads and isolation
  case DispatchQueue, main, asyncAfter, sync, Task, detached, run, concurrentPerform
  case dispatchAsync = "dispatch_async", dispatchSync = "dispatch_sync", dispatchAfter = "dispatch_after"
  case UIViewController, UIView, View, App, Scene, UIResponder, UIViewRepresentable
  case UIViewControllerRepresentable, onAppear, onDisappear, task, Button, onChange, onReceive
  case dataTask, IBAction, addObserver, sink, receive, queue, OperationQueue, RunLoop
  case addOperation, DispatchWorkItem, BlockOperation, downloadTask, uploadTask, makeUIView, dismantleUIView
  case makeUIViewController, dismantleUIViewController
  case loadTracks, loadMetadata, loadMediaSelectionGroup, generateCGImageAsynchronously, performChanges
  case finishWriting, setSampleBufferDelegate, setMetadataObjectsDelegate, setDelegate, URLSession

  // MARK: Blocking loads
  case isSynchronous, PHImageRequestOptions, requestImage, requestImageData, requestImageDataAndOrientation
  case requestData, writeData, requestAVAsset, requestContentEditingInput, loadValuesAsynchronously
  case requestPlayerItem, requestExportSession, exportAsynchronously, generateCGImagesAsynchronously
  case options, copyCGImage, tracks, duration, commonMetadata, isPlayable, AVAsset, AVURLAsset
  case statusOfValue, isNetworkAccessAllowed, AVPlayer, AVPlayerItem, AVAssetImageGenerator, fileURLWithPath
  case performChangesAndWait

  // MARK: Grids keyed by index, photo dimensions
  case cancelImageRequest
  case AVCapturePhotoOutput, AVCapturePhotoSettings, capturePhoto, maxPhotoDimensions
  case isHighResolutionCaptureEnabled, isHighResolutionPhotoEnabled
}

extension Word {
  /// Words that are declaration modifiers: they may stand between a declaration's attributes and its
  /// keyword (`@MainActor public final class`).
  var isModifier: Bool {
    switch self {
    case .private, .fileprivate, .public, .open, .internal, .package, .final, .override, .mutating,
      .nonmutating, .convenience, .required, .lazy, .weak, .unowned, .dynamic, .indirect, .static,
      .class, .nonisolated, .consuming, .borrowing:
      true
    default: false
    }
  }

  /// `NSItemProvider` and `PhotosPickerItem` loading calls.
  var isItemLoad: Bool {
    switch self {
    case .loadTransferable, .loadObject, .loadFileRepresentation, .loadDataRepresentation,
      .loadInPlaceFileRepresentation, .loadItem:
      true
    default: false
    }
  }

  /// Keywords that introduce a statement whose `{` opens a control-flow block, not a closure.
  var opensBlock: Bool {
    switch self {
    case .if, .guard, .else, .for, .while, .repeat, .do, .catch, .defer, .switch: true
    default: false
    }
  }

  /// The case's place among ``allCases`` (``none`` is 0): what ``WordTable`` and ``WordSet`` store. A case
  /// without a payload is stored as that number, so it is read, not looked up (`WordTests` checks both).
  var number: UInt16 { unsafeBitCast(self, to: UInt16.self) }

  /// The word numbered `number` (see ``number``); `nil` past the last case.
  init?(number: UInt16) {
    guard Int(number) < Self.caseCount else { return nil }
    self = unsafeBitCast(number, to: Word.self)
  }

  /// How many cases there are.
  static let caseCount = allCases.count
}
