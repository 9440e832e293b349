/// `sync-load`: loading a picked item or an asset made synchronous or force-tried.
///
/// Flags `try!` on a statement that loads (`try! await item.loadTransferable(type:)`), and
/// `.wait()` on a `DispatchSemaphore` or `DispatchGroup` in a function that calls `loadTransferable`,
/// `loadObject`, `loadFileRepresentation`, `loadDataRepresentation` or `loadItem`. On code the call graph
/// puts on the main thread (see `SyncLoadRule+Blocking.swift`) it also flags the loads that block by
/// design: PhotoKit requests with `isSynchronous` options, waits for PhotoKit and AVFoundation
/// requests, `AVAssetImageGenerator.copyCGImage(at:actualTime:)`, synchronous `AVAsset` properties and
/// `PHPhotoLibrary.performChangesAndWait(_:)`.
struct SyncLoadRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "sync-load", severity: .error,
    summary:
      "Picked-item loading is force-tried or blocked on (try!, semaphore, DispatchGroup.wait); failures crash and iCloud downloads freeze the thread.",
    reports:
      "Picked-item loading force-tried or blocked on (try!, semaphore, DispatchGroup.wait), and PhotoKit or AVFoundation loads that block the main thread (isSynchronous requests, waits for them, performChangesAndWait, copyCGImage, the first synchronous read of an AVAsset (also one read straight off its initializer, AVURLAsset(url: url).duration, and of the one requestAVAsset hands its result handler, read in a main-queue block inside it; of a stored asset, the first read in the file, or in each function when a method of the type replaces it with a new asset, videoAsset = AVURLAsset(url: exportURL)), also inside members of an app-defined AVAsset extension called on an asset not yet loaded), once per blocking call with every main-thread call site; an error where the load may download from iCloud or a server, a warning where it reads a local file.",
    leavesAlone:
      "Loads no main-thread code reaches (another queue, queue.async(group:execute:), a DispatchWorkItem run elsewhere, a BlockOperation added to an OperationQueue the app made, a completion handler of an asynchronous API or of a helper that calls it there, a view controller's helper every caller runs only from such a handler or another queue, a closure an app's wrapper hands only to other queues (Async.global { … }), a delegate whose queue: is not main, Task.detached, an actor, code under an #if flag no build sets); reads of an AVAsset already loaded (an earlier read, also one each caller made before passing the asset in or one made by a function the asset was passed to before, or by a method of the type the function called before, let composition = getVideoComposition(), a stored let or private var that every initializer or member setting it read after setting or set to such an asset, also one a lazy property hands on, a var whose didSet reads each new value (outside the didSet), load(_:), loadValuesAsynchronously, a .loaded status check, a player's item other than one the function has just made, track.asset of an AVAssetTrack a caller passed in); helpers whose isSynchronous parameter no main-thread caller sets, default branches no caller reaches, overloads the labels rule out (read by Swift 2's rule in Swift 2 files); and waits for work that is not a photo or media request.",
    fix: """
      Await the async API (`try await item.loadTransferable(type:)`) or continue in the completion handler; \
      catch the error and show progress. Loading may download from iCloud and may fail, so never force-try \
      it and never block a thread — least of all the main thread — waiting for an item provider.
      """,
    reference: .documentation(
      "PhotosPickerItem.loadTransferable(type:)", "photosui/photospickeritem/loadtransferable(type:)"))

  let triggers: Set<Word> = [
    .loadTransferable, .loadObject, .loadFileRepresentation, .loadDataRepresentation,
    .loadInPlaceFileRepresentation, .loadItem, .isSynchronous, .requestImage, .requestImageData,
    .requestImageDataAndOrientation, .wait, .copyCGImage, .tracks, .duration, .commonMetadata, .isPlayable,
    .performChangesAndWait,
  ]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    let blockers =
      file.source.words.contains(.wait)
      ? DeclaredNames(
        in: file, types: [.DispatchSemaphore, .DispatchGroup],
        initializers: [.DispatchSemaphore, .DispatchGroup])
      : nil
    var findings = blockingLoads(in: file, project: project)
    // Whether a function loads picked items, per function scope: asked once per `.wait()`, and a
    // generated file of thousands of waits in one function made the scan quadratic.
    var loadsItems: [Int: Bool] = [:]
    // Per token, how many item loads come before it, made at the first `try!`; and the statement of the
    // last `try!` read. Thousands of `try!` in one statement (`[try! a(), try! b(), …]`) share its end, and
    // the loads in any statement are one subtraction: linear in the file, not in statements × `try!`s.
    var loads: TokenCounts?
    var lastStatement: Range<Int>?
    for index in 0..<file.count {
      if file.word(index) == .try, file.word(index + 1) == .opBang,
        file.tokens[index + 1].start == file.tokens[index].end
      {
        let counts = loads ?? TokenCounts(file) { file.word($0).isItemLoad }
        loads = counts
        let end = statementEnd(file, from: index, last: &lastStatement)
        if counts.any(in: index..<end) {
          findings.append(file.finding(descriptor, at: index))
        }
      } else if file.word(index) == .wait, file.isMember(index), file.kind(index + 1) == .leftParen,
        let blockers
      {
        let receiver = file.postfixStart(endingAt: index)..<index
        let blocks =
          file.contains([.DispatchSemaphore, .DispatchGroup], in: receiver)
          || (file.kind(index - 2) == .identifier && blockers.refers(index - 2))
        let function = file.enclosingFunction(of: index)
        let loads =
          loadsItems[function]
          ?? file.body(of: function).contains(where: { file.word($0).isItemLoad })
        loadsItems[function] = loads
        if blocks, loads {
          findings.append(file.finding(descriptor, at: index))
        }
      }
    }
    return findings
  }

  /// The end of ``SourceFile/statement(from:)`` for the `try` at `index`, reusing `last`, the statement of
  /// the previous `try!`, when `index` lies in it at its own bracket level: the statement's walk passed
  /// through `index` and goes on from there exactly as a walk from `index` would, to the same end.
  private func statementEnd(_ file: SourceFile, from index: Int, last: inout Range<Int>?) -> Int {
    if let last, last.contains(index),
      file.syntax.enclosingOpen[index] == file.syntax.enclosingOpen[last.lowerBound]
    {
      return last.upperBound
    }
    let statement = file.statement(from: index)
    last = statement
    return statement.upperBound
  }
}
