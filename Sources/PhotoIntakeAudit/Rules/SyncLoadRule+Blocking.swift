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
    var assets =
      file.source.words.contains(.AVAsset) || file.source.words.contains(.AVURLAsset)
        || file.source.words.contains(.requestAVAsset)
      ? DeclaredNames(in: file, types: [.AVAsset, .AVURLAsset], initializers: [.AVAsset, .AVURLAsset]) : nil
    // PhotoKit's `requestAVAsset` hands its result handler a new `AVAsset` (`{ avAsset, _, _ in`), not yet
    // loaded; `if let video = avAsset` is the same asset.
    assets?.addFirstClosureParameters(of: [.requestAVAsset])
    assets?.addBindings()
    // `for asset in videoAssets { … asset.duration … }` over assets made just before: each is read first there.
    assets?.addLoopVariables()
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
    // Extensions of `AVAsset` the app declares: their members read the asset they are called on.
    let assetExtensions =
      assets == nil
      ? []
      : Set(
        file.syntax.scopes.indices.filter { scope in
          file.scope(scope).kind == .type && file.word(file.scope(scope).head) == .extension
            && ["AVAsset", "AVURLAsset"].contains(file.name(of: scope) ?? "")
        })
    // Functions of those extensions whose first read of `self` was already seen: later reads find it loaded.
    var selfReadIn: Set<Int> = []
    // Stored arrays of assets (by type and name) a loop already read (see `DeclaredNames.addLoopVariables`).
    var claimedLoops: Set<String> = []
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
      } else if !assetExtensions.isEmpty, word == .tracks || (Self.assetProperties.contains(word) && !calls),
        Self.readsSelf(index, in: file, extensions: assetExtensions)
      {
        // `tracks(withMediaType:)`, `self.duration` in `extension AVAsset { var isPortrait: Bool { … } }`:
        // the first read in the member blocks, once, for the callers that had not loaded the asset.
        let function = file.enclosingFunction(of: index)
        guard selfReadIn.insert(function).inserted, !Self.loadsSelf(before: index, in: file) else { continue }
        // An earlier call to another member of the extension (`fullRange` reads `duration`) read it first.
        let member = model.function(at: index, in: file).id
        guard member < 0 || !loads.readsSelf(in: member, before: index) else { continue }
        through = loads.callsNotLoadingReceiver(of: index, in: file)
        message =
          word == .tracks
          ? "AVAsset.tracks loads synchronously, and main-thread code calls this helper on an asset it has not loaded; use load(.tracks)."
          : "Synchronous AVAsset property read in a helper that main-thread code calls on an asset it has not loaded; use load(_:)."
      } else if !file.isMember(index) {
        continue
      } else if word == .copyCGImage, calls {
        severity = { $0.isRemote(receiver, generator: true) ? .error : .warning }
        message =
          "AVAssetImageGenerator.copyCGImage(at:actualTime:) blocks the main thread while it decodes a frame."
      } else if word == .performChangesAndWait, calls || file.kind(index + 1) == .leftBrace {
        // `PHPhotoLibrary.shared().performChangesAndWait { … }` blocks the calling thread until the
        // library has saved the change (writing a photo's or a video's file); its documentation asks for
        // `performChanges(_:completionHandler:)` anywhere the wait would hold up the UI.
        message =
          "PHPhotoLibrary.performChangesAndWait blocks the main thread until the library has saved the change; use performChanges(_:completionHandler:)."
      } else if word == .tracks, calls, !Self.isComposition(receiver, in: file) {
        guard !facts.isLoaded(readAt: index), !loads.isAssetOfTrackParameter(receiver: receiver, in: file),
          !(assets.map { Self.isLoadedBinding(receiver, before: index, assets: $0, facts: &facts) } ?? false),
          !loads.isLoadedByCallers(receiver: receiver, in: file),
          !loads.isLoadedBefore(receiver: receiver, in: file),
          !loads.isLoadedStoredAsset(receiver: receiver, in: file)
        else {
          continue
        }
        severity = { $0.isRemote(receiver, generator: false) ? .error : .warning }
        message = "AVAsset.tracks(withMediaType:) loads synchronously on the main thread; use load(.tracks)."
      } else if Self.assetProperties.contains(word), !calls, file.kind(receiver) == .rightParen,
        let open = file.match(receiver),
        file.word(open - 1) == .AVURLAsset || file.word(open - 1) == .AVAsset,
        !file.isMember(open - 1)
      {
        // `AVURLAsset(url: url).duration`: the first read of an asset made right there.
        let constructor = open - 1
        severity = { $0.isRemote(constructorAt: constructor) ? .error : .warning }
        message =
          "Synchronous AVAsset property read on the main thread blocks until the asset is loaded; use load(_:)."
      } else if Self.assetProperties.contains(word), !calls, let assets, file.kind(receiver) == .identifier,
        assets.refers(receiver)
      {
        guard !facts.isLoaded(readAt: index),
          !Self.isLoadedBinding(receiver, before: index, assets: assets, facts: &facts),
          !loads.isAssetOfTrackParameter(receiver: receiver, in: file),
          !loads.isLoadedByCallers(receiver: receiver, in: file),
          !loads.isLoadedBefore(receiver: receiver, in: file),
          !loads.isLoadedStoredAsset(receiver: receiver, in: file)
        else {
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
      // An asset read straight off its initializer (`AVURLAsset(url: url).duration`) is a new one each time.
      let fresh = file.kind(receiver) == .rightParen
      if word == .tracks || Self.assetProperties.contains(word), through == nil, !fresh,
        !facts.claim(readAt: index)
      {
        continue
      }
      // Loops over the same stored array of assets read the same assets: only the first is reported.
      if word == .tracks || Self.assetProperties.contains(word), let assets,
        let declared = assets.declaration(receiver), let collection = assets.storedLoops[declared],
        !claimedLoops.insert("\(file.enclosingType(of: index) ?? -1):\(collection)").inserted
      {
        continue
      }
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

  /// Whether `receiver` names an asset bound to another name (`guard let clip = avAsset`), bindings of
  /// bindings included, that was read or loaded under one of those names before `index`. At most
  /// ``DeclaredNames/scopeWalkLimit`` links are followed.
  private static func isLoadedBinding(
    _ receiver: Int, before index: Int, assets: DeclaredNames, facts: inout AssetFacts
  ) -> Bool {
    var name = receiver
    var previous = -1
    for _ in 0..<DeclaredNames.scopeWalkLimit {
      // `let clip = clip` finds itself again (declarations are looked up by scope, not by position).
      guard let declared = assets.declaration(name), declared != previous,
        let source = assets.boundFrom[declared]
      else { return false }
      if facts.isLoaded(source: source, before: index) { return true }
      previous = declared
      name = source
    }
    return false
  }

  /// Whether the read at `index` is of the asset an `AVAsset` extension's member is called on:
  /// `self.duration`, or a bare `tracks(withMediaType:)` or `duration` that no local or parameter of the
  /// member shadows.
  private static func readsSelf(_ index: Int, in file: SourceFile, extensions: Set<Int>) -> Bool {
    guard let type = file.enclosingType(of: index), extensions.contains(type) else { return false }
    if file.isMember(index) {
      return file.word(index - 2) == .selfKeyword && file.kind(index - 3) != .dot
    }
    let before = file.word(index - 1)
    guard before != .let, before != .var, before != .func, before != .case, file.kind(index + 1) != .colon
    else { return false }
    let function = file.enclosingFunction(of: index)
    let scope = file.scope(function)
    // A local (`let duration = …`) or a parameter (`func f(tracks: [AVAssetTrack])`); an argument label
    // (`CMTimeRange(start: .zero, duration: duration)`) declares nothing.
    let body = file.body(of: function)
    let declared = (scope.head..<body.upperBound).contains { token in
      token != index && file.kind(token) == .identifier && file.source.sameText(token, index)
        && (file.word(token - 1) == .let || file.word(token - 1) == .var
          || (token < body.lowerBound && file.kind(token + 1) == .colon))
    }
    return !declared
  }

  /// Whether the member around `index` loads `self` before it (`try await load(.tracks)`,
  /// `loadValuesAsynchronously(forKeys:)`).
  private static func loadsSelf(before index: Int, in file: SourceFile) -> Bool {
    let function = file.enclosingFunction(of: index)
    return (file.body(of: function).lowerBound..<index).contains { token in
      ["load", "loadValuesAsynchronously", "loadTracks"].contains(file.text(token))
        && file.kind(token + 1) == .leftParen
        && (!file.isMember(token) || file.word(token - 2) == .selfKeyword)
    }
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
