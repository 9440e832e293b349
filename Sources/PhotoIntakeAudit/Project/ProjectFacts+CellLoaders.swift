/// The cell methods and properties index-keyed grids hand their asset to (see ``GridKeyedByIndexRule``).
extension ProjectFacts {
  /// Records, once every file is read (fetch results may be declared in any of them), the methods that
  /// index-keyed `cellForItemAt`/`cellForRowAt` methods call (see ``cellLoaders``).
  mutating func addCellLoaders(_ files: [SourceFile]) {
    guard !fetchResultNames.isEmpty else { return }
    for file in files where file.source.words.containsAny([.cellForItemAt, .cellForRowAt]) {
      // `cellForItemAt`, and `willDisplay` (`collectionView(_:willDisplay:forItemAt:)`), where a cell is
      // handed its asset just before it shows.
      for (index, scope) in file.syntax.scopes.enumerated()
      where scope.kind == .function
        && (file.contains([.cellForItemAt, .cellForRowAt], in: scope.head..<max(scope.head, scope.open))
          || Self.isWillDisplay(scope, in: file))
      {
        let body = file.body(of: index)
        guard !file.contains([.localIdentifier], in: body),
          GridKeyedByIndexRule.takesObjectByIndexPath(over: fetchResultNames, in: file, body)
        else { continue }
        // What the method shows: the fetch result itself, or a name bound from it (`let asset = assets[…]`).
        var shown = fetchResultNames
        for token in body
        where (file.word(token) == .let || file.word(token) == .var) && file.word(token + 2) == .opAssign {
          let value = (token + 3)..<min(token + 7, body.upperBound)
          if value.contains(where: {
            file.kind($0) == .identifier && fetchResultNames.contains(file.text($0))
          }) {
            shown.insert(file.text(token + 1))
          }
        }
        // Properties set to it (`cell.asset = asset`): their observers run with it, as a method would. Only
        // the cell type the method casts to (`cell as? PhotoCell`) has them, when it casts: another cell
        // class with a property of that name may be fed from an array.
        let cast = body.first { token in
          file.word(token) == .as && (file.word(token + 1) == .opQuestion || file.word(token + 1) == .opBang)
            && file.kind(token + 2) == .identifier
        }.map { file.text($0 + 2) }
        for token in body
        where file.kind(token) == .identifier && file.isMember(token) && file.word(token + 1) == .opAssign {
          let value = (token + 2)..<min(token + 6, body.upperBound)
          if value.contains(where: { file.kind($0) == .identifier && shown.contains(file.text($0)) }) {
            cellLoaderProperties[file.text(token), default: []].insert(cast ?? "")
          }
        }
        // Methods given it: `cell.loadImage(phAsset: asset)`, `cell.setup(asset: assets[indexPath.item])`.
        for token in body
        where file.kind(token) == .identifier && file.isMember(token) && file.kind(token + 1) == .leftParen {
          // The first arguments only, so nested calls cost a bounded look each.
          guard let close = file.match(token + 1) else { continue }
          let arguments = (token + 2)..<min(close, token + 66)
          if arguments.contains(where: { file.kind($0) == .identifier && shown.contains(file.text($0)) }) {
            cellLoaders.insert(file.text(token))
          }
        }
      }
    }
  }

  /// Whether function scope `scope` is a `willDisplay` delegate method of a collection or table view
  /// (`func collectionView(_ collectionView: UICollectionView, willDisplay cell: …, forItemAt …)`).
  private static func isWillDisplay(_ scope: Scope, in file: SourceFile) -> Bool {
    guard file.word(scope.head) == .func, scope.open > scope.head else { return false }
    return (scope.head..<min(scope.open, scope.head + 12)).contains { file.text($0) == "willDisplay" }
  }
}
