/// Loaded-state facts that cross calls: an `AVAsset` a function receives as a parameter is already loaded
/// when every caller read or loaded it before the call — itself (`asset.duration`, `asset.load(.tracks)`),
/// or by passing it first to another function that reads that parameter:
///
///     func wire(_ asset: AVAsset) {
///       wireVideo(asset)  // reads asset.tracks(withMediaType: .video): the first read, which blocks
///       wireAudio(asset)  // reads asset.tracks(withMediaType: .audio): the asset is loaded by then
///     }
///
/// Only the first synchronous read of an asset can block (the asset keeps what it loaded), so the read in
/// `wireAudio` is harmless. A function with no caller, or with one caller that passes an asset nothing read
/// first, keeps its read.
///
/// The same holds through a type's stored `let`: an editor whose initializer reads the asset it stores
/// (`asset = AVAsset(url: url)`, then `asset.duration`) hands a loaded asset to every other member, and to
/// the views its `lazy` properties make with it (`PlayerToolbar(asset: asset)`), whose own stored `let`
/// then holds a loaded asset too.
extension ProjectModel {
  struct AssetLoads {
    let model: ProjectModel
    /// Per caller function: for each argument name, the first call where the caller passed it to a
    /// parameter the callee reads (see ``loaded(_:in:)`` for its own reads). Worked out once per caller, so
    /// a function of thousands of calls stays linear.
    private var loadedIn: [Int: [String: Int]] = [:]
    /// Per file: each name's own reads and loads (`asset.duration`, `asset.load(.tracks)`) by token, in
    /// order, over the whole file. A function's are the slice inside its body (nested functions included,
    /// as its body scan always counted them), found by binary search, so nested functions are not each
    /// rescanned: linear in the file.
    private var readsInFile: [Int: [String: [Int]]] = [:]
    /// Per file: each `name = track.asset` by the name, in token order (see ``isTracksAsset(_:_:of:)``).
    private var trackAssetsInFile: [Int: [String: [Int]]] = [:]
    /// Per function and parameter position: whether its body reads or loads that parameter.
    private var readsParameter: [Int: [Bool]] = [:]
    /// Per function and parameter name: whether every caller had loaded the argument.
    private var answers: [Int: [String: Bool]] = [:]
    /// Per member of an `AVAsset` extension: the calls that may find its asset unloaded.
    private var selfLoads: [Int: Set<Int>] = [:]
    /// Per type name and stored property: whether it is loaded wherever a member reads it.
    var loadedProperties: [String: [String: Bool]] = [:]
    /// How many ``isLoaded(property:of:)`` questions are open on the stack: a chain of types that hand a
    /// stored asset to the next would otherwise recurse once per type.
    var openPropertyQuestions = 0
    /// Per function and name: ``isLoadedProperty(_:readIn:)``, asked once, so a member of thousands of
    /// reads does not scan its body for a shadowing local once per read.
    var propertyReads: [Int: [String: Bool]] = [:]
    /// Per function: the names it declares as locals (`let`/`var`), found in one pass.
    var localNames: [Int: Set<String>] = [:]
    /// Per member: each name's assignments (token and value) and its last read or load
    /// (`self.name.duration`, `name?.load(.tracks)`), found in one pass, so a type of thousands of
    /// stored assets stays linear.
    var memberUses: [Int: MemberUses] = [:]
    /// Per type name: its stored `let`s and the `private` stored `var`s that start empty or observed,
    /// from every type scope that holds its members.
    var storedKinds: [String: [String: StoredKind]] = [:]
    /// Per type name: for each name, the members that assign it.
    var assignerIndex: [String: [String: [Int]]] = [:]
    /// Calls in stored properties' initial values by callee: built once, on first use.
    var initialValueIndex: [Int: [Int]]?

    init(_ model: ProjectModel) { self.model = model }

    static let reads: Set<Word> = [.duration, .tracks, .commonMetadata, .isPlayable, .statusOfValue]
    static let loaderNames: Set<String> = ["load", "loadValuesAsynchronously", "loadTracks"]

    /// Whether the read whose receiver is the bare name at `receiver` (`asset` in `asset.duration`) reads
    /// a parameter of its function that every caller had already read or loaded before calling.
    mutating func isLoadedByCallers(receiver: Int, in file: SourceFile) -> Bool {
      guard file.kind(receiver) == .identifier, !file.isMember(receiver) else { return false }
      let (id, _) = model.function(at: receiver, in: file)
      guard id >= 0 else { return false }
      return everyCallerLoaded(id, parameter: file.text(receiver))
    }

