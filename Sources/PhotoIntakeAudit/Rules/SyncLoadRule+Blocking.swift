/// The loads that block the calling thread by design, flagged where the call graph puts them on the main
/// thread: there they freeze the UI for as long as an iCloud download or a decode takes (PhotoKit's
/// `PHImageRequestOptions.isSynchronous` documentation says as much; `AVAsset`'s synchronous properties
/// are deprecated in favour of `load(_:)` for the same reason).
extension SyncLoadRule {
  /// PhotoKit requests whose options may be synchronous.
  private static let imageRequests: Set<Word> = [
    .requestImage, .requestImageData, .requestImageDataAndOrientation,
  ]
  /// Asynchronous PhotoKit and AVFoundation requests that a semaphore or group might wait for.
  private static let awaitedRequests: Set<Word> = [
    .requestImage, .requestImageData, .requestImageDataAndOrientation, .requestData, .writeData,
    .requestAVAsset, .requestContentEditingInput, .loadValuesAsynchronously,
  ]
  /// `AVAsset` properties that load synchronously when read.
  private static let assetProperties: Set<Word> = [.duration, .tracks, .commonMetadata, .isPlayable]

  func blockingLoads(in file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard let model = project.model else { return [] }
    let assets =
      file.source.words.contains(.AVAsset) || file.source.words.contains(.AVURLAsset)
      ? DeclaredNames(in: file, types: [.AVAsset, .AVURLAsset], initializers: [.AVAsset, .AVURLAsset]) : nil
    let blockers =
      file.source.words.contains(.wait)
      ? DeclaredNames(
        in: file, types: [.DispatchSemaphore, .DispatchGroup],
        initializers: [.DispatchSemaphore, .DispatchGroup])
      : nil
    // Per function scope, whether it starts a request a wait could be for and whether it loads picked
    // items: asked once per `.wait()`, so remembered to keep a file of thousands of waits linear.
    var awaits: [Int: Bool] = [:]
    func waitsForRequest(_ index: Int) -> Bool {
      let function = file.enclosingFunction(of: index)
      if let known = awaits[function] { return known }
      let body = file.body(of: function)
      let answer = file.contains(Self.awaitedRequests, in: body) && !file.contains(Self.itemLoads, in: body)
      awaits[function] = answer
      return answer
    }
    var findings: [Finding] = []
    for index in 0..<file.count where file.kind(index) == .identifier {
      let word = file.word(index)
      let calls = file.kind(index + 1) == .leftParen
      let message: String
      // `requestImage(…)` may be bare inside an extension of the image manager.
      if Self.imageRequests.contains(word), calls, file.word(index - 1) != .func,
        model.hasSynchronousOptions(call: index, in: file)
      {
        message =
          "PHImageManager request with isSynchronous options on the main thread; it blocks until the image arrives, from iCloud if need be."
      } else if !file.isMember(index) {
        continue
      } else if word == .copyCGImage, calls {
        message =
          "AVAssetImageGenerator.copyCGImage(at:actualTime:) blocks the main thread while it decodes a frame."
      } else if word == .tracks, calls, !Self.isComposition(index - 2, in: file) {
        message = "AVAsset.tracks(withMediaType:) loads synchronously on the main thread; use load(.tracks)."
      } else if Self.assetProperties.contains(word), !calls, let assets, file.kind(index - 2) == .identifier,
        assets.refers(index - 2)
      {
        message =
          "Synchronous AVAsset property read on the main thread blocks until the asset is loaded; use load(_:)."
      } else if word == .wait, calls, let blockers, isBlocker(index, in: file, blockers: blockers),
        waitsForRequest(index)
      {
        message =
          "Waiting on the main thread for a PhotoKit or AVFoundation request blocks until it finishes."
      } else {
        continue
      }
      let (context, path) = model.trace(index, in: file)
      if case .main = context {
        findings.append(file.finding(descriptor, at: index, message: message).onMainThread(path))
      }
    }
    return findings
  }

