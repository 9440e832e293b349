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
extension ProjectModel {
  struct AssetLoads {
    let model: ProjectModel
    /// Per caller function: for each argument name, the first token where the caller had read or loaded
    /// it, itself or through a call that reads the parameter it fills. Worked out once per caller, so a
    /// function of thousands of calls stays linear.
    private var loadedIn: [Int: [String: Int]] = [:]
    /// Per function and parameter position: whether its body reads or loads that parameter.
    private var readsParameter: [Int: [Bool]] = [:]
    /// Per function and parameter name: whether every caller had loaded the argument.
    private var answers: [Int: [String: Bool]] = [:]

    init(_ model: ProjectModel) { self.model = model }

    private static let reads: Set<Word> = [.duration, .tracks, .commonMetadata, .isPlayable, .statusOfValue]
    private static let loaderNames: Set<String> = ["load", "loadValuesAsynchronously", "loadTracks"]

    /// Whether the read whose receiver is the bare name at `receiver` (`asset` in `asset.duration`) reads
    /// a parameter of its function that every caller had already read or loaded before calling.
    mutating func isLoadedByCallers(receiver: Int, in file: SourceFile) -> Bool {
      guard file.kind(receiver) == .identifier, !file.isMember(receiver) else { return false }
      let (id, _) = model.function(at: receiver, in: file)
      guard id >= 0 else { return false }
      let name = file.text(receiver)
      if let known = answers[id]?[name] { return known }
      var answer = false
      if let position = model.functions[id].parameters.firstIndex(where: { $0.name == name }),
        !model.incoming[id].isEmpty
      {
        answer = model.incoming[id].allSatisfy { number in
          let call = model.calls[number]
          guard let argument = model.argument(position, of: number),
            argument.count == 1
          else { return false }
          let callerFile = model.files[model.functions[call.caller].file]
          guard callerFile.kind(argument.lowerBound) == .identifier,
            let loaded = loaded(in: call.caller)[callerFile.text(argument.lowerBound)]
          else { return false }
          return loaded < call.token
        }
      }
      answers[id, default: [:]][name] = answer
      return answer
    }

    /// `loadedIn` for `caller`.
    private mutating func loaded(in caller: Int) -> [String: Int] {
      if let known = loadedIn[caller] { return known }
      let function = model.functions[caller]
      let file = model.files[function.file]
      var found: [String: Int] = [:]
      func note(_ name: String, at token: Int) {
        if let earlier = found[name], earlier <= token { return }
        found[name] = token
      }
      // Reads and loads in the caller's own body: `asset.duration`, `asset.load(.tracks)`.
      for token in file.body(of: function.scope) where file.kind(token) == .identifier && file.isMember(token)
      {
        guard Self.reads.contains(file.word(token)) || Self.loaderNames.contains(file.text(token)),
          file.kind(token - 2) == .identifier, !file.isMember(token - 2)
        else { continue }
        note(file.text(token - 2), at: token)
      }
      // Calls that pass a name to a parameter their callee reads.
      for number in model.outgoing[caller] {
        let call = model.calls[number]
        let parameters = model.functions[call.callee].parameters
        for position in parameters.indices where reads(parameter: position, of: call.callee) {
          guard let argument = model.argument(position, of: number), argument.count == 1,
            file.kind(argument.lowerBound) == .identifier
          else { continue }
          note(file.text(argument.lowerBound), at: call.token)
        }
      }
      loadedIn[caller] = found
      return found
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
      readsParameter[id] = answer
      return answer[position]
    }
  }
}