    /// Whether every call of function `id` passes, for parameter `name`, an asset its caller had read or
    /// loaded first, or a stored `let` of the caller's type that is loaded (``isLoaded(property:of:)``);
    /// calls in a `lazy` property's initial value count, since it runs after the initializer.
    mutating func everyCallerLoaded(_ id: Int, parameter name: String) -> Bool {
      if let known = answers[id]?[name] { return known }
      // A cycle of calls and stored values proves nothing: asked again while it is worked out, no.
      answers[id, default: [:]][name] = false
      var answer = false
      let initial = callsInInitialValues(of: id)
      if let position = model.functions[id].parameters.firstIndex(where: { $0.name == name }),
        !model.incoming[id].isEmpty || !initial.isEmpty
      {
        answer =
          model.incoming[id].allSatisfy { number in
            let call = model.calls[number]
            guard let argument = model.argument(position, of: number),
              argument.count == 1
            else { return false }
            let callerFile = model.files[model.functions[call.caller].file]
            guard callerFile.kind(argument.lowerBound) == .identifier else { return false }
            let text = callerFile.text(argument.lowerBound)
            if let loaded = loaded(text, in: call.caller), loaded < call.token { return true }
            // Not in an observer (`didSet`), whose own read of the new value may be the first.
            guard !Self.inObserver(argument.lowerBound, callerFile) else { return false }
            return isLoadedProperty(text, readIn: call.caller)
          } && initial.allSatisfy { isLoaded(argument: position, ofInitialValueCall: $0, callee: id) }
      }
      answers[id, default: [:]][name] = answer
      return answer
    }

    /// Whether `videoTrack.asset` at `receiver` (the `asset` token) is the asset of an `AVAssetTrack`
    /// parameter of its function: a track is had only by reading its asset's tracks, so that asset is
    /// loaded (`videoTrack.asset!.duration` in a helper the track is handed to).
    func isAssetOfTrackParameter(receiver: Int, in file: SourceFile) -> Bool {
      guard file.kind(receiver) == .identifier, file.isMember(receiver), file.text(receiver) == "asset" else {
        return false
      }
      var owner = receiver - 2
      if file.word(owner) == .opQuestion || file.word(owner) == .opBang { owner -= 1 }
      guard file.kind(owner) == .identifier, !file.isMember(owner) else { return false }
      let (id, _) = model.function(at: receiver, in: file)
      guard id >= 0 else { return false }
      let track = file.text(owner)
      return model.functions[id].parameters.contains {
        $0.name == track && file.kind($0.nameToken + 1) == .colon
          && file.text($0.nameToken + 2) == "AVAssetTrack"
      }
    }

    /// Whether `token` is `asset` in `name = other.asset`, whatever `other` is.
    private static func isTracksAssetShape(_ file: SourceFile, _ token: Int) -> Bool {
      let range = file.tokens[token]
      return range.end - range.start == 5 && file.kind(token) == .identifier && file.isMember(token)
        && file.text(token) == "asset" && token >= 4 && file.kind(token - 2) == .identifier
        && !file.isMember(token - 2) && file.word(token - 3) == .opAssign
        && file.kind(token - 4) == .identifier
    }

    /// Whether the function around the read whose receiver is the bare name at `receiver` had already
    /// passed that name to a function that reads or loads the parameter it fills, before the read:
    ///
    ///     asset = AVURLAsset(url: url)
    ///     player = VideoViewController(asset: asset)  // its init reads asset.videoOrientation: the first read
    ///     maxDuration = asset.duration                 // the asset is loaded by then
    mutating func isLoadedBefore(receiver: Int, in file: SourceFile) -> Bool {
      guard file.kind(receiver) == .identifier, !file.isMember(receiver) else { return false }
      let (id, _) = model.function(at: receiver, in: file)
      guard id >= 0, let loaded = loaded(file.text(receiver), in: id) else { return false }
      return loaded < receiver
    }

    /// The calls of the function around `index` (a member of an `AVAsset` extension) whose caller had not
    /// read or loaded the asset it calls it on (`asset` in `asset.isPortrait`) before the call: only those
    /// can find the asset unloaded. Empty when nothing calls the member.
    mutating func callsNotLoadingReceiver(of index: Int, in file: SourceFile) -> Set<Int> {
      let (id, _) = model.function(at: index, in: file)
      guard id >= 0 else { return [] }
      var visiting: Set<Int> = []
      return callsNotLoadingSelf(of: id, visiting: &visiting)
    }

