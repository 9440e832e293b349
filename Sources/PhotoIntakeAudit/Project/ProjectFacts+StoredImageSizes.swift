/// What size the images a project stores are: the data it keeps of a photo is what it encodes
/// (`jpegData(compressionQuality:)`, `pngData()`, `UIImageJPEGRepresentation`), and an image drawn smaller
/// first (`let small = image.resizeImage(to: rect.size.width, height: rect.size.height)`, the screen-sized
/// copy a photo journal keeps) decodes small again. A project that encodes only such copies never decodes
/// a full-size photo from its own stored data.
extension ProjectFacts {
  /// How many tokens before an encode its receiver's binding is looked for.
  static let bindingWindow = 256

  /// Words of a call that makes a smaller image: a function whose name says it resizes, scales down or
  /// makes a thumbnail (`resizeImage`, `resized(to:)`, `scaledImage`, `makeThumbnail`), or UIKit's
  /// `preparingThumbnail(of:)`.
  static let downscalingNameParts = ["resiz", "scaled", "scaledown", "thumbnail", "downsampl", "shrink"]

  /// Records whether each image encode of the file (outside comparisons such as `a.pngData() ==
  /// b.pngData()`) is of an image made smaller first: the receiver is a call of a downscaling function
  /// (`image.resized(to: size).jpegData(…)`), or a name the function bound to one.
  mutating func addImageEncodes(_ file: SourceFile) {
    guard
      file.source.words.containsAny([
        .jpegData, .pngData, .heicData, .UIImageJPEGRepresentation, .UIImagePNGRepresentation,
      ])
    else { return }
    for index in 0..<file.count where file.isActive(index) {
      let receiverEnd: Int
      let callEnd: Int?
      switch file.word(index) {
      case .jpegData, .pngData, .heicData:
        guard file.kind(index - 1) == .dot, file.kind(index + 1) == .leftParen else { continue }
        var end = index - 2
        if file.word(end) == .opQuestion || file.word(end) == .opBang { end -= 1 }
        receiverEnd = end
        callEnd = file.match(index + 1)
      case .UIImageJPEGRepresentation, .UIImagePNGRepresentation:
        guard file.kind(index + 1) == .leftParen, let close = file.match(index + 1) else { continue }
        var end = file.endOfArgument(from: index + 2, close: close) - 1
        if file.word(end) == .opBang { end -= 1 }
        receiverEnd = end
        callEnd = close
      default: continue
      }
      // `a.pngData() == b.pngData()`: an equality test, not a stored copy.
      let start = file.postfixStart(endingAt: receiverEnd)
      if let callEnd, file.word(callEnd + 1) == .opEqual || file.word(callEnd + 1) == .opNotEqual { continue }
      if file.word(start - 1) == .opEqual || file.word(start - 1) == .opNotEqual { continue }
      if Self.isDownscaled(file, receiverEnd: receiverEnd, start: start) {
        encodesDownscaledImages = true
      } else if encodedCallResults.count < Self.encodedCallsKept {
        // Decided once every function is known (``storesOnlyDownscaledImages``): by the calls that make the
        // image, and by the function around the encode (`compressed(quality:maxWidth:)` encodes the
        // `UIGraphicsGetImageFromCurrentImageContext()` it drew).
        var calls = Self.calls(file, receiverEnd: receiverEnd, start: start) ?? []
        let function = file.enclosingFunction(of: index)
        if function > 0, let name = file.name(of: function) { calls.append(name) }
        encodedCallResults.append(calls)
      } else {
        encodesFullImages = true
      }
    }
  }

  /// Whether the image ending at `receiverEnd` (its expression starting at `start`) was made smaller:
  /// a downscaling call, or a plain name bound earlier in the same function to an expression that makes
  /// one.
  private static func isDownscaled(_ file: SourceFile, receiverEnd: Int, start: Int) -> Bool {
    makers(file, receiverEnd: receiverEnd, start: start)?.contains { isDownscalingCall(file, $0) } ?? false
  }