  /// `composition.tracks(withMediaType:)`: a composition is built in memory, so reading its tracks loads
  /// nothing.
  private static func isComposition(_ receiver: Int, in file: SourceFile) -> Bool {
    file.kind(receiver) == .identifier && file.text(receiver).lowercased().contains("composition")
  }

  private static let itemLoads: Set<Word> = [
    .loadTransferable, .loadObject, .loadFileRepresentation, .loadDataRepresentation,
    .loadInPlaceFileRepresentation, .loadItem,
  ]

  /// `semaphore.wait()`, `group.wait(timeout:)`: a receiver that is, or is declared as, a semaphore or group.
  private func isBlocker(_ index: Int, in file: SourceFile, blockers: DeclaredNames) -> Bool {
    let receiver = file.postfixStart(endingAt: index)..<index
    if file.contains([.DispatchSemaphore, .DispatchGroup], in: receiver) { return true }
    guard file.kind(index - 2) == .identifier else { return false }
    return blockers.refers(index - 2)
  }
}

extension ProjectModel {
  /// Whether the `options:` argument of the PhotoKit request at `call` names options made synchronous
  /// (`options.isSynchronous = true`): a local of the same function, a property of the type named or of
  /// the caller's own (`option`, `self.option`, `ImageOptions.synchronous`, `.sharedSynchronous`), or a
  /// function or computed property that returns them.
  func hasSynchronousOptions(call: Int, in file: SourceFile) -> Bool {
    guard let close = file.match(call + 1) else { return false }
    var cursor = call + 2
    while cursor < close {
      if file.word(cursor) == .options, file.kind(cursor + 1) == .colon { break }
      if file.tokens[cursor].isOpening, let partner = file.match(cursor) {
        cursor = partner + 1
        continue
      }
      cursor += 1
    }
    guard cursor < close else { return false }
    let end = file.endOfArgument(from: cursor + 2, close: close)
    guard let name = ((cursor + 2)..<end).last(where: { file.kind($0) == .identifier }) else { return false }
    return namesSynchronousOptions(name, in: file, depth: 2)
  }

  /// Whether the expression ending at token `name` is synchronous options; a parameter of the function
  /// around it is, when a caller passes synchronous options for it (`image.loadImage(Self.options)`).
  private func namesSynchronousOptions(_ name: Int, in file: SourceFile, depth: Int) -> Bool {
    let text = file.text(name)
    let (function, _) = self.function(at: name, in: file)
    let ownType = function >= 0 ? functions[function].typeName ?? "" : ""
    guard file.kind(name - 1) == .dot else {
      if synchronousOptions.contains("\(function):\(text)")
        || synchronousOptions.contains("\(ownType).\(text)")
        || synchronousOptions.contains(".\(text)")
      {
        return true
      }
      guard function >= 0 else { return false }
      if depth > 0, let position = parameterPosition(of: name, in: function) {
        return incoming[function].contains { number in
          let call = calls[number]
          let caller = files[functions[call.caller].file]
          guard let argument = argument(position, of: call.token, in: caller) else { return false }
          return namesSynchronousOptions(argument, in: caller, depth: depth - 1)
        }
      }
      // `let options = photoRequestOptions()`: a local made by a function that returns synchronous options.
      let body = file.body(of: functions[function].scope)
      guard
        let declared = body.first(where: {
          $0 < name && file.source.sameText($0, name) && file.word($0 - 1) == .let
            && file.word($0 + 1) == .opAssign
        })
      else { return false }
      let maker = declared + 2
      guard file.kind(maker) == .identifier, file.kind(maker + 1) == .leftParen else { return false }
      return synchronousOptions.contains("\(ownType).\(file.text(maker))")
        || synchronousOptions.contains(".\(file.text(maker))")
    }
    let receiver = name - 2
    if file.word(receiver) == .selfKeyword || file.word(receiver) == .selfType {
      return synchronousOptions.contains("\(ownType).\(text)")
    }
    if file.kind(receiver) == .identifier {
      return synchronousOptions.contains("\(file.text(receiver)).\(text)")
    }
    // `.sharedSynchronous`: a static member of some type.
    return synchronousOptions.contains("*.\(text)")
  }

