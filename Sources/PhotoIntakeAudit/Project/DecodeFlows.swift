/// Full-size decodes whose image reaches the data a list or grid draws through code the per-function rules
/// do not follow (issue 25: "a full-size decode in a helper that a cell or SwiftUI grid calls through a
/// model"): handed to a completion handler (`handler(UIImage(data: data)!)`, also through further functions
/// that forward it), returned by an `async` function (`return image`, `continuation.resume(returning:)`), or
/// published by a Combine stage (`.map { UIImage(data: $0.data) }`), and then stored by the caller's closure,
/// `await` or `sink`/`assign` into an array or property that list or grid cells read
/// (``ProjectFacts/listDataNames``).
///
/// The following is bounded: at most ``maximumDepth`` functions between the decode and the store, a few
/// origins per producing function and a few call sites per origin, and each round visits every token once,
/// so hostile input stays linear. A closure, function or chain that downsamples (`preparingThumbnail`, an
/// ImageIO thumbnail) on the way ends the flow: what it stores is no full-size image.
struct DecodeFlows: Sendable {
  /// For each file path, the decodes (by token index) whose image reaches list data, with the steps that
  /// store it there.
  private(set) var reaching: [String: [Int: [ContextStep]]] = [:]

  static let maximumDepth = 4
  private static let originsKept = 8
  private static let stepsKept = 8
  /// Decodes examined per file and producer calls followed per round: each costs up to a function body's
  /// length, so a file of thousands of them stays linear.
  private static let seedsPerFile = 64
  private static let callsPerRound = 256
  /// How far (in tokens) a name bound to an image is followed, and a local declaration looked for.
  private static let window = 4_096

  /// How a function hands out the image it decodes.
  private enum Kind { case completion, async, returns, publisher }

  private struct Origin: Hashable {
    var file: Int
    var token: Int
  }

  private struct Producer {
    var kind: Kind
    /// The origins by the external labels of the declaration that hands them out, so a call reaches only
    /// the functions of its name it can call (`imageManager.requestImage(for:targetSize:…)` is no call of
    /// the app's `requestImage(handler:)`).
    var entries: [[String]: [Origin]] = [:]
    /// For each label list, how many leading parameters a call must pass (those without a default value
    /// that a trailing closure cannot fill).
    var required: [[String]: Int] = [:]

    /// The origins a call with the argument labels `call` can reach.
    func origins(for call: [String]) -> [Origin] {
      var result: [Origin] = []
      for (labels, origins) in entries
      where call.count <= labels.count && call.count >= required[labels, default: 0]
        && Array(labels.prefix(call.count)) == call
      {
        result += origins
      }
      return result
    }
  }

  init(files: [SourceFile], listDataNames: Set<String>) {
    guard !listDataNames.isEmpty else { return }
    var flows = Builder(files: files, listDataNames: listDataNames)
    flows.run()
    reaching = flows.reaching
  }

  /// The steps for the decode at `index` of `path`, if its image reaches list data.
  func steps(path: String, index: Int) -> [ContextStep]? { reaching[path]?[index] }

  private struct Builder {
    let files: [SourceFile]
    let listDataNames: Set<String>
    var reaching: [String: [Int: [ContextStep]]] = [:]
    var producers: [String: Producer] = [:]
    var callsLeft = DecodeFlows.callsPerRound
    /// Whether a name is declared in a body, by file, body start and name: asked once each.
    var locals: [String: Bool] = [:]
    var downsampled: [String: Bool] = [:]

    init(files: [SourceFile], listDataNames: Set<String>) {
      self.files = files
      self.listDataNames = listDataNames
    }

    mutating func run() {
      var frontier: [String: Producer] = [:]
      for (number, file) in files.enumerated()
      where file.source.words.containsAny([.UIImage, .copyCGImage, .CGImageSourceCreateImageAtIndex]) {
        seed(file, number, into: &frontier)
      }
      var depth = 0
      while !frontier.isEmpty, depth < DecodeFlows.maximumDepth {
        for (name, producer) in frontier where producers[name] == nil { producers[name] = producer }
        var next: [String: Producer] = [:]
        callsLeft = DecodeFlows.callsPerRound
        // The frontier's names by hash: a call of another name is passed over without making its text.
        let names = Set(frontier.keys.map { WordTable.hash($0) })
        for (number, file) in files.enumerated() where callsLeft > 0 {
          follow(file, number, frontier: frontier, names: names, into: &next)
        }
        frontier = next.filter { producers[$0.key] == nil }
        depth += 1
      }
    }