    /// ``callsNotLoadingReceiver(of:in:)`` for function `id`. A call from another member of the extension
    /// (`isPortrait ? … : naturalSize`) is on the same asset: loaded when that member read it first, or
    /// when every call of that member is itself on a loaded asset.
    private mutating func callsNotLoadingSelf(of id: Int, visiting: inout Set<Int>) -> Set<Int> {
      if let known = selfLoads[id] { return known }
      guard visiting.insert(id).inserted else { return [] }
      var unloaded: Set<Int> = []
      for number in model.incoming[id] {
        let call = model.calls[number]
        let callerFile = model.files[model.functions[call.caller].file]
        var receiver = call.token - 2
        if callerFile.word(receiver) == .opQuestion || callerFile.word(receiver) == .opBang { receiver -= 1 }
        let onSelf = !callerFile.isMember(call.token) || callerFile.word(receiver) == .selfKeyword
        if onSelf {
          if readsSelf(in: call.caller, before: call.token) { continue }
          if Self.extended.contains(model.functions[call.caller].typeName ?? ""),
            !model.incoming[call.caller].isEmpty,
            callsNotLoadingSelf(of: call.caller, visiting: &visiting).isEmpty
          {
            continue
          }
        } else if Self.isPlayersAsset(callerFile, receiver: receiver) {
          // `player.currentItem?.asset.videoSize`, `item.asset.isPortrait`: a player loaded it to play it.
          continue
        } else if callerFile.kind(receiver) == .identifier, !callerFile.isMember(receiver) {
          // `asset.isPortrait` after `asset.duration` or `try await asset.load(.tracks)` in the caller,
          // or in every caller of the caller that passed the asset in.
          if let loaded = loaded(callerFile.text(receiver), in: call.caller), loaded < call.token { continue }
          if isLoadedByCallers(receiver: receiver, in: callerFile) { continue }
        }
        unloaded.insert(number)
      }
      visiting.remove(id)
      selfLoads[id] = unloaded
      return unloaded
    }

    private static let extended: Set<String> = ["AVAsset", "AVURLAsset"]

    /// Whether the receiver ending at `receiver` is the asset of a player's item (`player.currentItem?.asset`,
    /// `item.asset`), which the player loaded before it could play.
    private static func isPlayersAsset(_ file: SourceFile, receiver: Int) -> Bool {
      guard file.kind(receiver) == .identifier, file.text(receiver) == "asset", file.isMember(receiver) else {
        return false
      }
      var owner = receiver - 2
      if file.word(owner) == .opQuestion || file.word(owner) == .opBang { owner -= 1 }
      guard file.kind(owner) == .identifier else { return false }
      let name = ASCII.lowercased(file.text(owner))
      return ASCII.contains(name, "item") || ASCII.contains(name, "player")
    }

    /// Whether a member of an `AVAsset` extension reads or loads its own asset before `token`: a bare or
    /// `self.` read (`tracks(withMediaType:)`, `duration`), or a call to another member of an extension of
    /// the asset.
    func readsSelf(in caller: Int, before token: Int) -> Bool {
      let function = model.functions[caller]
      guard Self.extended.contains(function.typeName ?? "") else { return false }
      let file = model.files[function.file]
      let body = file.body(of: function.scope)
      for index in body.lowerBound..<min(token, body.upperBound) where file.kind(index) == .identifier {
        // Not an argument label (`CMTimeRange(start: .zero, duration: duration)`).
        // Not an argument label (`CMTimeRange(start: .zero, duration: duration)`) nor a local's name
        // (`let tracks = self.tracks(withMediaType: .video)`).
        let bare =
          (!file.isMember(index) || file.word(index - 2) == .selfKeyword) && file.kind(index + 1) != .colon
          && file.word(index - 1) != .let && file.word(index - 1) != .var
        guard bare, Self.reads.contains(file.word(index)) || Self.loaderNames.contains(file.text(index))
        else {
          continue
        }
        return true
      }
      return model.outgoing[caller].contains { number in
        let call = model.calls[number]
        return call.token < token
          && Self.extended.contains(model.functions[call.callee].typeName ?? "")
          && (!file.isMember(call.token) || file.word(call.token - 2) == .selfKeyword)
      }
    }

    /// The first token where `caller` had read or loaded `name` (``loadedIn``): its own reads and loads,
    /// a `let name = track.asset` of an `AVAssetTrack` parameter, or a call that reads the parameter the
    /// name fills.
    mutating func loaded(_ name: String, in caller: Int) -> Int? {
      let function = model.functions[caller]
      let file = model.files[function.file]
      let body = file.body(of: function.scope)
      var first = calledWith(in: caller)[name]
      func note(_ token: Int) { if first.map({ token < $0 }) ?? true { first = token } }
      if let tokens = fileReads(function.file)[name], let token = Self.first(in: tokens, from: body) {
        note(token)
      }
      // `let asset = track.asset` of an `AVAssetTrack` parameter: a track is had only by reading its
      // asset's tracks (`tracks`, `tracks(withMediaType:)`, `loadTracks`), so that asset is loaded.
      if let tokens = trackAssets(function.file)[name] {
        var index = tokens.firstPosition(atOrAfter: body.lowerBound)
        while index < tokens.count, tokens[index] < body.upperBound {
          if Self.isTracksAsset(file, tokens[index], of: function) {
            note(tokens[index])
            break
          }
          index += 1
        }
      }
      return first
    }

