/// Photo services that size what they send: an Unsplash photo comes as `urls.raw`, `full`, `regular` (1,080
/// pixels wide), `small` (400) and `thumb` (200); a Pexels photo as `src.original`, `large2x`, `large` (940 high),
/// `medium`, `small`, `portrait`, `landscape` and `tiny`; a Pixabay hit as `imageURL`, `fullHDURL`,
/// `largeImageURL` (1,280), `webformatURL` (640) and `previewURL` (150); a TMDB image as `/t/p/w92` … `w780`,
/// `w1280` or `original`; a Picsum image at the size its path asks (`/id/237/200/300`), its `download_url`
/// the original. A client that never asks for the large ones decodes no original, like a Flickr client that
/// asks only for small size keys (``flickrRenditionsOnly``).
extension ProjectFacts {
  /// Each service: a host its API or image URLs name, and the names of its renditions of more than about
  /// 1,000 pixels (the original among them), read as a member (`urls.full`), a string (`urls["raw"]`) or a
  /// path segment of one (`"https://image.tmdb.org/t/p/original"`).
  static let photoServices: [(host: StaticString, large: Set<String>)] = [
    ("unsplash.com", ["raw", "full", "regular"]),
    ("pexels.com", ["original", "large2x"]),
    ("pixabay.com", ["imageURL", "fullHDURL", "largeImageURL", "vectorURL"]),
    ("image.tmdb.org", ["original", "w1280"]),
    ("picsum.photos", ["download_url", "downloadUrl", "downloadURL"]),
  ]

  /// Records which services the file's string literals name by host (see ``addLargeRenditionReads(_:)``
  /// for what the project reads of them).
  mutating func addServiceRenditions(_ file: SourceFile) {
    let bytes = file.source.bytes
    for (number, service) in Self.photoServices.enumerated() where ASCII.contains(bytes, service.host) {
      if (0..<file.count).contains(where: { file.kind($0) == .string && Self.names(file, $0, service.host) })
      {
        photoServicesNamed.insert(number)
      }
    }
  }

  /// Records the large rendition names the project reads: a member (`urls.full`, `photo.src?.original`,
  /// `.regular`), a string literal (`urls["raw"]`) or a path segment of one
  /// (`"https://image.tmdb.org/t/p/original"`). A declaration (`let full: String`, `case regular`, a coding
  /// key's `"download_url"`) asks for nothing. Read only in a project that names a service
  /// (``photoServicesNamed``), the only one ``serviceRenditionsOnly`` asks about.
  mutating func addLargeRenditionReads(_ files: [SourceFile]) {
    guard !photoServicesNamed.isEmpty else { return }
    for file in files
    where Self.largeRenditionWords.contains(where: { ASCII.contains(file.source.bytes, $0) }) {
      for token in 0..<file.count {
        switch file.kind(token) {
        case .identifier where file.kind(token - 1) == .dot:
          // By the name's hash first: no string is made for the thousands of other members.
          if let name = Self.largeRenditionHashes[ProjectModel.hash(file, token)], file.text(token) == name {
            largeRenditionsRead.insert(name)
          }
        case .string where file.tokens[token].end - file.tokens[token].start <= 4096:
          // A coding key's raw value (`case downloadURL = "download_url"`) names a field; it reads nothing.
          if file.word(token - 1) == .opAssign, file.word(token - 3) == .case { continue }
          var text = Substring(file.text(token))
          while text.first == "\"" { text = text.dropFirst() }
          while text.last == "\"" { text = text.dropLast() }
          if Self.allLargeRenditions.contains(String(text)) { largeRenditionsRead.insert(String(text)) }
          guard text.contains("/") else { continue }
          for segment in text.split(separator: "/") {
            let name = String(segment.prefix { $0 != "?" })
            if Self.allLargeRenditions.contains(name) { largeRenditionsRead.insert(name) }
          }
        default: break
        }
      }
    }
  }

  /// Whether the string literal at `token` spells `host`.
  private static func names(_ file: SourceFile, _ token: Int, _ host: StaticString) -> Bool {
    let range = Int(file.tokens[token].start)..<Int(file.tokens[token].end)
    return ASCII.contains(Array(file.source.bytes[range]), host)
  }

  private static let allLargeRenditions = photoServices.reduce(into: Set<String>()) { $0.formUnion($1.large) }
  private static let largeRenditionHashes = Dictionary(
    uniqueKeysWithValues: allLargeRenditions.map { (WordTable.hash($0), $0) })
  /// Byte fragments of ``allLargeRenditions``, so a file that spells none of them is passed over with a
  /// few byte searches.
  private static let largeRenditionWords: [StaticString] = [
    ".raw", "\"raw", ".full", "\"full", "/full", "regular", "original", "large2x", "imageURL", "fullHDURL",
    "largeImageURL", "vectorURL", "w1280", "download_url", "downloadUrl", "downloadURL",
  ]

  /// Whether every photo the project shows comes from photo services that size it: it names Unsplash,
  /// Pexels, Pixabay, TMDB or Picsum, never reads their large renditions, asks Flickr for no large size key, and has no
  /// photos of its own (no picker, camera or photo library).
  var serviceRenditionsOnly: Bool {
    !photoServicesNamed.isEmpty && !flickrLargeSizes
      && photoServicesNamed.allSatisfy { Self.photoServices[$0].large.isDisjoint(with: largeRenditionsRead) }
      && !hasOwnPhotos
  }

  /// Whether the project shows photos of its own: it uses a picker, the camera or the photo library.
  var hasOwnPhotos: Bool {
    words.containsAny([.UIImagePickerController, .AVCaptureSession] + Self.fullSizePhotoSources)
  }

  /// The ways to a full-size photo other than `UIImagePickerController`: the system pickers, the photo
  /// library, a capture session's photo output.
  static let fullSizePhotoSources: [Word] = [
    .PHPickerViewController, .PhotosPicker, .photosPicker, .fetchAssets, .AVCapturePhotoOutput,
  ]
}