    // MARK: Seeds: functions that decode and hand the image out

    private mutating func seed(_ file: SourceFile, _ number: Int, into frontier: inout [String: Producer]) {
      var seedsLeft = DecodeFlows.seedsPerFile
      for index in 0..<file.count where FullDecodeThumbnailRule.isFullDecode(file, index) {
        guard seedsLeft > 0 else { return }
        seedsLeft -= 1
        let function = file.enclosingFunction(of: index)
        guard function > 0, file.scope(function).kind == .function else { continue }
        guard !downsamples(file, file.body(of: function)) else { continue }
        let origin = Origin(file: number, token: index)
        // A Combine stage: `.map { UIImage(data: $0.data) }`.
        if let closure = file.syntax.enclosing(index, [.closure, .function, .accessor]),
          file.scope(closure).kind == .closure, file.scope(closure).callee >= 0,
          Self.mapStages.contains(file.text(file.scope(closure).callee))
        {
          let end = file.scope(closure).close
          let chain = file.postfixStart(endingAt: file.scope(closure).callee)
          switch publisherEnd(file, after: end, chainStart: chain, function: function) {
          case .stored(let names, let at):
            record(names, origins: [origin], file: file, at: at, through: "a Combine stage")
          case .sink(let brace, let at):
            followClosure(
              file, brace: brace, origins: [origin], through: "a Combine stage", at: at, next: &frontier)
          case .returned:
            add(file, function: function, .publisher, [origin], to: &frontier)
          case .none: break
          }
          continue
        }
        let body = file.body(of: function)
        var values = [index]
        if file.word(index - 1) == .opAssign, file.kind(index - 2) == .identifier {
          let bound = index - 2
          for use in (index + 1)..<min(body.upperBound, index + DecodeFlows.window)
          where file.kind(use) == .identifier && !file.isMember(use) && file.source.sameText(use, bound) {
            values.append(use)
            if values.count >= 16 { break }
          }
        }
        // A local collection the image goes into (`result.append(image)` … `return result`): its later
        // uses hand the images out too. One collection, read within the window.
        var stored: (String, onSelf: Bool)? = nil
        for value in values where stored == nil { stored = storedInto(file, value) }
        if let (target, onSelf) = stored, !onSelf,
          declaresLocally(file, target, in: max(body.lowerBound, index - DecodeFlows.window)..<index)
        {
          for use in index..<min(body.upperBound, index + DecodeFlows.window)
          where file.kind(use) == .identifier && !file.isMember(use) && file.text(use) == target {
            values.append(use)
            if values.count >= 32 { break }
          }
        }
        let closures = closureParameters(file, function: function)
        let returning = returnKind(file, function: function)
        for value in values.prefix(32) {
          if !closures.isEmpty, calledWith(file, value, callees: closures) {
            add(file, function: function, .completion, [origin], to: &frontier)
            break
          }
          if let returning, isReturned(file, value) {
            add(file, function: function, returning, [origin], to: &frontier)
            break
          }
        }
      }
    }

    private static let mapStages: Set<String> = ["map", "compactMap", "tryMap", "flatMap"]

