/// Photo library authorization statuses kept in properties, so that a check of one in another file
/// (`if service.authState == .authorized` in a SwiftUI scene) is known to be a photo library check.
extension ProjectFacts {
  /// Whether the tokens in `range` call the pre-iOS 14 API, `authorizationStatus()` or
  /// `requestAuthorization { … }` / `requestAuthorization(handler)`, which reports limited access as
  /// `.authorized`.
  static func callsLegacyAuthorization(_ file: SourceFile, in range: Range<Int>) -> Bool {
    range.contains { index in
      let word = file.word(index)
      guard word == .authorizationStatus || word == .requestAuthorization else { return false }
      return file.kind(index + 1) == .leftBrace
        || (file.kind(index + 1) == .leftParen && file.word(index + 2) != .for)
    }
  }

  /// Records the properties `file` declares as read-write photo library statuses: typed
  /// `PHAuthorizationStatus`, or initialized from `PHPhotoLibrary`'s `for:` calls. A name that is also
  /// declared or assigned from a legacy call, or for add-only access, is dropped for good: `.limited`
  /// never reaches it, and a same-named property of another type may be a legacy one.
  mutating func addPhotoStatusNames(_ file: SourceFile) {
    var excluded: Set<String> = []
    // Per token, how many `PHPhotoLibrary` and how many `authorizationStatus`/`requestAuthorization` come
    // before it, made at the first assignment: whether a value mentions them is two subtractions, however
    // long the value (`let w = { … }()` around thousands of nested declarations was read once per
    // declaration).
    var counts: (library: TokenCounts, statusCalls: TokenCounts)?
    func mentionsLibraryStatus(_ value: Range<Int>) -> Bool {
      let made =
        counts
        ?? (
          TokenCounts(file) { file.word($0) == .PHPhotoLibrary },
          TokenCounts(file) {
            file.word($0) == .authorizationStatus || file.word($0) == .requestAuthorization
          }
        )
      counts = made
      return made.library.any(in: value) && made.statusCalls.any(in: value)
    }
    for index in 0..<file.count where file.kind(index) == .identifier {
      let start = file.isMember(index) ? index - 2 : index
      guard start == index || file.word(start) == .selfKeyword else { continue }
      let declares = start == index && (file.word(index - 1) == .var || file.word(index - 1) == .let)
      let assigns = file.word(index + 1) == .opAssign && file.tokens[start].startsLine
      guard declares || assigns else { continue }
      let statement = file.statement(from: index)
      let value = (index + 1)..<statement.upperBound
      let typed = declares && file.kind(index + 1) == .colon && file.word(index + 2) == .PHAuthorizationStatus
      let fromLibrary = file.word(index + 1) == .opAssign && mentionsLibraryStatus(value)
      guard typed || fromLibrary else { continue }
      let name = file.text(index)
      if file.contains([.addOnly], in: value) || Self.callsLegacyAuthorization(file, in: value) {
        excluded.insert(name)
        continue
      }
      guard declares, file.scope(file.syntax.scope(of: index)).kind == .type else { continue }
      photoStatusNames.insert(name)
    }
    legacyStatusNames.formUnion(excluded)
    photoStatusNames.subtract(legacyStatusNames)
  }
}
