/// PhotoKit requests for the whole photo: `requestImage(for:targetSize:…)` given `PHImageManagerMaximumSize`
/// or the asset's own pixel size (`CGSize(width: asset.pixelWidth, height: asset.pixelHeight)`), which
/// PhotoKit answers with the full-size image, decoded. A cell that asks for one decodes the whole photo; so
/// does a model that stores each answer into the data a list or grid draws (`self.images.append(image)`),
/// directly in the result handler or through a helper that returns it (`func toUIImage() -> UIImage`,
/// then `images.append(asset.toUIImage())`).
extension FullDecodeThumbnailRule {
  /// The token starting the `targetSize:` argument of the request named at `callee` when it asks for the
  /// full-size photo: `PHImageManagerMaximumSize`, or the asset's pixel size unscaled (only `pixelWidth`
  /// and `pixelHeight`, read through `CGSize`, `CGFloat`, `Double` or `Int`, with no arithmetic, number or
  /// other call: `CGSize(width: asset.pixelWidth / 4, …)` and `AVMakeRect(…)` are smaller).
  static func fullSizeTarget(_ file: SourceFile, callee: Int) -> Int? {
    guard file.kind(callee + 1) == .leftParen, let close = file.match(callee + 1) else { return nil }
    var start = callee + 2
    while start < close {
      let end = file.endOfArgument(from: start, close: close)
      defer { start = end + 1 }
      guard file.kind(start) == .identifier, file.text(start) == "targetSize", file.kind(start + 1) == .colon
      else { continue }
      let value = (start + 2)..<end
      if value.count == 1, file.word(value.lowerBound) == .PHImageManagerMaximumSize {
        return value.lowerBound
      }
      var width = false
      var height = false
      for token in value {
        switch file.kind(token) {
        case .number?: return nil
        case .op?:
          guard file.word(token) == .opBang || file.word(token) == .opQuestion else { return nil }
        case .identifier?:
          let text = file.text(token)
          if text == "pixelWidth" {
            width = true
          } else if text == "pixelHeight" {
            height = true
          } else if file.kind(token + 1) == .leftParen,
            !["CGSize", "CGFloat", "Double", "Int", "Float"].contains(text)
          {
            return nil
          }
        default: break
        }
      }
      return width && height ? value.lowerBound : nil
    }
    return nil
  }

  /// The finding for a full-size request at `callee`, outside list and grid cells, whose image is stored
  /// into data that cells draw: in its result handler (`self.images.append(image!)`, also through a name
  /// bound to it), or returned by the helper around it (`thumbnail = result!` … `return thumbnail`) whose
  /// result this file stores there or cells call.
  func requestedIntoListData(
    _ file: SourceFile, callee: Int, function: Int, project: ProjectFacts, locals: ListDataLocals,
    lookups: inout Int
  ) -> Finding? {
    guard function > 0, let handler = file.resultHandler(ofCallAt: callee) else { return nil }
    let closure = file.scope(handler)
    let body = file.body(of: function)
    var uses: [Int] = []
    let parameter = closure.parameters.first
    if let parameter, file.text(parameter) == "_" { return nil }
    for token in file.body(of: handler) where file.kind(token) == .identifier && !file.isMember(token) {
      let same = parameter.map { file.source.sameText(token, $0) } ?? (file.text(token) == "$0")
      if same, token != parameter { uses.append(token) }
      if uses.count >= 16 { break }
    }
    var store: String?
    var localSinks: [String] = []
    for use in uses {
      for sink in Self.sinks(of: use, in: file, body: body) {
        if locals.declaresLocally(sink, in: file, function: function, before: callee) {
          localSinks.append(sink)
        } else {
          store = Self.first(listData: [sink], project: project, before: store)
        }
      }
    }
    if let store {
      return file.finding(
        descriptor, at: callee,
        message:
          "requestImage asks for the full-size photo and stores it into \(store), which list or grid cells draw; request the cell's pixel size."
      )
    }
    guard !localSinks.isEmpty, lookups > 0, let name = file.name(of: function) else { return nil }
    lookups -= 1
    guard !file.returnedNames(inBodyOf: function).isDisjoint(with: localSinks) else { return nil }
    if let finding = helperCalledFromList(file, callee, function: function, project: project) {
      return finding
    }
    // This file's calls of the helper whose result it stores into list data (`images.append(asset.toUIImage())`).
    for token in 0..<file.count
    where file.kind(token) == .identifier && file.kind(token + 1) == .leftParen && file.text(token) == name
      && !body.contains(token) && file.word(token - 1) != .func
    {
      let caller = file.enclosingFunction(of: token)
      guard caller > 0 else { continue }
      let value = file.postfixStart(endingAt: token)
      if let list = Self.first(
        listData: Self.sinks(of: value, in: file, body: file.body(of: caller)), project: project, before: nil)
      {
        return file.finding(
          descriptor, at: callee,
          message:
            "\(name)() requests the full-size photo and returns it, and \(list), which list or grid cells draw, stores it; request the cell's pixel size."
        )
      }
    }
    return nil
  }

  /// How many helpers around full-size requests a file's calls are looked up for: each look reads the
  /// file once, so a file of thousands of them stays linear.
  static let requestHelperLookups = 8
  /// How many full-size requests outside cells a file's result handlers are followed for: each costs up to
  /// its function's length, so a file of thousands of them stays linear.
  static let requestsFollowed = 64
}