  /// The position of the parameter named like token `name` in the declaration of `function`, if any.
  private func parameterPosition(of name: Int, in function: Int) -> Int? {
    let file = files[functions[function].file]
    let scope = file.scope(functions[function].scope)
    var paren = scope.head + 1
    while paren < scope.open, file.kind(paren) != .leftParen { paren += 1 }
    guard paren < scope.open, let close = file.match(paren) else { return nil }
    var position = 0
    var cursor = paren + 1
    while cursor < close {
      if file.tokens[cursor].isOpening, let partner = file.match(cursor) {
        cursor = partner + 1
        continue
      }
      if file.kind(cursor) == .comma { position += 1 }
      // `_ options: PHImageRequestOptions`: the internal name stands right before the colon.
      if file.kind(cursor + 1) == .colon, file.kind(cursor) == .identifier, file.source.sameText(cursor, name)
      {
        return position
      }
      cursor += 1
    }
    return nil
  }

  /// The last identifier of argument `position` of the call named at `token` (`ImageLoader.options` →
  /// `options`).
  private func argument(_ position: Int, of token: Int, in file: SourceFile) -> Int? {
    guard file.kind(token + 1) == .leftParen, let close = file.match(token + 1) else { return nil }
    var start = token + 2
    for _ in 0..<position {
      start = file.endOfArgument(from: start, close: close) + 1
      guard start < close else { return nil }
    }
    let end = file.endOfArgument(from: start, close: close)
    return (start..<end).last { file.kind($0) == .identifier }
  }

  /// Options made synchronous, as `function:name` for a local, `Type.name` for a property or for a
  /// function or computed property that returns them (`.name` at file level), and `*.name` for any
  /// member, which an implicit member expression may name.
  static func synchronousOptions(in files: [SourceFile], model: ProjectModel) -> Set<String> {
    var names: Set<String> = []
    for file in files where file.source.words.contains(.isSynchronous) {
      for index in 0..<file.count
      where file.word(index) == .isSynchronous && file.word(index + 1) == .opAssign
        && file.word(index + 2) == .true && file.kind(index - 2) == .identifier
      {
        let receiver = index - 2
        let (function, _) = model.function(at: index, in: file)
        let typeName = file.enclosingType(of: index).flatMap { file.name(of: $0) } ?? ""
        func member(_ name: String) {
          names.insert("\(typeName).\(name)")
          names.insert("*.\(name)")
        }
        let holder = file.syntax.enclosing(index, [.closure, .function, .accessor]) ?? 0
        let body = holder > 0 ? file.body(of: holder) : 0..<0
        let isLocal = body.contains { token in
          (file.word(token - 1) == .let || file.word(token - 1) == .var)
            && file.source.sameText(token, receiver)
        }
        if !isLocal {
          member(file.text(receiver))
        } else if function >= 0 {
          names.insert("\(function):\(file.text(receiver))")
        }
        if function >= 0, file.scope(holder).kind != .closure,
          file.contains([.return], in: file.body(of: model.functions[function].scope))
            || model.functions[function].arity < 0
        {
          member(model.functions[function].name)
        }
        // `static let options: PHImageRequestOptions = { … }()`: the property the closure initializes.
        if holder > 0, file.scope(holder).kind == .closure {
          var back = file.scope(holder).open - 1
          while back > file.scope(holder).open - 12, back > 0 {
            if file.word(back) == .let || file.word(back) == .var {
              member(file.text(back + 1))
              break
            }
            back -= 1
          }
        }
      }
    }
    return names
  }
}