  /// The names of the calls that make the image ending at `receiverEnd`: a call of the receiver itself
  /// (`image.compressed(quality: 0.5)`), or the calls of the value a plain name was bound to just before;
  /// `nil` when it is neither.
  private static func calls(_ file: SourceFile, receiverEnd: Int, start: Int) -> [String]? {
    makers(file, receiverEnd: receiverEnd, start: start)?.filter { file.kind($0 + 1) == .leftParen }.map {
      file.text($0)
    }
  }

  /// The identifiers that may make the image ending at `receiverEnd`: the name of the call it is
  /// (`image.resized(to: size)`), or those of the value a plain name was bound to earlier in the same
  /// function (`let small = image.resizeImage(…)`); `nil` when it is neither.
  private static func makers(_ file: SourceFile, receiverEnd: Int, start: Int) -> [Int]? {
    if file.kind(receiverEnd) == .rightParen, let open = file.match(receiverEnd) {
      return file.kind(open - 1) == .identifier ? [open - 1] : nil
    }
    guard start == receiverEnd, file.kind(receiverEnd) == .identifier, file.kind(receiverEnd - 1) != .dot
    else { return nil }
    let name = file.text(receiverEnd)
    let body = file.body(of: file.enclosingFunction(of: receiverEnd))
    var cursor = receiverEnd - 1
    // A bounded look back, so a function of thousands of encodes stays linear.
    let floor = max(body.lowerBound, receiverEnd - bindingWindow)
    while cursor > floor {
      defer { cursor -= 1 }
      guard file.word(cursor) == .let || file.word(cursor) == .var, file.kind(cursor + 1) == .identifier,
        file.text(cursor + 1) == name
      else { continue }
      var equals = cursor + 2
      // `let small: UIImage = …`
      while equals < receiverEnd, file.word(equals) != .opAssign, !(file.tokens[equals].startsLine) {
        equals += 1
      }
      guard file.word(equals) == .opAssign else { return nil }
      return file.statement(from: equals + 1).filter { file.kind($0) == .identifier }
    }
    return nil
  }

  /// How many encodes of call results are kept for deciding later; past that, one counts as full size.
  static let encodedCallsKept = 256

  /// Records the file's functions that draw an image into a context of another size than the image's own
  /// (`UIGraphicsBeginImageContextWithOptions(newSize, false, 1)` then `draw(in:)`, a
  /// `UIGraphicsImageRenderer(size: target)`), whatever their names (`compressed(quality:maxWidth:)`): what
  /// they return is a smaller copy. A context of the image's own size (`self.size`, `image.size`), as an
  /// orientation fix makes, is not.
  mutating func addImageRedraws(_ file: SourceFile) {
    guard Self.contextMakers.contains(where: { ASCII.contains(file.source.bytes, $0) }) else { return }
    for index in 0..<file.count where file.kind(index) == .identifier && file.kind(index + 1) == .leftParen {
      let text = file.text(index)
      guard
        text == "UIGraphicsBeginImageContextWithOptions" || text == "UIGraphicsBeginImageContext"
          || text == "UIGraphicsImageRenderer",
        let close = file.match(index + 1)
      else { continue }
      // The size argument's last token: `size` alone or `….size` is the image's own size.
      var first = index + 2
      if file.kind(first) == .identifier, file.kind(first + 1) == .colon { first += 2 }
      let end = file.endOfArgument(from: first, close: close)
      guard end > first, !(file.kind(end - 1) == .identifier && file.text(end - 1) == "size") else {
        continue
      }
      let function = file.enclosingFunction(of: index)
      if function > 0, let name = file.name(of: function) { redrawingFunctions.insert(name) }
    }
  }

  private static let contextMakers: [StaticString] = [
    "UIGraphicsBeginImageContext", "UIGraphicsImageRenderer",
  ]

  /// Whether the identifier at `index` calls a function that makes a smaller image.
  private static func isDownscalingCall(_ file: SourceFile, _ index: Int) -> Bool {
    guard file.kind(index + 1) == .leftParen || file.kind(index + 1) == .leftBrace else { return false }
    if file.word(index) == .preparingThumbnail || file.word(index) == .byPreparingThumbnail { return true }
    let name = file.text(index).lowercased()
    return downscalingNameParts.contains { name.contains($0) }
  }

