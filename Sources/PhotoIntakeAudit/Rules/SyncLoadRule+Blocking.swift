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
    var findings: [Finding] = []
    for index in 0..<file.count where file.isMember(index) {
      let word = file.word(index)
      let calls = file.kind(index + 1) == .leftParen
      let message: String
      if Self.imageRequests.contains(word), calls, model.hasSynchronousOptions(call: index, in: file) {
        message =
          "PHImageManager request with isSynchronous options on the main thread; it blocks until the image arrives, from iCloud if need be."
      } else if word == .copyCGImage, calls {
        message =
          "AVAssetImageGenerator.copyCGImage(at:actualTime:) blocks the main thread while it decodes a frame."
      } else if word == .tracks, calls {
        message = "AVAsset.tracks(withMediaType:) loads synchronously on the main thread; use load(.tracks)."
      } else if Self.assetProperties.contains(word), !calls, let assets, file.kind(index - 2) == .identifier,
        assets.refers(index - 2)
      {
        message =
          "Synchronous AVAsset property read on the main thread blocks until the asset is loaded; use load(_:)."
      } else if word == .wait, calls, isBlocker(index, in: file),
        file.contains(Self.awaitedRequests, in: file.body(of: file.enclosingFunction(of: index))),
        !file.contains(Self.itemLoads, in: file.body(of: file.enclosingFunction(of: index)))
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

  private static let itemLoads: Set<Word> = [
    .loadTransferable, .loadObject, .loadFileRepresentation, .loadDataRepresentation,
    .loadInPlaceFileRepresentation, .loadItem,
  ]

  /// `semaphore.wait()`, `group.wait(timeout:)`: a receiver that is, or is declared as, a semaphore or group.
  private func isBlocker(_ index: Int, in file: SourceFile) -> Bool {
    let receiver = file.postfixStart(endingAt: index)..<index
    if file.contains([.DispatchSemaphore, .DispatchGroup], in: receiver) { return true }
    guard file.kind(index - 2) == .identifier else { return false }
    let blockers = DeclaredNames(
      in: file, types: [.DispatchSemaphore, .DispatchGroup],
      initializers: [.DispatchSemaphore, .DispatchGroup])
    return blockers.refers(index - 2)
  }
}

extension ProjectModel {
  /// Whether the `options:` argument of the PhotoKit request at `call` names options made synchronous
  /// (`options.isSynchronous = true`) in the same function, or a property or function of the project
  /// that sets it.
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
    let text = file.text(name)
    let (function, _) = self.function(at: call, in: file)
    return synchronousOptions.contains(text) || synchronousOptions.contains("\(function):\(text)")
  }

  /// Names of options made synchronous: `function:name` for a local, `name` for a property, or the
  /// function or property that returns them.
  static func synchronousOptions(in files: [SourceFile], model: ProjectModel) -> Set<String> {
    var names: Set<String> = []
    for file in files where file.source.words.contains(.isSynchronous) {
      for index in 0..<file.count
      where file.word(index) == .isSynchronous && file.word(index + 1) == .opAssign
        && file.word(index + 2) == .true && file.kind(index - 2) == .identifier
      {
        let receiver = index - 2
        let (function, _) = model.function(at: index, in: file)
        let holder = file.syntax.enclosing(index, [.closure, .function, .accessor]) ?? 0
        let body = holder > 0 ? file.body(of: holder) : 0..<0
        let isLocal = body.contains { token in
          (file.word(token - 1) == .let || file.word(token - 1) == .var)
            && file.source.sameText(token, receiver)
        }
        if !isLocal {
          names.insert(file.text(receiver))
        } else if function >= 0 {
          names.insert("\(function):\(file.text(receiver))")
        }
        if function >= 0, file.scope(holder).kind != .closure { names.insert(model.functions[function].name) }
        // `static let options: PHImageRequestOptions = { … }()`: the property the closure initializes.
        if holder > 0, file.scope(holder).kind == .closure {
          var back = file.scope(holder).open - 1
          while back > file.scope(holder).open - 12, back > 0 {
            if file.word(back) == .let || file.word(back) == .var {
              names.insert(file.text(back + 1))
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