    /// Makes the function scope `function` of `file` a producer of the images of `origins`.
    private func add(
      _ file: SourceFile, function: Int, _ kind: Kind, _ origins: [Origin],
      to frontier: inout [String: Producer]
    ) {
      guard function > 0, file.scope(function).kind == .function, let name = file.name(of: function) else {
        return
      }
      let scope = file.scope(function)
      let paren = (scope.head..<scope.open).first(where: { file.kind($0) == .leftParen })
      let labels = paren.map { ListCall.parameterLabels(file, paren: $0) } ?? []
      var producer = frontier[name] ?? Producer(kind: kind)
      if let paren, let close = file.match(paren) {
        // Parameters up to the last one without a default value or function type.
        var count = 0
        var position = 0
        var start = paren + 1
        while start < close {
          let end = file.endOfArgument(from: start, close: close)
          position += 1
          if !(start..<end).contains(where: { file.word($0) == .opAssign || file.word($0) == .opArrow }) {
            count = position
          }
          start = end + 1
        }
        producer.required[labels] = count
      }
      guard producer.entries[labels] != nil || producer.entries.count < 4 else { return }
      var kept = producer.entries[labels] ?? []
      for origin in origins where kept.count < DecodeFlows.originsKept && !kept.contains(origin) {
        kept.append(origin)
      }
      producer.entries[labels] = kept
      frontier[name] = producer
    }

    // MARK: Following calls of producers

    private mutating func follow(
      _ file: SourceFile, _ number: Int, frontier: [String: Producer], names: Set<UInt64>,
      into next: inout [String: Producer]
    ) {
      for index in 0..<file.count
      where file.kind(index) == .identifier
        && (file.kind(index + 1) == .leftParen || file.kind(index + 1) == .leftBrace)
        && file.word(index - 1) != .func
      {
        guard names.contains(ProjectModel.hash(file, index)), let producer = frontier[file.text(index)] else {
          continue
        }
        let origins = producer.origins(
          for: file.kind(index + 1) == .leftParen ? ListCall.labels(file, paren: index + 1) : [])
        guard !origins.isEmpty, callsLeft > 0 else { continue }
        callsLeft -= 1
        let through = file.text(index)
        switch producer.kind {
        case .completion:
          for brace in closuresPassed(file, call: index) {
            followClosure(file, brace: brace, origins: origins, through: through, at: index, next: &next)
          }
        case .async, .returns:
          followAwait(
            file, call: index, awaited: producer.kind == .async, origins: origins, through: through,
            next: &next)
        case .publisher:
          let end = file.kind(index + 1) == .leftParen ? file.match(index + 1) : nil
          guard let end else { continue }
          let function = file.enclosingFunction(of: index)
          let chain = file.postfixStart(endingAt: index)
          switch publisherEnd(file, after: end, chainStart: chain, function: function) {
          case .stored(let names, let at):
            record(names, origins: origins, file: file, at: at, through: through)
          case .sink(let brace, let at):
            followClosure(file, brace: brace, origins: origins, through: through, at: at, next: &next)
          case .returned:
            add(file, function: function, .publisher, origins, to: &next)
          case .none: break
          }
        }
      }
    }

    /// The closures given to the call at `call`: a trailing closure, or closure arguments.
    private func closuresPassed(_ file: SourceFile, call: Int) -> [Int] {
      if file.kind(call + 1) == .leftBrace { return [call + 1] }
      guard let close = file.match(call + 1) else { return [] }
      var braces: [Int] = []
      if file.kind(close + 1) == .leftBrace { braces.append(close + 1) }
      var start = call + 2
      while start < close, braces.count < 4 {
        let end = file.endOfArgument(from: start, close: close)
        let first = file.kind(start) == .identifier && file.kind(start + 1) == .colon ? start + 2 : start
        if file.kind(first) == .leftBrace { braces.append(first) }
        start = end + 1
      }
      return braces
    }

    /// Follows the image a closure receives (its parameters, or `$0`) into stores and forwarded completions.
    private mutating func followClosure(
      _ file: SourceFile, brace: Int, origins: [Origin], through: String, at call: Int,
      next: inout [String: Producer]
    ) {
      guard let closure = file.scopeOpened(at: brace) else { return }
      let body = file.body(of: closure)
      if downsamples(file, body) { return }
      let parameters = file.scope(closure).parameters
      var uses: [Int] = []
      for use in body where file.kind(use) == .identifier && !file.isMember(use) {
        if parameters.isEmpty
          ? file.text(use) == "$0" : parameters.contains(where: { file.source.sameText($0, use) })
        {
          uses.append(use)
          if uses.count >= 32 { break }
        }
      }
      followUses(file, uses, body: body, origins: origins, through: through, at: call, next: &next)
    }

