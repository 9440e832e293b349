/// `identifier-only-persistence`: a photo or picker identifier persisted as the only reference.
///
/// Five shapes: `UserDefaults.set(…)` (on `UserDefaults` or any name declared as one) of an expression
/// built from `assetIdentifier`, `localIdentifier`, `itemIdentifier` or a photo-identifier-named
/// variable, directly, through key paths and `joined`, or through locals and properties
/// (`let ids = results.compactMap(\.assetIdentifier)`); data encoded from such an expression and written
/// with `write(to:)`; an `@AppStorage`/`@SceneStorage` property named like a photo identifier, or one of
/// any name assigned such an expression; and a persisted model (`Codable`/`Encodable` here or in another
/// file, SwiftData `@Model`, Core Data `NSManagedObject`, a Realm `Object` or `@Persisted` property) with a
/// photo-identifier property and no property
/// that could hold the photo itself (data, a file URL or path, a content hash, a cloud identifier, or a
/// type of the app's that has one). Counts and emptiness checks of identifiers, and album or collection
/// identifiers, are not reported.
struct IdentifierOnlyPersistenceRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "identifier-only-persistence", severity: .warning,
    summary: "A photo or picker identifier is persisted as the only reference to a picked photo.",
    leavesAlone:
      "Identifiers stored beside the photo itself (data, a file name or path, a content hash, a PHCloudIdentifier, or an app type holding one), album and collection identifiers, and counts of identifiers.",
    fix: """
      Copy the picked bytes into the app's container and persist that file's name or content hash. If you \
      also need the library asset, store a PHCloudIdentifier (cloudIdentifierMappings(forLocalIdentifiers:)) \
      beside the copy. Local and picker identifiers are device-specific, resolve only with library access, and \
      stop resolving when the selection, library or device changes.
      """,
    reference: .documentation("PHCloudIdentifier", "photos/phcloudidentifier"))

  let triggers: Set<Word> = [
    .set, .setValue, .setObject, .AppStorage, .SceneStorage, .Codable, .Encodable, .Model, .NSManagedObject,
    .NSManaged, .write, .UserDefaults,
    // A type made Codable in another file (`extension Selection: Codable {}`) has none of these words
    // where it is declared.
    .var, .let,
  ]

  /// `assetID`, `selectedPhotoIdentifiers`, `localIdentifier`, `pickerItemIDs`…
  static func looksLikePhotoIdentifier(_ name: String) -> Bool {
    let lower = ASCII.lowercased(name)
    return ["id", "ids", "identifier", "identifiers"].contains { ASCII.hasSuffix(lower, $0) }
      && ["asset", "photo", "picker", "image", "localidentifier"].contains { ASCII.contains(lower, $0) }
  }

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    var findings: [Finding] = []
    let flows = ValueFlow.Cache()
    let flow = flows.flow(for: file)
    let memo = Memo()
    var storage: Set<String> = []
    for index in 0..<file.count {
      switch (file.kind(index), file.word(index)) {
      case (.identifier, .set), (.identifier, .setValue), (.identifier, .setObject):
        guard file.isMember(index), file.kind(index + 1) == .leftParen else { continue }
        let receiver = file.postfixStart(endingAt: index)..<index
        let isDefaults =
          file.contains([.UserDefaults, .NSUbiquitousKeyValueStore], in: receiver)
          || ["defaults", "userDefaults"].contains(file.text(index - 2))
          || (file.kind(index - 2) == .identifier && flow.defaultsNames.contains(file.text(index - 2)))
        guard isDefaults, let close = file.match(index + 1) else { continue }
        let value = (index + 2)..<file.endOfArgument(from: index + 2, close: close)
        if refersToIdentifiers(
          file, value, before: index, depth: 3, flow: flow, project: project, flows: flows, memo: memo)
        {
          findings.append(file.finding(descriptor, at: index))
        }
      case (.identifier, .write):
        // `try data.write(to: url)` where `data` encodes identifiers (`JSONEncoder().encode(ids)`).
        guard file.isMember(index), file.kind(index + 1) == .leftParen, file.kind(index - 2) == .identifier,
          let initializer = flow.local(index - 2, before: index),
          file.contains([.encode], in: initializer),
          refersToIdentifiers(
            file, initializer, before: index, depth: 3, flow: flow, project: project, flows: flows, memo: memo
          )
        else { continue }
        findings.append(file.finding(descriptor, at: index))
      case (.attribute, .AppStorage), (.attribute, .SceneStorage):
        var cursor = index + 1
        if file.kind(cursor) == .leftParen, let close = file.match(cursor) { cursor = close + 1 }
        while file.word(cursor).isModifier || file.kind(cursor) == .attribute { cursor += 1 }
        guard file.word(cursor) == .var, file.kind(cursor + 1) == .identifier else { continue }
        if Self.looksLikePhotoIdentifier(file.text(cursor + 1)) {
          findings.append(file.finding(descriptor, at: cursor + 1))
        } else {
          storage.insert(file.text(cursor + 1))
        }
      default: continue
      }
    }
    // `selection = results.compactMap(\.assetIdentifier).joined(separator: ",")` into an `@AppStorage`
    // property of any name.
    for name in storage {
      for assignment in flow.assignments[name] ?? [] where !assignment.declares {
        if refersToIdentifiers(
          file, assignment.value, before: assignment.target, depth: 3, flow: flow, project: project,
          flows: flows, memo: memo)
        {
          findings.append(file.finding(descriptor, at: assignment.target))
        }
      }
    }
    let realm = Self.importsRealm(file)
    for (index, scope) in file.syntax.scopes.enumerated()
    where scope.kind == .type && isPersisted(file, index, realm: realm, project: project) {
      findings += identifierOnlyProperties(file, type: index, project: project).map {
        file.finding(descriptor, at: $0)
      }
    }
    return findings.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
  }

  /// The answers of ``refersToIdentifiers(_:_:before:depth:flow:project:flows:memo:)`` within one check.
  ///
  /// A value built from names whose values are built from names (`let a = [b, b, …]`, `let b = [c, c, …]`)
  /// would otherwise be read once per path through them, the product of the occurrences; with each
  /// (range, use, depth) answered once, every value is read at most once per depth.
  private final class Memo {
    struct Key: Hashable {
      var path: String
      var range: Range<Int>
      var use: Int
      var depth: Int
    }
    var answers: [Key: Bool] = [:]
  }

  /// Whether `range` mentions a photo identifier, directly or through what the names in it were set to:
  /// a local's initializer earlier in the same function (`let ids = results.compactMap(\.assetIdentifier)`)
  /// or any assignment in the file to a property (`chosen = results.map(\.localIdentifier)` in another
  /// method), `depth` levels deep. A count or an emptiness check of identifiers is not identifiers, and an
  /// album's or collection's identifier is not a reference to a picked photo.
  private func refersToIdentifiers(
    _ file: SourceFile, _ range: Range<Int>, before use: Int, depth: Int, flow: ValueFlow,
    project: ProjectFacts, flows: ValueFlow.Cache, memo: Memo
  ) -> Bool {
    let key = Memo.Key(path: file.path, range: range, use: use, depth: depth)
    if let known = memo.answers[key] { return known }
    let answer = computeRefersToIdentifiers(
      file, range, before: use, depth: depth, flow: flow, project: project, flows: flows, memo: memo)
    memo.answers[key] = answer
    return answer
  }

  /// ``refersToIdentifiers(_:_:before:depth:flow:project:flows:memo:)`` worked out, once per key.
  private func computeRefersToIdentifiers(
    _ file: SourceFile, _ range: Range<Int>, before use: Int, depth: Int, flow: ValueFlow,
    project: ProjectFacts, flows: ValueFlow.Cache, memo: Memo
  ) -> Bool {
    let range = range.clamped(to: 0..<file.count)
    guard !range.isEmpty, !Self.isCount(file, range.upperBound - 2) else { return false }
    for index in range where file.kind(index) == .identifier {
      let lower = ASCII.lowercased(file.text(index))
      if ASCII.contains(lower, "collection") || ASCII.contains(lower, "album") { return false }
    }
    for index in range where file.kind(index) == .identifier && !Self.isCount(file, index + 1) {
      if isIdentifierReference(file, index) { return true }
      guard depth > 0, !file.isMember(index) || file.word(index - 2) == .selfKeyword else { continue }
      let values = flow.values(of: index, before: use)
      for value in values
      where refersToIdentifiers(
        file, value, before: value.lowerBound, depth: depth - 1, flow: flow, project: project, flows: flows,
        memo: memo)
      {
        return true
      }
      // A property another file sets from identifiers (`store.chosen = results.map(\.localIdentifier)`).
      if flow.isProperty(index), project.identifierCarriers.contains(file.text(index)) { return true }
      guard values.isEmpty else { continue }
      // A parameter: what the callers pass for it.
      if let model = project.model,
        passedIdentifiers(
          file, parameter: index, depth: depth - 1, model: model, project: project, flows: flows, memo: memo)
      {
        return true
      }
    }
    return false
  }

  /// Whether the callers of the function that declares the parameter named at `name` pass identifiers for
  /// it (`save(ids: results.compactMap(\.assetIdentifier))` for `func save(ids: [String])`).
  private func passedIdentifiers(
    _ file: SourceFile, parameter name: Int, depth: Int, model: ProjectModel, project: ProjectFacts,
    flows: ValueFlow.Cache, memo: Memo
  ) -> Bool {
    let (function, _) = model.function(at: name, in: file)
    guard function >= 0,
      let position = model.functions[function].parameters.firstIndex(where: { $0.name == file.text(name) })
    else { return false }
    for number in model.incoming[function].prefix(16) {
      guard let argument = model.argument(position, of: number) else { continue }
      let caller = model.files[model.functions[model.calls[number].caller].file]
      if refersToIdentifiers(
        caller, argument, before: argument.lowerBound, depth: depth, flow: flows.flow(for: caller),
        project: project,
        flows: flows, memo: memo)
      {
        return true
      }
    }
    return false
  }

  /// Whether the tokens at `dot` are `.count` or `.isEmpty`: the expression before them is a number or a
  /// flag, not the identifiers.
  private static func isCount(_ file: SourceFile, _ dot: Int) -> Bool {
    file.kind(dot) == .dot && (file.word(dot + 1) == .count || file.word(dot + 1) == .isEmpty)
  }

  private func isIdentifierReference(_ file: SourceFile, _ index: Int) -> Bool {
    switch file.word(index) {
    case .assetIdentifier, .localIdentifier, .itemIdentifier: return true
    default:
      return file.kind(index) == .identifier && Self.looksLikePhotoIdentifier(file.text(index))
    }
  }

  /// A type whose values are written to disk: Codable (here, in an extension in another file, or
  /// through a protocol of the project's that is), a SwiftData model, or a Core Data entity.
  private func isPersisted(_ file: SourceFile, _ type: Int, realm: Bool, project: ProjectFacts) -> Bool {
    let scope = file.scope(type)
    guard file.word(scope.head) != .protocol, file.word(scope.head) != .extension else { return false }
    let inherited = file.inheritance(of: type)
    if inherited.contains(.Codable) || inherited.contains(.Encodable) || inherited.contains(.NSManagedObject)
    {
      return true
    }
    if let name = file.name(of: type) {
      if project.inherits(name, anyOf: Self.persistedBases) { return true }
      // Realm's `Object` is a common name: only a file that imports Realm means Realm's.
      if realm, project.inherits(name, anyOf: Self.realmBases) { return true }
    }
    if realm {
      for index in file.body(of: type)
      where file.kind(index) == .attribute && file.text(index) == "@Persisted"
        && file.syntax.scope(of: index) == type
      {
        return true
      }
    }
    var cursor = scope.head - 1
    while cursor >= 0, file.kind(cursor) == .attribute || file.word(cursor).isModifier {
      if file.word(cursor) == .Model { return true }
      cursor -= 1
    }
    return false
  }

  private static let persistedBases: Set<String> = ["Codable", "Encodable", "NSManagedObject"]
  /// Realm model base classes: every stored property of a subclass is written to the Realm file.
  private static let realmBases: Set<String> = ["Object", "EmbeddedObject"]

  /// Whether `file` imports Realm (`import RealmSwift`): only then are `Object` and `@Persisted` Realm's.
  private static func importsRealm(_ file: SourceFile) -> Bool {
    file.source.words.contains(.import)
      && (0..<file.count).contains { index in
        file.word(index) == .import && file.kind(index + 1) == .identifier
          && ["RealmSwift", "Realm"].contains(file.text(index + 1))
      }
  }

  /// The photo-identifier stored properties of a persisted type that has nothing more durable: no other
  /// stored property could hold the photo — none is named or typed for data, a file, a path, a hash or a
  /// cloud identifier, and none holds a type of the project's own that (through its properties) could.
  /// A library type the project does not declare counts as durable only when named like one (`UIImage`,
  /// `StoredFile`), since a `CLLocation` or a `Color` beside an identifier still leaves it the only
  /// reference.
  private func identifierOnlyProperties(_ file: SourceFile, type: Int, project: ProjectFacts) -> [Int] {
    var identifiers: [Int] = []
    for property in StoredProperty.all(in: file, type: type) {
      // Named like one, or a plain string (list) that identifiers are assigned or appended to elsewhere
      // (`trip.photos.append(result.assetIdentifier!)`, ``ProjectFacts/identifierCarriers``).
      let carries =
        project.identifierCarriers.contains(file.text(property.name)) && property.typeNames.isEmpty
        && !property.isDurable && !property.hasDurableType
      if Self.looksLikePhotoIdentifier(file.text(property.name)) || carries {
        if property.hasDurableType { return [] }
        identifiers.append(property.name)
        continue
      }
      if property.isDurable { return [] }
      for name in property.typeNames where project.keepsPhoto(name) == true { return [] }
    }
    return identifiers
  }
}
