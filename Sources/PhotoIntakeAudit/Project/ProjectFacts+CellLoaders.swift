/// The cell methods and properties index-keyed grids hand their asset to (see ``GridKeyedByIndexRule``).
extension ProjectFacts {
  /// Records, once every file is read (fetch results may be declared in any of them), the methods that
  /// index-keyed `cellForItemAt`/`cellForRowAt` methods call (see ``cellLoaders``).
  mutating func addCellLoaders(_ files: [SourceFile]) {
    guard !fetchResultNames.isEmpty || words.contains(.fetchAssets) else { return }
    cellAssetSources = fetchResultNames.union(
      Self.copiedAssetArrays(files, fetchResultNames: fetchResultNames))
    guard !cellAssetSources.isEmpty else { return }
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
          GridKeyedByIndexRule.takesObjectByIndexPath(over: cellAssetSources, in: file, body)
        else { continue }
        // What the method shows: the fetch result itself, or a name bound from it (`let asset = assets[…]`).
        var shown = cellAssetSources
        for token in body
        where (file.word(token) == .let || file.word(token) == .var) && file.word(token + 2) == .opAssign {
          let value = (token + 3)..<min(token + 7, body.upperBound)
          if value.contains(where: {
            file.kind($0) == .identifier && cellAssetSources.contains(file.text($0))
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

  /// The arrays `files` fill with the assets of a fetch result (`fetchResultNames`, or a `fetchAssets(…)`
  /// call's result): `result.enumerateObjects { asset, _, _ in self.photos.append(asset) }` (Swift 2's
  /// `enumerateObjectsUsingBlock`), `photos.append(result.object(at: i))`, `photos.append(result[i])`,
  /// `photos = result.objects(at: indexes)`. Each append names its array by its last component
  /// (`self.photos` is `photos`). A closure is read for at most 256 tokens.
  static func copiedAssetArrays(_ files: [SourceFile], fetchResultNames: Set<String>) -> Set<String> {
    var arrays: Set<String> = []
    func isFetchResult(_ file: SourceFile, endingAt token: Int) -> Bool {
      var last = token
      if file.word(last) == .opQuestion || file.word(last) == .opBang { last -= 1 }
      if file.kind(last) == .identifier { return fetchResultNames.contains(file.text(last)) }
      // `PHAsset.fetchAssets(with: .image, options: nil).enumerateObjects { … }`
      guard file.kind(last) == .rightParen, let open = file.match(last) else { return false }
      return file.word(open - 1) == .fetchAssets
    }
    for file in files where file.source.words.containsAny([.append, .enumerateObjects]) {
      for index in 0..<file.count where file.kind(index - 1) == .dot {
        switch file.word(index) {
        case .enumerateObjects:
          guard isFetchResult(file, endingAt: index - 2) else { continue }
          // The closure: trailing (`{`) or the only argument (`({`).
          var open = index + 1
          if file.kind(open) == .leftParen { open += 1 }
          guard file.kind(open) == .leftBrace, let close = file.match(open) else { continue }
          for token in (open + 1)..<min(close, open + 256)
          where file.word(token) == .append && file.kind(token - 1) == .dot
            && file.kind(token + 1) == .leftParen
            && file.kind(token - 2) == .identifier
          {
            arrays.insert(file.text(token - 2))
          }
        case .append:
          // `photos.append(result.object(at: i))`, `photos.append(result[i])`
          guard file.kind(index - 2) == .identifier, file.kind(index + 1) == .leftParen,
            file.kind(index + 2) == .identifier, fetchResultNames.contains(file.text(index + 2))
          else { continue }
          var next = index + 3
          if file.word(next) == .opQuestion || file.word(next) == .opBang { next += 1 }
          let element =
            file.kind(next) == .leftBracket
            || (file.kind(next) == .dot
              && (file.text(next + 1) == "object" || file.text(next + 1) == "objectAtIndex"))
          if element { arrays.insert(file.text(index - 2)) }
        default:
          // `photos = result.objects(at: IndexSet(0..<result.count))`
          guard file.text(index) == "objects", file.kind(index + 1) == .leftParen,
            isFetchResult(file, endingAt: index - 2)
          else { continue }
          var receiver = index - 2
          if file.word(receiver) == .opQuestion || file.word(receiver) == .opBang { receiver -= 1 }
          if file.word(receiver - 1) == .opAssign, file.kind(receiver - 2) == .identifier {
            arrays.insert(file.text(receiver - 2))
          }
        }
      }
    }
    // `dataSource = temp` after `result.enumerateObjects { … temp.append(MediaAsset(asset: asset)) }`: the
    // array a local was copied into is a copy too (one step).
    var assigned: Set<String> = []
    for file in files where file.source.words.contains(.enumerateObjects) {
      for index in 0..<file.count
      where file.word(index) == .opAssign && file.kind(index - 1) == .identifier
        && file.kind(index + 1) == .identifier && arrays.contains(file.text(index + 1))
        && !file.isMember(index + 1) && file.kind(index + 2) != .dot && file.kind(index + 2) != .leftParen
        && file.kind(index + 2) != .leftBracket
      {
        assigned.insert(file.text(index - 1))
      }
    }
    return arrays.union(assigned)
  }

  /// Records where the file cancels image requests (`cancelImageRequest`): in a cell class (a type
  /// inheriting a cell base in this file, or named like a cell), which covers that class's own requests,
  /// or anywhere else (a controller's `didEndDisplaying`, a loader), which may cover any cell.
  mutating func addImageRequestCancels(_ file: SourceFile) {
    guard file.source.words.contains(.cancelImageRequest) else { return }
    for index in 0..<file.count where file.word(index) == .cancelImageRequest && file.isActive(index) {
      let type = file.enclosingType(of: index)
      let name = type.flatMap { file.name(of: $0) } ?? ""
      let inheritsCell = type.map { ListContext.declaresCellBase(file, file.scope($0)) } ?? false
      if name.hasSuffix("Cell") || inheritsCell {
        cellTypesCancellingRequests.insert(name)
      } else {
        cancelsImageRequestsOutsideCells = true
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