    /// Follows the result of the call at `call` (awaited, when `isAsync`): a name bound to it (`let image = try await
    /// load()`, `async let image = load()`), a task group it feeds (`for await image in group`), or a
    /// store or `return` of the call itself.
    private mutating func followAwait(
      _ file: SourceFile, call: Int, awaited isAsync: Bool, origins: [Origin], through: String,
      next: inout [String: Producer]
    ) {
      var start = file.postfixStart(endingAt: call)
      var awaited = !isAsync
      while [.try, .await, .opQuestion, .opBang].contains(file.word(start - 1)) {
        awaited = awaited || file.word(start - 1) == .await
        start -= 1
      }
      let isAsyncLet =
        file.word(start - 1) == .opAssign && file.word(start - 3) == .let
        && file.word(start - 4) == .async
      guard awaited || isAsyncLet else { return }
      let scope = file.syntax.enclosing(call, [.closure, .function, .accessor]) ?? 0
      guard scope > 0 else { return }
      let body = file.body(of: scope)
      if downsamples(file, body) { return }
      var uses = [start]
      // `group.addTask { await load() }`: the group's results, `for await image in group`.
      // (A closure given to no call, `#Preview { … }` or `let work = { … }`, has no callee.)
      if file.scope(scope).kind == .closure, file.scope(scope).callee >= 0,
        file.text(file.scope(scope).callee) == "addTask", file.kind(file.scope(scope).callee - 1) == .dot
      {
        let group = file.scope(scope).callee - 2
        let outer = file.syntax.enclosing(group, [.function, .accessor, .closure]) ?? 0
        let near = file.body(of: outer).clamped(to: group..<(group + DecodeFlows.window))
        for token in near
        where file.word(token) == .in && file.kind(token + 1) == .identifier
          && file.source.sameText(token + 1, group) && file.kind(token - 1) == .identifier
        {
          for use in (token + 1)..<min(file.body(of: outer).upperBound, token + DecodeFlows.window)
          where file.kind(use) == .identifier && !file.isMember(use)
            && file.source.sameText(use, token - 1)
          {
            uses.append(use)
            if uses.count >= 32 { break }
          }
        }
        followUses(
          file, uses, body: file.body(of: outer), origins: origins, through: through, at: call, next: &next)
        return
      }
      followUses(file, uses, body: body, origins: origins, through: through, at: call, next: &next)
    }

    /// Where the values at `uses` go: stores into list data are recorded; a completion of the enclosing
    /// function called with one, or a `return` of one from an `async` function, makes that function a
    /// producer; a name or local collection bound to one is followed once.
    private mutating func followUses(
      _ file: SourceFile, _ initial: [Int], body: Range<Int>, origins: [Origin], through: String,
      at call: Int,
      next: inout [String: Producer]
    ) {
      let function = file.enclosingFunction(of: call)
      let closures = function > 0 ? closureParameters(file, function: function) : []
      let returning = function > 0 ? returnKind(file, function: function) : nil
      var uses = initial
      var followed: Set<String> = []
      var cursor = 0
      while cursor < uses.count, cursor < 64 {
        let use = uses[cursor]
        cursor += 1
        if let (target, onSelf) = storedInto(file, use) {
          let key = "\(file.path)#\(body.lowerBound)#\(target)"
          // `self.images.append(contentsOf: images)` stores into the property, whatever locals share its name.
          let isLocal =
            !onSelf
            && (locals[key]
              ?? declaresLocally(file, target, in: max(body.lowerBound, use - DecodeFlows.window)..<use))
          if !onSelf { locals[key] = isLocal }
          if isLocal {
            // A local (`images.append(image)` … `return images`), followed once.
            guard followed.count < 4, !followed.contains(target) else { continue }
            followed.insert(target)
            for later in use..<min(body.upperBound, use + DecodeFlows.window)
            where file.kind(later) == .identifier && !file.isMember(later) && file.text(later) == target {
              uses.append(later)
              if uses.count >= 64 { break }
            }
          } else if listDataNames.contains(target) {
            record([target], origins: origins, file: file, at: call, through: through)
          }
          continue
        }
        if let bound = boundName(file, use), followed.count < 4, !followed.contains(file.text(bound)) {
          followed.insert(file.text(bound))
          for later in (use + 1)..<min(body.upperBound, use + DecodeFlows.window)
          where file.kind(later) == .identifier && !file.isMember(later) && file.source.sameText(later, bound)
          {
            uses.append(later)
            if uses.count >= 64 { break }
          }
          continue
        }
        if !closures.isEmpty, calledWith(file, use, callees: closures) {
          add(file, function: function, .completion, origins, to: &next)
        } else if let returning, isReturned(file, use) {
          add(file, function: function, returning, origins, to: &next)
        }
      }
    }

