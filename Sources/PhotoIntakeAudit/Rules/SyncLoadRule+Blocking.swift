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
    var facts = AssetFacts(file)
    // An asset parameter every caller had read or loaded before the call (across functions).
    var loads = ProjectModel.AssetLoads(model)
    // Every blocking call of one function that its function's context decides has the same path: found
    // once per function, which keeps a file of thousands of them in a helper linear.
    var paths: [Int: [ContextStep]?] = [:]
    func mainThreadPath(_ index: Int, through: Set<Int>?) -> [ContextStep]? {
      guard through == nil, let scope = file.syntax.enclosing(index, [.function, .accessor]),
        model.local(at: index, in: file, upTo: scope) == .inherit
      else { return model.mainThreadPath(index, in: file, through: through) }
      if let known = paths[scope] { return known }
      let path = model.mainThreadPath(index, in: file)
      paths[scope] = path
      return path
    }
    for index in 0..<file.count where file.kind(index) == .identifier {
      let word = file.word(index)
      let calls = file.kind(index + 1) == .leftParen
      // `asset.duration`, `asset?.duration`, `asset!.duration`: the receiver's name.
      var receiver = index - 2
      if file.word(receiver) == .opQuestion || file.word(receiver) == .opBang { receiver -= 1 }
      let message: String
      // How bad it is, worked out only for reads that block on main: an error where the load may
      // download (iCloud, a remote video), a warning where it only reads or decodes a local file.
      var severity: (inout AssetFacts) -> Severity = { _ in .warning }
      var through: Set<Int>?
      // `requestImage(…)` may be bare inside an extension of the image manager.
      if Self.imageRequests.contains(word), calls, file.word(index - 1) != .func {
        let synchrony = model.synchrony(ofRequest: index, in: file)
        switch synchrony {
        case .never: continue
        case .always: break
        case .through(let calls, _): through = calls
        }
        severity = { _ in synchrony.network ? .error : .warning }
        message =
          synchrony.network
          ? "PHImageManager request with isSynchronous options on the main thread; it blocks until the image arrives, from iCloud if need be."
          : "PHImageManager request with isSynchronous options on the main thread; it blocks until the image is decoded."
      } else if !file.isMember(index) {
        continue
      } else if word == .copyCGImage, calls {
        severity = { $0.isRemote(receiver, generator: true) ? .error : .warning }
        message =
          "AVAssetImageGenerator.copyCGImage(at:actualTime:) blocks the main thread while it decodes a frame."
      } else if word == .tracks, calls, !Self.isComposition(receiver, in: file) {
        guard !facts.isLoaded(readAt: index), !loads.isLoadedByCallers(receiver: receiver, in: file) else {
          continue
        }
        severity = { $0.isRemote(receiver, generator: false) ? .error : .warning }
        message = "AVAsset.tracks(withMediaType:) loads synchronously on the main thread; use load(.tracks)."
      } else if Self.assetProperties.contains(word), !calls, let assets, file.kind(receiver) == .identifier,
        assets.refers(receiver)
      {
        guard !facts.isLoaded(readAt: index), !loads.isLoadedByCallers(receiver: receiver, in: file) else {
          continue
        }
        severity = { $0.isRemote(receiver, generator: false) ? .error : .warning }
        message =
          "Synchronous AVAsset property read on the main thread blocks until the asset is loaded; use load(_:)."
      } else if word == .wait, calls, let blockers, isBlocker(index, in: file, blockers: blockers),
        waitsForRequest(index)
      {
        severity = { $0.allowsNetwork(around: index) ? .error : .warning }
        message =
          "Waiting on the main thread for a PhotoKit or AVFoundation request blocks until it finishes."
      } else {
        continue
      }
      guard let path = mainThreadPath(index, through: through) else { continue }
      if word == .tracks || Self.assetProperties.contains(word), !facts.claim(readAt: index) { continue }
      var finding = file.finding(descriptor, at: index, message: message).onMainThread(path)
      finding.severity = severity(&facts)
      if finding.severity == .error,
        word == .copyCGImage || word == .tracks || Self.assetProperties.contains(word)
      {
        finding.message += " The asset is a remote video, so it also waits for the network."
      }
      findings.append(finding)
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