    /// Per caller: the names its calls pass to a parameter their callee reads, at the first such call.
    private mutating func calledWith(in caller: Int) -> [String: Int] {
      if let known = loadedIn[caller] { return known }
      let file = model.files[model.functions[caller].file]
      var found: [String: Int] = [:]
      for number in model.outgoing[caller] {
        let call = model.calls[number]
        let parameters = model.functions[call.callee].parameters
        for position in parameters.indices where reads(parameter: position, of: call.callee) {
          guard let argument = model.argument(position, of: number), argument.count == 1,
            file.kind(argument.lowerBound) == .identifier
          else { continue }
          let name = file.text(argument.lowerBound)
          if let earlier = found[name], earlier <= call.token { continue }
          found[name] = call.token
        }
      }
      loadedIn[caller] = found
      return found
    }

    /// ``readsInFile`` for file `number`, built in one pass.
    private mutating func fileReads(_ number: Int) -> [String: [Int]] {
      if let known = readsInFile[number] { return known }
      let file = model.files[number]
      var found: [String: [Int]] = [:]
      for token in 0..<file.count where file.kind(token) == .identifier && file.isMember(token) {
        guard Self.reads.contains(file.word(token)) || Self.loaderNames.contains(file.text(token)),
          file.kind(token - 2) == .identifier, !file.isMember(token - 2)
        else { continue }
        found[file.text(token - 2), default: []].append(token)
      }
      readsInFile[number] = found
      return found
    }

    /// ``trackAssetsInFile`` for file `number`, built in one pass.
    private mutating func trackAssets(_ number: Int) -> [String: [Int]] {
      if let known = trackAssetsInFile[number] { return known }
      let file = model.files[number]
      var found: [String: [Int]] = [:]
      for token in 4..<max(4, file.count) where Self.isTracksAssetShape(file, token) {
        found[file.text(token - 4), default: []].append(token)
      }
      trackAssetsInFile[number] = found
      return found
    }

    /// The first of sorted `tokens` inside `range`, if any.
    private static func first(in tokens: [Int], from range: Range<Int>) -> Int? {
      let index = tokens.firstPosition(atOrAfter: range.lowerBound)
      return index < tokens.count && tokens[index] < range.upperBound ? tokens[index] : nil
    }

    /// Whether `token` is `asset` in `name = track.asset` (`let`, `var`, `guard let`, `if let`), where
    /// `track` is a parameter of `function` declared `AVAssetTrack`.
    private static func isTracksAsset(_ file: SourceFile, _ token: Int, of function: ProjectModel.Function)
      -> Bool
    {
      guard isTracksAssetShape(file, token) else { return false }
      let track = file.text(token - 2)
      return function.parameters.contains {
        $0.name == track && file.kind($0.nameToken + 1) == .colon
          && file.text($0.nameToken + 2) == "AVAssetTrack"
      }
    }

    /// Whether function `id` reads or loads its parameter at `position` (`asset.tracks(…)`).
    private mutating func reads(parameter position: Int, of id: Int) -> Bool {
      if let known = readsParameter[id] { return known[position] }
      let function = model.functions[id]
      let file = model.files[function.file]
      let names = function.parameters.map(\.name)
      var answer = Array(repeating: false, count: names.count)
      for token in file.body(of: function.scope) where file.kind(token) == .identifier && file.isMember(token)
      {
        guard Self.reads.contains(file.word(token)) || Self.loaderNames.contains(file.text(token)),
          file.kind(token - 2) == .identifier, !file.isMember(token - 2),
          let index = names.firstIndex(of: file.text(token - 2))
        else { continue }
        answer[index] = true
      }
      // `asset.videoOrientation`, a member of an `AVAsset` extension that reads the asset it is called on.
      for number in model.outgoing[id] {
        let call = model.calls[number]
        guard Self.extended.contains(model.functions[call.callee].typeName ?? ""), file.isMember(call.token)
        else { continue }
        var receiver = call.token - 2
        if file.word(receiver) == .opQuestion || file.word(receiver) == .opBang { receiver -= 1 }
        guard file.kind(receiver) == .identifier, !file.isMember(receiver),
          let index = names.firstIndex(of: file.text(receiver)), !answer[index],
          readsSelf(in: call.callee, before: Int.max)
        else { continue }
        answer[index] = true
      }
      readsParameter[id] = answer
      return answer[position]
    }
  }
}
