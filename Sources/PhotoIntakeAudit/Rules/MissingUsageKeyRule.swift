/// `missing-usage-key`: an API that needs a privacy usage description, with the key declared nowhere.
///
/// Keys are looked up in the `Info.plist` files and `INFOPLIST_KEY_*` build settings of the Xcode project
/// that builds the file, when the folder holds several apps (``UsageKeyScopes``), and otherwise in every
/// `Info.plist` and build setting of the folder. A folder with neither (a Swift package library) is
/// skipped: the app that embeds it declares the keys. Each missing key is reported once per file, at its
/// first use.
struct MissingUsageKeyRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "missing-usage-key", severity: .error,
    summary:
      "An API that needs a privacy usage description is used, but no Info.plist or build setting of the app that builds it declares the key (in a folder of several Xcode projects, each app's own); the app crashes when it asks.",
    leavesAlone:
      "Keys declared in any Info.plist or INFOPLIST_KEY_ build setting of the file's Xcode project (of the whole folder when no project's folder holds the file or its project names an Info.plist that cannot be found), packages and Xcode projects with no app target (only frameworks, libraries or bundles), and share sheets (UIActivityViewController) of no image (a link, text, a URL) or that exclude Save Image (.saveToCameraRoll).",
    fix: """
      Add the key with a sentence saying why the app needs access: NSPhotoLibraryUsageDescription (read-write \
      library access), NSPhotoLibraryAddUsageDescription (adding photos), NSCameraUsageDescription, \
      NSMicrophoneUsageDescription — in Info.plist, or as an INFOPLIST_KEY_ build setting when Xcode \
      generates the Info.plist.
      """,
    reference: .documentation(
      "NSPhotoLibraryUsageDescription",
      "bundleresources/information-property-list/nsphotolibraryusagedescription"))

  let triggers: Set<Word> = [
    .requestAuthorization, .fetchAssets, .fetchAssetCollections, .fetchCollections,
    .fetchTopLevelUserCollections, .UIImageWriteToSavedPhotosAlbum, .UISaveVideoAtPathToSavedPhotosAlbum,
    .creationRequestForAsset, .creationRequestForAssetFromImage, .creationRequestForAssetFromVideo,
    .PHAssetCreationRequest, .requestAccess, .AVCaptureDeviceInput, .camera, .VNDocumentCameraViewController,
    .DataScannerViewController, .requestRecordPermission, .AVAudioRecorder, .ALAssetsLibrary,
    .UIActivityViewController,
  ]

  private enum Need {
    case key(String)
    /// Either key will do: creating assets works with add-only or read-write access.
    case either(String, String)
  }

  private static let library = "NSPhotoLibraryUsageDescription"
  private static let libraryAdd = "NSPhotoLibraryAddUsageDescription"
  private static let camera = "NSCameraUsageDescription"
  private static let microphone = "NSMicrophoneUsageDescription"
  /// How many tokens of `AVCaptureDeviceInput(device: …)`'s argument say whether it is the microphone.
  private static let deviceArgumentWindow = 24

  /// Whether the `activityItems:` argument of the `UIActivityViewController(` whose `(` is at `paren` holds
  /// an image: a `UIImage`, or a name that says image, photo or picture (`[image]`, `[imageView.image!]`,
  /// `[selectedPhoto]`), not its URL, link or text (`[imageURL]`, a page to open). Only the argument's
  /// first tokens are read.
  private static func sharesImage(_ file: SourceFile, paren: Int) -> Bool {
    guard file.text(paren + 1) == "activityItems", file.kind(paren + 2) == .colon,
      let close = file.match(paren)
    else { return false }
    let end = file.endOfArgument(from: paren + 3, close: close)
    return ((paren + 3)..<min(end, paren + 3 + deviceArgumentWindow)).contains { token in
      guard file.kind(token) == .identifier, file.kind(token + 1) != .colon else { return false }
      if file.word(token) == .UIImage { return true }
      let name = ASCII.lowercased(file.text(token))
      return ["image", "photo", "picture"].contains { ASCII.contains(name, $0) }
        && !["url", "link", "string", "text", "path", "name"].contains { ASCII.hasSuffix(name, $0) }
    }
  }

  /// Whether a device argument is the microphone: `.audio`, `AVMediaTypeAudio`, or a name saying audio or
  /// microphone (`audioDevice`, `micDevice`).
  private static func namesAudio(_ range: Range<Int>, _ file: SourceFile) -> Bool {
    range.contains { token in
      guard file.kind(token) == .identifier else { return false }
      if file.word(token) == .audio { return file.isMember(token) }
      let name = ASCII.lowercased(file.text(token))
      return ASCII.contains(name, "audio") || ASCII.contains(name, "microphone")
        || ASCII.hasPrefix(name, "mic")
    }
  }

  /// Whether the token before `.camera` at `index` (`index - 1` is the dot) is a source type assignment
  /// or argument: `sourceType = .camera`, `sourceType: .camera`, and the spelled-out
  /// `sourceType = UIImagePickerController.SourceType.camera` (Swift 2: `UIImagePickerControllerSourceType.Camera`),
  /// also as a branch of a conditional (`sourceType = isUsingCamera ? .camera : .photoLibrary`).
  private static func isCameraSourceType(_ index: Int, _ file: SourceFile) -> Bool {
    var before = file.tokenBeforeValue(ofMember: index)
    if file.word(before) == .SourceType {
      before -= 1
      if file.kind(before) == .dot, file.word(before - 1) == .UIImagePickerController { before -= 2 }
    }
    return (file.word(before) == .opAssign || file.kind(before) == .colon)
      && file.word(before - 1) == .sourceType
  }

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    let scoped = project.usageKeyScopes.keys(forFile: file.path)
    let keys = scoped?.keys ?? project.usageKeys
    guard keys.hasAppConfiguration else { return [] }
    var uses: [(index: Int, need: Need)] = []
    for (index, request) in PhotoLibraryAccess.requests(in: file) {
      uses.append((index, .key(request == .addOnly ? Self.libraryAdd : Self.library)))
    }
    for index in 0..<file.count {
      let word = file.word(index)
      switch word {
      case .fetchAssets, .fetchAssetCollections, .fetchCollections, .fetchTopLevelUserCollections:
        if file.isMember(index) { uses.append((index, .key(Self.library))) }
      case .UIImageWriteToSavedPhotosAlbum, .UISaveVideoAtPathToSavedPhotosAlbum:
        if file.kind(index + 1) == .leftParen { uses.append((index, .key(Self.libraryAdd))) }
      case .UIActivityViewController:
        // A share sheet of an image offers Save Image, which adds it to the library as
        // `UIImageWriteToSavedPhotosAlbum` does, unless the file excludes `.saveToCameraRoll`.
        if !file.isMember(index), file.kind(index + 1) == .leftParen,
          Self.sharesImage(file, paren: index + 1),
          !file.source.words.contains(.saveToCameraRoll)
        {
          uses.append((index, .key(Self.libraryAdd)))
        }
      case .ALAssetsLibrary:
        // The Assets Library (before PhotoKit) reads and writes the library: since iOS 10 it needs the
        // read-write key, for saving too (`ALAssetsLibrary().writeVideoAtPath(toSavedPhotosAlbum:)`).
        if !file.isMember(index), file.kind(index + 1) == .leftParen {
          uses.append((index, .key(Self.library)))
        }
      case .creationRequestForAsset, .creationRequestForAssetFromImage, .creationRequestForAssetFromVideo,
        .PHAssetCreationRequest:
        uses.append((index, .either(Self.libraryAdd, Self.library)))
      case .requestAccess:
        guard file.isMember(index), file.word(index + 1) == .none, file.kind(index + 1) == .leftParen else {
          continue
        }
        if let media = file.first([.video, .audio], in: (index + 2)..<min(index + 7, file.count)),
          file.isMember(media) || file.text(media).hasPrefix("AVMediaType")  // Swift 2–4: `AVMediaTypeVideo`
        {
          uses.append((index, .key(file.word(media) == .video ? Self.camera : Self.microphone)))
        }
      case .AVCaptureDeviceInput, .VNDocumentCameraViewController, .DataScannerViewController:
        // Swift 1 imported the initializer as a class method: `AVCaptureDeviceInput.deviceInputWithDevice(device,
        // error: &error) as AVCaptureDeviceInput`.
        let paren =
          word == .AVCaptureDeviceInput && file.kind(index + 1) == .dot
            && file.text(index + 2) == "deviceInputWithDevice" ? index + 3 : index + 1
        if !file.isMember(index), file.kind(paren) == .leftParen {
          // `AVCaptureDeviceInput(device: audioDevice)`, `(device: AVCaptureDevice.default(for: .audio)!)`:
          // the microphone, not the camera. Only the argument's first tokens are read (a device argument
          // is short), so thousands of nested inputs stay linear.
          let audio =
            word == .AVCaptureDeviceInput
            && file.match(paren).map {
              Self.namesAudio((paren + 1)..<min($0, paren + 1 + Self.deviceArgumentWindow), file)
            } ?? false
          uses.append((index, .key(audio ? Self.microphone : Self.camera)))
        }
      case .camera:
        // `picker.sourceType = .camera`, `ImagePicker(sourceType: .camera)`
        // `presentPicker(.camera)` where `presentPicker` takes a `UIImagePickerController.SourceType`.
        let passed =
          file.isMember(index) && file.kind(index - 2) != .identifier
          && project.isSourceTypeArgument(index, in: file)
        if file.isMember(index), Self.isCameraSourceType(index, file) || passed {
          uses.append((index, .key(Self.camera)))
        }
      case .requestRecordPermission, .AVAudioRecorder:
        if file.kind(index + 1) == .leftParen || file.kind(index + 1) == .leftBrace {
          uses.append((index, .key(Self.microphone)))
        }
      default: continue
      }
    }
    var reported: Set<String> = []
    var findings: [Finding] = []
    // A share sheet's Save Image counts only where the file has no direct use of the key: a save the code
    // makes itself is the place to report.
    let shareSheets = Set(uses.filter { file.word($0.index) == .UIActivityViewController }.map(\.index))
    for use in uses.sorted(by: {
      (shareSheets.contains($0.index) ? 1 : 0, $0.index) < (shareSheets.contains($1.index) ? 1 : 0, $1.index)
    }) {
      let missing: String
      switch use.need {
      case .key(let key):
        guard !keys.contains(key) else { continue }
        missing = key
      case .either(let first, let second):
        guard !keys.contains(first), !keys.contains(second) else { continue }
        missing = first
      }
      guard reported.insert(missing).inserted else { continue }
      let message: String
      if let scoped {
        let elsewhere = project.usageKeys.contains(missing) ? " (another app of this folder declares it)" : ""
        message =
          "\(file.text(use.index)) needs \(missing), but no Info.plist or INFOPLIST_KEY_ build setting of \(scoped.project), which builds this file, declares it\(elsewhere); the app crashes when it asks."
      } else {
        message =
          "\(file.text(use.index)) needs \(missing), but no Info.plist or INFOPLIST_KEY_ build setting declares it; the app crashes when it asks."
      }
      findings.append(file.finding(descriptor, at: use.index, message: message))
    }
    return findings
  }
}
