/// `identifier-only-persistence`: a photo or picker identifier persisted as the only reference.
///
/// Four shapes: `UserDefaults.set(…)` of an expression built from `assetIdentifier`, `localIdentifier`,
/// `itemIdentifier` or a photo-identifier-named variable, directly or through locals
/// (`let ids = results.compactMap(\.assetIdentifier)`); data encoded from such an expression and written
/// with `write(to:)`; an `@AppStorage`/`@SceneStorage` property named
/// like a photo identifier; and a persisted model (`Codable`/`Encodable`, SwiftData `@Model`, Core Data
/// `NSManagedObject`) with a photo-identifier property and no property that could hold the photo itself
/// (data, a file URL or path, a content hash, a cloud identifier).
struct IdentifierOnlyPersistenceRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "identifier-only-persistence", severity: .warning,
    summary: "A photo or picker identifier is persisted as the only reference to a picked photo.",
    fix: """
      Copy the picked bytes into the app's container and persist that file's name or content hash. If you \
      also need the library asset, store a PHCloudIdentifier (cloudIdentifierMappings(forLocalIdentifiers:)) \
      beside the copy. Local and picker identifiers are device-specific, resolve only with library access, and \
      stop resolving when the selection, library or device changes.
      """,
    reference: .documentation("PHCloudIdentifier", "photos/phcloudidentifier"))

  let triggers: Set<Word> = [
    .set, .setValue, .AppStorage, .SceneStorage, .Codable, .Encodable, .Model, .NSManagedObject,
    .NSManaged, .write,
  ]

  /// `assetID`, `selectedPhotoIdentifiers`, `localIdentifier`, `pickerItemIDs`…
  static func looksLikePhotoIdentifier(_ name: String) -> Bool {
    let lower = ASCII.lowercased(name)
    return ["id", "ids", "identifier", "identifiers"].contains { ASCII.hasSuffix(lower, $0) }
      && ["asset", "photo", "picker", "image", "localidentifier"].contains { ASCII.contains(lower, $0) }
  }

  /// Property names that suggest the model keeps the photo, not just a pointer to it.
  private static let durable: [StaticString] = [
    "data", "url", "file", "path", "hash", "sha", "checksum", "digest", "cloud",
  ]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    var findings: [Finding] = []
    for index in 0..<file.count {
      switch (file.kind(index), file.word(index)) {
      case (.identifier, .set), (.identifier, .setValue):
        guard file.isMember(index), file.kind(index + 1) == .leftParen else { continue }
        let receiver = file.postfixStart(endingAt: index)..<index
        let isDefaults =
          file.contains([.UserDefaults, .NSUbiquitousKeyValueStore], in: receiver)
          || ["defaults", "userDefaults"].contains(file.text(index - 2))
        guard isDefaults, let close = file.match(index + 1) else { continue }
        let value = (index + 2)..<file.endOfArgument(from: index + 2, close: close)
        // An album's or collection's identifier is not a reference to a picked photo.
        let names = value.filter { file.kind($0) == .identifier }.map { ASCII.lowercased(file.text($0)) }
        if names.contains(where: { ASCII.contains($0, "collection") || ASCII.contains($0, "album") }) {
          continue
        }
        if refersToIdentifiers(file, value, before: index, depth: 2) {
          findings.append(file.finding(descriptor, at: index))
        }
      case (.identifier, .write):
        // `try data.write(to: url)` where `data` encodes identifiers (`JSONEncoder().encode(ids)`).
        guard file.isMember(index), file.kind(index + 1) == .leftParen, file.kind(index - 2) == .identifier,
          let initializer = initializer(of: index - 2, in: file, before: index),
          file.contains([.encode], in: initializer),
          refersToIdentifiers(file, initializer, before: index, depth: 2)
        else { continue }
        findings.append(file.finding(descriptor, at: index))
      case (.attribute, .AppStorage), (.attribute, .SceneStorage):
        var cursor = index + 1
        if file.kind(cursor) == .leftParen, let close = file.match(cursor) { cursor = close + 1 }
        while file.word(cursor).isModifier || file.kind(cursor) == .attribute { cursor += 1 }
        if file.word(cursor) == .var, Self.looksLikePhotoIdentifier(file.text(cursor + 1)) {
          findings.append(file.finding(descriptor, at: cursor + 1))
        }
      default: continue
      }
    }
    for (index, scope) in file.syntax.scopes.enumerated()
    where scope.kind == .type && isPersisted(file, index) {
      findings += identifierOnlyProperties(file, type: index).map { file.finding(descriptor, at: $0) }
    }
    return findings.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
  }

  /// Whether `range` mentions a photo identifier, directly or through the initializer of a local declared
  /// earlier in the same function (`let ids = results.compactMap(\.assetIdentifier)`), `depth` levels deep.
  private func refersToIdentifiers(_ file: SourceFile, _ range: Range<Int>, before use: Int, depth: Int)
    -> Bool
  {
    for index in range.clamped(to: 0..<file.count) {
      if isIdentifierReference(file, index) { return true }
      guard depth > 0, file.kind(index) == .identifier, !file.isMember(index),
        let initializer = initializer(of: index, in: file, before: use)
      else { continue }
      if refersToIdentifiers(file, initializer, before: initializer.lowerBound, depth: depth - 1) {
        return true
      }
    }
    return false
  }

  /// The initializer of the local that token `name` refers to: `let name = <initializer>` earlier in the
  /// same function.
  private func initializer(of name: Int, in file: SourceFile, before use: Int) -> Range<Int>? {
    let function = file.body(of: file.enclosingFunction(of: use))
    var cursor = min(use, function.upperBound) - 1
    while cursor > function.lowerBound {
      if file.kind(cursor) == .identifier, file.source.sameText(cursor, name), cursor != name,
        file.word(cursor - 1) == .let || file.word(cursor - 1) == .var
      {
        let statement = file.statement(from: cursor)
        guard let assign = statement.first(where: { file.word($0) == .opAssign }) else { return nil }
        return (assign + 1)..<statement.upperBound
      }
      cursor -= 1
    }
    return nil
  }

  private func isIdentifierReference(_ file: SourceFile, _ index: Int) -> Bool {
    switch file.word(index) {
    case .assetIdentifier, .localIdentifier, .itemIdentifier: return true
    default:
      return file.kind(index) == .identifier && Self.looksLikePhotoIdentifier(file.text(index))
    }
  }

  /// A type whose values are written to disk: Codable, a SwiftData model, or a Core Data entity.
  private func isPersisted(_ file: SourceFile, _ type: Int) -> Bool {
    let scope = file.scope(type)
    let inherited = file.inheritance(of: type)
    if inherited.contains(.Codable) || inherited.contains(.Encodable) || inherited.contains(.NSManagedObject)
    {
      return true
    }
    var cursor = scope.head - 1
    while cursor >= 0, file.kind(cursor) == .attribute || file.word(cursor).isModifier {
      if file.word(cursor) == .Model { return true }
      cursor -= 1
    }
    return false
  }

  /// Property types that cannot hold the photo or a way to it.
  private static let plainTypes: Set<String> = [
    "String", "Int", "Double", "Float", "Bool", "Date", "UUID", "CGFloat", "Int64", "Int32",
  ]

  /// The photo-identifier stored properties of a persisted type that has nothing more durable: every
  /// other stored property is a plain value (a property of a type of the app's own may carry the photo).
  private func identifierOnlyProperties(_ file: SourceFile, type: Int) -> [Int] {
    var identifiers: [Int] = []
    for index in file.body(of: type)
    where (file.word(index) == .var || file.word(index) == .let) && file.syntax.scope(of: index) == type {
      let name = index + 1
      guard file.kind(name) == .identifier else { continue }
      let lower = ASCII.lowercased(file.text(name))
      let statement = file.statement(from: index)
      if file.contains([.PHCloudIdentifier], in: statement) { return [] }
      if statement.contains(where: { ["Data", "URL"].contains(file.text($0)) }) { return [] }
      if Self.looksLikePhotoIdentifier(file.text(name)) {
        identifiers.append(name)
      } else if Self.durable.contains(where: { ASCII.contains(lower, $0) }) {
        return []
      } else if let colon = statement.first(where: { file.kind($0) == .colon }),
        let type = ((colon + 1)..<statement.upperBound).first(where: { file.kind($0) == .identifier }),
        !Self.plainTypes.contains(file.text(type))
      {
        return []
      }
    }
    return identifiers
  }
}
