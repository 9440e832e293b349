/// App views that draw their content closure once per row: `FilteredList(…) { person in Row(person) }`, whose
/// type stores `let content: (T) -> Content` and calls `content(item)` inside a `List`/`ForEach` of its body
/// (the Core Data filtered list of many SwiftUI courses). A closure passed to one is a list context like a
/// `ForEach`'s.
///
/// Found in one pass over the files before any is added to ``ProjectFacts``: a type's function-typed stored
/// properties, and the names called inside its list contexts, each looked at once.
enum ListWrappers {
  static func names(in files: [SourceFile]) -> Set<String> {
    var wrappers: Set<String> = []
    for file in files where file.source.words.containsAny([.ForEach, .List]) {
      // Function-typed stored properties by type scope: `let content: (T) -> Content`.
      var closures: [Int: Set<String>] = [:]
      for index in 0..<file.count
      where (file.word(index) == .let || file.word(index) == .var) && file.kind(index + 1) == .identifier
        && file.kind(index + 2) == .colon && file.kind(index + 3) == .leftParen
      {
        let scope = file.syntax.scope(of: index)
        guard file.scope(scope).kind == .type, let close = file.match(index + 3),
          file.word(close + 1) == .opArrow
        else { continue }
        closures[scope, default: []].insert(file.text(index + 1))
      }
      guard !closures.isEmpty else { continue }
      let inList = ListContext.scopes(in: file)
      for index in 0..<file.count
      where file.kind(index) == .identifier && file.kind(index + 1) == .leftParen
        && inList[file.syntax.scope(of: index)]
        && (!file.isMember(index) || file.word(index - 2) == .selfKeyword)
      {
        guard let type = file.enclosingType(of: index), closures[type]?.contains(file.text(index)) == true,
          let name = file.name(of: type)
        else { continue }
        // The type itself is no cell: only what it draws per row is.
        wrappers.insert(name)
      }
    }
    return wrappers
  }
}