    /// Whether `body` makes a thumbnail, asked once per body.
    private mutating func downsamples(_ file: SourceFile, _ body: Range<Int>) -> Bool {
      let key = "\(file.path)#\(body.lowerBound)"
      if let known = downsampled[key] { return known }
      let found = file.contains(FullDecodeThumbnailRule.downsampling, in: body)
      downsampled[key] = found
      return found
    }

    private mutating func record(
      _ names: [String], origins: [Origin], file: SourceFile, at call: Int, through: String
    ) {
      guard let target = names.first(where: { listDataNames.contains($0) }) else { return }
      let (line, column) = file.source.location(ofByte: file.tokens[call].start)
      let function = file.enclosingFunction(of: call)
      var display = file.name(of: function) ?? "top-level code"
      if let type = file.enclosingType(of: call).flatMap({ file.name(of: $0) }) {
        display = type + "." + display
      }
      let step = ContextStep(
        function: display,
        reason: "stores the image from \(through) into \(target), which list or grid cells draw",
        file: file.path, line: line, column: column)
      for origin in origins {
        let path = files[origin.file].path
        var steps = reaching[path, default: [:]][origin.token, default: []]
        guard steps.count < DecodeFlows.stepsKept, !steps.contains(step) else { continue }
        steps.append(step)
        reaching[path, default: [:]][origin.token] = steps
      }
    }

    // MARK: Expressions

    /// How the scope `function` hands out a value it returns: `.async` for an `async` function, `.returns`
    /// for one declared to return an image (`func image(from data: Data) -> UIImage?`), `nil` otherwise.
    private func returnKind(_ file: SourceFile, function: Int) -> Kind? {
      let head = file.scope(function).head..<file.scope(function).open
      if file.scope(function).kind == .function, file.contains([.async], in: head) { return .async }
      let returnsImage =
        head.first(where: { file.word($0) == .opArrow }).map {
          file.contains([.UIImage, .CGImage], in: $0..<head.upperBound)
        } ?? false
      return returnsImage ? .returns : nil
    }

    /// The names of a function's closure-typed parameters (`handler` in `handler: @escaping (UIImage) -> ()`).
    private func closureParameters(_ file: SourceFile, function: Int) -> [Int] {
      let scope = file.scope(function)
      guard file.word(scope.head) == .func || file.word(scope.head) == .initKeyword,
        let paren = (scope.head..<scope.open).first(where: { file.kind($0) == .leftParen }),
        let close = file.match(paren)
      else { return [] }
      var names: [Int] = []
      var start = paren + 1
      while start < close {
        let end = file.endOfArgument(from: start, close: close)
        if let colon = (start..<end).first(where: { file.kind($0) == .colon }),
          file.kind(colon - 1) == .identifier,
          (colon..<end).contains(where: { file.word($0) == .opArrow })
        {
          names.append(colon - 1)
        }
        start = end + 1
      }
      return names
    }

