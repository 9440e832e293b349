/// Whether a file is Swift 2 code, where a function's first parameter has no argument label unless the
/// declaration writes one.
///
/// Before Swift 3 (SE-0046, "Establish consistent label behavior across all parameters including first
/// labels") `func fillWith(asset: AVAsset)` was called `fillWith(x)`; from Swift 3 on it is
/// `fillWith(asset: x)`. The call graph matches calls to declarations by labels, so it has to know which
/// rule a declaration follows. The file decides, from spellings Swift 3 no longer compiles: an API's
/// Swift 2 base name (`copyCGImageAtTime`, `requestImageForAsset`, `NSUserDefaults`,
/// `dispatch_get_main_queue`), or a UIKit or AVFoundation method implemented with its Swift 2 signature,
/// whose first parameter Swift 3 leaves unlabeled (`override func viewDidAppear(animated: Bool)`,
/// `func tableView(tableView: UITableView, …)`, `func prepareForSegue(segue: …)`). Without such evidence
/// a file is read as Swift 3 or later, so Swift 3+ code never loses a match.
enum SwiftTwoEvidence {
  /// The older spellings of ``WordTable/olderSpellings`` that only Swift 2 accepts (Swift 3 and 4 still
  /// spell `AVMediaTypeVideo` and `UIImagePickerControllerSourceType`; `mainQueue` is also a name apps
  /// give their own queues), by the word the lexer reads them as.
  private static let spellings: [Word: [[UInt8]]] = {
    let notOnlySwift2: Set<String> = [
      "AVMediaTypeVideo", "AVMediaTypeAudio", "UIImagePickerControllerSourceType", "mainQueue",
    ]
    var result: [Word: [[UInt8]]] = [:]
    for (spelling, word) in WordTable.olderSpellings where !notOnlySwift2.contains(spelling) {
      result[word, default: []].append(Array(spelling.utf8))
    }
    return result
  }()

  /// Methods apps implement whose first parameter Swift 3 declares `_`: a declaration of one of them
  /// whose first parameter names no label of its own is the Swift 2 signature.
  private static let unlabeledFirstSince3: Set<String> = [
    "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear", "prepareForSegue",
    "tableView", "collectionView", "imagePickerController", "navigationController", "scrollView",
    "application", "captureOutput", "textField", "textView", "searchBar", "pickerView", "webView",
    "locationManager", "mapView", "gestureRecognizer", "photoLibraryDidChange",
  ]

  /// Whether `file` shows Swift 2 code; one pass over its tokens and its function declarations.
  static func isSwiftTwo(_ file: SourceFile) -> Bool {
    let bytes = file.source.bytes
    for token in file.tokens where token.kind == .identifier && token.word != .none {
      guard let candidates = spellings[token.word] else { continue }
      let start = Int(token.start)
      let length = Int(token.end) - start
      for candidate in candidates where candidate.count == length {
        if bytes[start..<(start + length)].elementsEqual(candidate) { return true }
      }
    }
    for scope in file.syntax.scopes where scope.kind == .function && file.word(scope.head) == .func {
      guard scope.name >= 0, scope.name < file.count, unlabeledFirstSince3.contains(file.text(scope.name))
      else { continue }
      var paren = scope.head + 1
      while paren < scope.open, file.kind(paren) != .leftParen { paren += 1 }
      guard paren < scope.open, let first = Parameter.list(file, paren: paren).first else { continue }
      if !first.hasOwnLabel { return true }
    }
    return false
  }
}
