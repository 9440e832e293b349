/// A `var`/`let` declared directly in a type's body, as the persistence rules see it: its name, the
/// names its type annotation (or initializer) mentions, and whether it could hold the photo itself.
struct StoredProperty {
  /// The token of the property's name.
  var name: Int
  /// Identifiers written in the property's type annotation or initializer (`[StoredFile]` → `StoredFile`),
  /// containers and plain values left out.
  var typeNames: [String]
  /// Whether the property could keep the photo or a way to its bytes without the library: named for
  /// data, a file, a path, a hash or a cloud identifier, or typed `Data`, `URL`, an image or a file.
  var isDurable: Bool
  /// Whether its type alone could (`Data`, `URL`, `PHCloudIdentifier`, `UIImage`), whatever its name.
  var hasDurableType: Bool

  /// Property names that suggest the model keeps the photo, not just a pointer to it.
  private static let durableNames: [StaticString] = [
    "data", "url", "file", "path", "hash", "sha", "checksum", "digest", "cloud", "bookmark",
  ]
  /// Type names that hold the photo or its bytes (`Data`, `URL`, `UIImage`, `PHCloudIdentifier`, a
  /// library type named for a file, an image or a thumbnail).
  private static let durableTypeNames: [StaticString] = [
    "data", "url", "file", "image", "thumbnail", "cloudidentifier", "bookmark",
  ]
  /// Types that cannot hold the photo and wrap nothing that could.
  static let plainTypes: Set<String> = [
    "String", "Int", "Double", "Float", "Bool", "Date", "UUID", "CGFloat", "Int64", "Int32", "UInt",
    "Int16", "UInt8", "UInt64", "Decimal", "Character", "Substring",
  ]
  private static let containers: Set<String> = [
    "Array", "Set", "Optional", "Dictionary", "ContiguousArray", "OrderedSet", "IndexSet",
  ]

  /// The stored properties declared directly in type scope `type` of `file` (computed properties, with
  /// a body after their type, are left out; `static` ones too).
  static func all(in file: SourceFile, type: Int) -> [StoredProperty] {
    var properties: [StoredProperty] = []
    for index in file.body(of: type)
    where (file.word(index) == .var || file.word(index) == .let) && file.syntax.scope(of: index) == type {
      guard let property = property(in: file, at: index) else { continue }
      properties.append(property)
    }
    return properties
  }

  /// The `var`/`let` keywords of `file` by the scope they are declared directly in, in order: one pass
  /// per file, where asking ``all(in:type:)`` of each type read the bodies of the types nested in it
  /// again (thousands of nested types made a quadratic file).
  static func keywordsByScope(in file: SourceFile) -> [Int: [Int]] {
    var keywords: [Int: [Int]] = [:]
    for index in 0..<file.count where file.word(index) == .var || file.word(index) == .let {
      keywords[file.syntax.scope(of: index), default: []].append(index)
    }
    return keywords
  }

  /// ``all(in:type:)`` from the keywords of ``keywordsByScope(in:)``.
  static func all(in file: SourceFile, type: Int, keywords: [Int: [Int]]) -> [StoredProperty] {
    let body = file.body(of: type)
    return (keywords[type] ?? []).filter { body.contains($0) }.compactMap { property(in: file, at: $0) }
  }

  /// The property declared by the `var`/`let` at `keyword`, if it is a stored instance property.
  static func property(in file: SourceFile, at keyword: Int) -> StoredProperty? {
    let name = keyword + 1
    guard file.kind(name) == .identifier, file.word(keyword - 1) != .static, file.word(keyword - 1) != .class
    else { return nil }
    let statement = file.statement(from: keyword)
    // `var thumbnail: UIImage { … }` is computed: nothing is stored (`= …` before the brace, or
    // `willSet`/`didSet` in it, is stored).
    if let brace = statement.first(where: { file.kind($0) == .leftBrace }),
      !(statement.lowerBound..<brace).contains(where: { file.word($0) == .opAssign }),
      file.word(brace + 1) != .willSet, file.word(brace + 1) != .didSet
    {
      return nil
    }
    var typeNames: [String] = []
    var durableType = false
    for token in (name + 1)..<max(name + 1, statement.upperBound) where file.kind(token) == .identifier {
      // Members (`.standard`, `Foo.Bar`'s `Bar`) and labels inside an initializer are not type names.
      if file.kind(token - 1) == .dot || file.kind(token + 1) == .colon { continue }
      let text = file.text(token)
      guard let first = text.utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else {
        continue
      }
      if plainTypes.contains(text) || containers.contains(text) { continue }
      if ASCII.containsAny(ASCII.lowercased(text), durableTypeNames) { durableType = true }
      typeNames.append(text)
    }
    let durableName = ASCII.containsAny(ASCII.lowercased(file.text(name)), durableNames)
    return StoredProperty(
      name: name, typeNames: typeNames, isDurable: durableName || durableType, hasDurableType: durableType)
  }
}