    /// Whether the value at `index` is an argument (at any of a few depths: `completion(.success(image))`)
    /// of a call of one of `callees` (`handler(image)`, `completion?(image, nil)`).
    private func calledWith(_ file: SourceFile, _ index: Int, callees: [Int]) -> Bool {
      var cursor = index
      for _ in 0..<3 {
        guard let paren = file.enclosingParen(of: cursor) else { return false }
        var callee = paren - 1
        if file.word(callee) == .opQuestion || file.word(callee) == .opBang { callee -= 1 }
        if file.kind(callee) == .identifier, !file.isMember(callee) || file.word(callee - 2) == .selfKeyword,
          callees.contains(where: { file.source.sameText($0, callee) })
        {
          return true
        }
        cursor = paren
      }
      return false
    }

    /// `return image`, `return try await x`, `continuation.resume(returning: image)`.
    private func isReturned(_ file: SourceFile, _ index: Int) -> Bool {
      var start = index
      while [.try, .await, .opQuestion, .opBang].contains(file.word(start - 1)) { start -= 1 }
      if file.word(start - 1) == .return { return true }
      // The single expression of a function's body (`func image(_ data: Data) -> UIImage? { UIImage(data: data) }`).
      let function = file.enclosingFunction(of: index)
      if function > 0, file.scope(function).kind == .function, file.body(of: function).lowerBound == start,
        file.postfixStart(endingAt: index) == index,
        file.statement(from: start).upperBound >= file.scope(function).close
      {
        return true
      }
      return file.kind(index - 1) == .colon && file.text(index - 2) == "returning"
        && file.kind(index - 3) == .leftParen && file.text(index - 4) == "resume"
    }

    /// The name the value at `index` is bound to (`let image = value`, `guard let image = value`, `let
    /// (first, second) = await (try a, try b)`: every name of the tuple).
    private func boundName(_ file: SourceFile, _ index: Int) -> Int? {
      var start = index
      while [.try, .await].contains(file.word(start - 1)) { start -= 1 }
      if file.word(start - 1) == .opAssign, file.kind(start - 2) == .identifier,
        file.word(start - 3) == .let || file.word(start - 3) == .var
      {
        return start - 2
      }
      // `let (a, b) = await (try x, try y)`: the name at the same position of the tuple pattern.
      guard let paren = file.enclosingParen(of: start),
        file.kind(paren - 1) != .identifier || file.word(paren - 1) == .await || file.word(paren - 1) == .try
      else { return nil }
      var equals = paren - 1
      while [.try, .await].contains(file.word(equals)) { equals -= 1 }
      guard file.word(equals) == .opAssign, file.kind(equals - 1) == .rightParen,
        let pattern = file.match(equals - 1),
        file.word(pattern - 1) == .let || file.word(pattern - 1) == .var,
        let close = file.match(paren)
      else { return nil }
      var position = 0
      var argument = paren + 1
      while argument < close {
        let end = file.endOfArgument(from: argument, close: close)
        if (argument..<end).contains(start) { break }
        position += 1
        argument = end + 1
      }
      var name = pattern + 1
      for _ in 0..<position {
        name = file.endOfArgument(from: name, close: equals - 1) + 1
      }
      return name < equals - 1 && file.kind(name) == .identifier ? name : nil
    }

    /// The collection or name the value at `start` is stored into: an `append`/`insert` argument (also
    /// inside an array literal or another value, `append(contentsOf: [a, b])`, `Photo(image: image)`), or
    /// the right side of an assignment (`self.images = value`, `cache[key] = value`); and whether it is
    /// written `self.name`, which is never a local of the same name.
    private func storedInto(_ file: SourceFile, _ start: Int) -> (String, onSelf: Bool)? {
      var cursor = start
      for _ in 0..<4 {
        guard let open = enclosingOpen(file, cursor) else { break }
        let callee = open - 1
        if file.kind(open) == .leftParen, file.kind(callee) == .identifier,
          ["append", "insert"].contains(file.text(callee)), file.kind(callee - 1) == .dot,
          file.kind(callee - 2) == .identifier
        {
          return (file.text(callee - 2), Self.isOnSelf(file, callee - 2))
        }
        cursor = open
      }
      var value = start
      while [.try, .await, .opQuestion, .opBang].contains(file.word(value - 1)) { value -= 1 }
      guard file.word(value - 1) == .opAssign else { return nil }
      var target = value - 2
      if file.kind(target) == .rightBracket, let open = file.match(target) { target = open - 1 }
      guard file.kind(target) == .identifier, file.word(target - 1) != .let, file.word(target - 1) != .var
      else { return nil }
      return (file.text(target), Self.isOnSelf(file, target))
    }