  /// Records how the file takes images from an image picker: reads of the edited crop (`editedImage`,
  /// `UIImagePickerControllerEditedImage`), reads of the original that are not the crop's fallback, and the
  /// values it gives `allowsEditing`. A read of the original is a fallback when an `else` or `??` follows a
  /// read of the edited crop before it, in the same function (`if let edited = info[.editedImage] … } else
  /// if let original = info[.originalImage]`): with editing allowed the picker always hands a crop.
  mutating func addPickerImageReads(_ file: SourceFile) {
    guard
      file.source.words.containsAny([
        .editedImage, .originalImage, .UIImagePickerControllerEditedImage,
        .UIImagePickerControllerOriginalImage, .allowsEditing,
      ])
    else { return }
    var lastEdited = -1
    var fallbackOpen = false
    for index in 0..<file.count where file.isActive(index) {
      switch file.word(index) {
      case .editedImage, .UIImagePickerControllerEditedImage:
        readsEditedImage = true
        lastEdited = index
        fallbackOpen = false
      case .`else`:
        if lastEdited >= 0 { fallbackOpen = true }
      case .originalImage, .UIImagePickerControllerOriginalImage:
        let afterEdited =
          lastEdited >= 0 && index - lastEdited <= Self.fallbackWindow
          && file.enclosingFunction(of: index) == file.enclosingFunction(of: lastEdited)
        // `edited ?? original` has the operator within a few tokens; an `else` branch may come much later.
        let fallback =
          fallbackOpen
          || (index - lastEdited <= 16 && ((lastEdited + 1)..<index).contains { file.text($0) == "??" })
        if !(afterEdited && fallback) { readsOriginalImage = true }
      case .allowsEditing:
        if file.word(index + 1) == .opAssign {
          if file.word(index + 2) == .true { allowsEditingSet.insert(true) }
          if file.word(index + 2) == .false { allowsEditingSet.insert(false) }
        }
      default: break
      }
    }
  }

  /// How many tokens after a read of the edited crop a read of the original may be its fallback.
  static let fallbackWindow = 96

  /// Whether every photo of its own the project has is an image picker's edited crop: it sets
  /// `allowsEditing = true` (never `false`), reads the picker's `editedImage`, reads its `originalImage` at
  /// most as the crop's fallback (``addPickerImageReads(_:)``), has no other way to a full-size photo (a
  /// PHPicker or PhotosPicker, the photo library, a capture session's photo output), and names no photo
  /// service. The crop the picker's editing makes is about the screen's size, so the photos such a project
  /// uploads or keeps, and later downloads or reads for its rows, decode small.
  var ownPhotosAreEditedCrops: Bool {
    readsEditedImage && !readsOriginalImage && allowsEditingSet == [true]
      && !words.containsAny(
        Self.fullSizePhotoSources + [
          .requestImage, .requestImageData, .requestImageDataAndOrientation, .loadTransferable,
          .loadFileRepresentation, .loadDataRepresentation, .loadObject,
        ])
      && photoServicesNamed.isEmpty && !flickrSmallSizes && !flickrLargeSizes
  }

  /// Whether every image the project encodes for keeping was drawn smaller first, and it encodes at least
  /// one: its stored photo data (`entry.imageData`) decodes to a screen-sized image, not the original.
  ///
  /// Any other encode (`image.compressed(quality: 0.5)`, or one inside `compressed`) counts as a smaller
  /// copy when one of the calls that make its image, or the function around it, redraws into a smaller
  /// context (``addImageRedraws(_:)``), and as a full-size one otherwise.
  var storesOnlyDownscaledImages: Bool {
    let redrawn = encodedCallResults.filter { $0.contains(where: redrawingFunctions.contains) }.count
    guard !encodesFullImages, redrawn == encodedCallResults.count else { return false }
    return encodesDownscaledImages || redrawn > 0
  }
}