    /// Whether the name at `index` is read as `self.name`.
    private static func isOnSelf(_ file: SourceFile, _ index: Int) -> Bool {
      file.kind(index - 1) == .dot && file.word(index - 2) == .selfKeyword
    }

    /// The `(` or `[` directly around `index`, if any.
    private func enclosingOpen(_ file: SourceFile, _ index: Int) -> Int? {
      var cursor = index - 1
      while cursor >= 0 {
        let token = file.tokens[cursor]
        if token.isClosing, let open = file.match(cursor) {
          cursor = open - 1
          continue
        }
        if token.kind == .leftParen || token.kind == .leftBracket { return cursor }
        if token.kind == .leftBrace || token.kind == .rightBrace { return nil }
        if token.startsLine, !file.continuesStatement(at: cursor) { return nil }
        cursor -= 1
      }
      return nil
    }

    private func declaresLocally(_ file: SourceFile, _ name: String, in body: Range<Int>) -> Bool {
      body.contains { token in
        (file.word(token) == .var || file.word(token) == .let) && file.kind(token + 1) == .identifier
          && file.text(token + 1) == name
      }
    }

    private enum PublisherEnd {
      case stored([String], at: Int)
      case sink(brace: Int, at: Int)
      case returned
      case none
    }

    /// Where a Combine chain that continues after token `end` ends: `.assign(to: \.photos, on: self)` or
    /// `.assign(to: &$photos)` stores into `photos`; `.sink { … }` hands values to a closure; a chain
    /// that a function returns (`return …`, `-> AnyPublisher<…>`) hands them to the function's callers.
    /// A downsampling stage on the way ends it.
    private func publisherEnd(_ file: SourceFile, after end: Int, chainStart: Int, function: Int)
      -> PublisherEnd
    {
      var cursor = end + 1
      for _ in 0..<16 {
        guard file.kind(cursor) == .dot, file.kind(cursor + 1) == .identifier else { break }
        let stage = cursor + 1
        var after = stage + 1
        if file.kind(after) == .leftParen, let close = file.match(after) { after = close + 1 }
        if file.contains(FullDecodeThumbnailRule.downsampling, in: stage..<after) { return .none }
        switch file.text(stage) {
        case "assign":
          guard file.kind(stage + 1) == .leftParen, let close = file.match(stage + 1) else { return .none }
          let key = (stage + 2..<close).first { file.text($0) == "on" || file.kind($0) == .comma } ?? close
          if let name = (stage + 2..<key).last(where: { file.kind($0) == .identifier }) {
            var text = file.text(name)
            if text.hasPrefix("$") { text.removeFirst() }
            return .stored([text], at: stage)
          }
          return .none
        case "sink":
          let brace =
            file.kind(stage + 1) == .leftBrace
            ? stage + 1
            : (file.kind(after) == .leftBrace
              ? after
              : file.kind(stage + 1) == .leftParen
                ? (stage + 2..<max(stage + 2, after - 1)).last { file.kind($0) == .leftBrace } : nil)
          if let brace { return .sink(brace: brace, at: stage) }
          return .none
        default: break
        }
        if file.kind(after) == .leftBrace, let close = file.match(after) {
          if file.contains(FullDecodeThumbnailRule.downsampling, in: after..<close) { return .none }
          after = close + 1
        }
        cursor = after
      }
      // `return publisher…`, or the single expression of a function that returns a publisher.
      var before = chainStart - 1
      while [.try, .await].contains(file.word(before)) { before -= 1 }
      if file.word(before) == .return { return .returned }
      let returnsPublisher =
        function > 0
        && (file.scope(function).head..<file.scope(function).open).contains {
          file.text($0).hasSuffix("Publisher")
        }
      return returnsPublisher && before == file.scope(function).open ? .returned : .none
    }
  }
}
