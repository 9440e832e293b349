/// Loaded-state facts carried by stored properties: an `AVAsset` kept in a stored `let` that every
/// initializer read after filling (or filled with an asset every caller had loaded), or in a `private var`
/// that every member setting it reads after setting, is loaded wherever the type's other members read it,
/// and wherever a `lazy` property hands it on:
///
///     final class EditorViewController: UIViewController {
///       private let asset: AVAsset
///       private lazy var toolbar = ToolbarView(asset: asset)  // its `let asset` is loaded too
///       init(url: URL) {
///         asset = AVAsset(url: url)
///         seconds = asset.duration.seconds  // the first read, which blocks
///       }
///       func share() { print(asset.duration) }  // loaded by then
///     }
extension ProjectModel.AssetLoads {
  struct MemberUses {
    var assignments: [String: [(token: Int, value: Range<Int>)]] = [:]
    var lastRead: [String: Int] = [:]
  }

  /// How many types deep ``isLoaded(property:of:)`` follows a stored asset handed from type to type.
  static let maximumPropertyChain = 32

  /// A stored property no code outside its type can replace.
  enum StoredKind {
    /// `let`: only an initializer fills it.
    case constant
    /// `private var` (or `fileprivate`, `private(set)`) with no value or `nil`: only the type's members
    /// in its file set it.
    case privateVariable(file: Int)
    /// `var asset: AVAsset? { didSet { … } }` with no value or `nil`: the observer (scope `didSet` of
    /// `file`) runs after every assignment outside the initializers.
    case observed(file: Int, didSet: Int)
  }
  /// Whether the read whose receiver ends at `receiver` (`asset` in `asset.duration` or in
  /// `self.asset.duration`) reads a stored property of its function's type that is loaded wherever a
  /// member reads it (``isLoaded(property:of:)``), from a member that is not an initializer or observer.
  mutating func isLoadedStoredAsset(receiver: Int, in file: SourceFile) -> Bool {
    guard file.kind(receiver) == .identifier else { return false }
    if file.isMember(receiver) {
      guard file.word(receiver - 2) == .selfKeyword, file.kind(receiver - 3) != .dot else { return false }
    }
    let (id, _) = model.function(at: receiver, in: file)
    guard id >= 0 else { return false }
    // Not in an observer (`didSet`), whose own read of the new value may be the first.
    guard !Self.inObserver(receiver, file) else { return false }
    return isLoadedProperty(file.text(receiver), readIn: id)
  }

  /// Whether `name`, read in function `id`, is a stored property of the function's type that is loaded
  /// wherever a member reads it (a `let`, a `private var` or an observed `var`: ``StoredKind``); not in
  /// an initializer of the type (which may read it before filling it), nor in a member that sets it, nor
  /// where a parameter or local of the function shadows it.
  mutating func isLoadedProperty(_ name: String, readIn id: Int) -> Bool {
    if let known = propertyReads[id]?[name] { return known }
    let function = model.functions[id]
    var answer = false
    if !function.isInitializer, let type = function.typeName,
      !function.parameters.contains(where: { $0.name == name }), !locals(of: id).contains(name),
      // A member that sets the property reads what it has just set: its own read may be the first; so
      // may an observer's (`didSet`).
      uses(of: id).assignments[name] == nil,
      model.files[function.file].scope(function.scope).kind != .accessor
    {
      answer = isLoaded(property: name, of: type)
    }
    propertyReads[id, default: [:]][name] = answer
    return answer
  }

  /// Whether `type`'s stored `name` holds a loaded asset wherever a member reads it: a `let` that every
  /// initializer reads or loads after filling, or fills with a parameter every caller had loaded (an
  /// initializer that only traps, `fatalError()` in `init?(coder:)`, leaves nothing to read); or a
  /// `private var` that every member setting it reads after setting, or sets with an asset it had read
  /// or that every caller had loaded (`nil` loads nothing).
  mutating func isLoaded(property name: String, of type: String) -> Bool {
    if let known = loadedProperties[type]?[name] { return known }
    // A chain deeper than this (type after type handing the asset on) answers "not loaded", uncached.
    guard openPropertyQuestions < Self.maximumPropertyChain else { return false }
    openPropertyQuestions += 1
    defer { openPropertyQuestions -= 1 }
    loadedProperties[type, default: [:]][name] = false
    let answer: Bool
    switch storedKind(name, of: type) {
    case .constant:
      let initializers = initializers(of: type).filter { !traps($0) }
      answer =
        !initializers.isEmpty
        && initializers.allSatisfy { id in
          let function = model.functions[id]
          let start = model.files[function.file].body(of: function.scope).lowerBound
          let assignment = uses(of: id).assignments[name]?.last
          return isLoaded(name, after: assignment?.token ?? start - 1, value: assignment?.value, in: id)
        }
    case .privateVariable(let file):
      answer = assigners(of: name, in: type).allSatisfy { id in
        model.functions[id].file != file
          || (uses(of: id).assignments[name] ?? []).allSatisfy { assignment in
            let isNil =
              assignment.value.count == 1 && model.files[file].word(assignment.value.lowerBound) == .nil
            return isNil || isLoaded(name, after: assignment.token, value: assignment.value, in: id)
          }
      }
    case .observed(let file, let didSet):
      // The observer reads the new value (or hands it to a function that reads it) each time it is set;
      // initializers, where it does not run, must leave it loaded themselves.
      let source = model.files[file]
      // A file cut off right after the observer's `{` has no token inside it to ask about.
      let inside = source.scope(didSet).open + 1
      let observer = inside < source.count ? model.function(at: inside, in: source).id : -1
      answer =
        observer >= 0 && (uses(of: observer).lastRead[name] != nil || loaded(name, in: observer) != nil)
        && initializers(of: type).filter { !traps($0) }.allSatisfy { id in
          (uses(of: id).assignments[name] ?? []).allSatisfy { assignment in
            let isNil =
              assignment.value.count == 1
              && model.files[model.functions[id].file].word(assignment.value.lowerBound) == .nil
            return isNil || isLoaded(name, after: assignment.token, value: assignment.value, in: id)
          }
        }
    case nil:
      answer = false
    }
    loadedProperties[type, default: [:]][name] = answer
    return answer
  }

  /// How `type` declares its stored `name`, if no code outside the type can replace it. Looked up in
  /// the type scopes that hold its members (the declaration, not an extension in another file); the
  /// first scope, in member order, that declares the name answers. Merged once per type
  /// (``storedKinds``), so a type of thousands of members and names stays linear.
  private mutating func storedKind(_ name: String, of type: String) -> StoredKind? {
    if let known = storedKinds[type] { return known[name] }
    var kinds: [String: StoredKind] = [:]
    var seen: Set<String> = []
    for id in members(of: type) {
      let function = model.functions[id]
      let file = model.files[function.file]
      guard let scope = file.syntax.enclosing(scope: function.scope, [.type]) else { continue }
      let key = "\(function.file):\(scope)"
      guard seen.insert(key).inserted else { continue }
      let names = Self.storedNames(in: file, type: scope, fileNumber: function.file)
      kinds.merge(names) { first, _ in first }
    }
    storedKinds[type] = kinds
    return kinds[name]
  }

  /// The members of `type` that assign `name` (``assignerIndex``), found in one pass over the type's
  /// members, so a type of thousands of `private var`s does not walk every member once per property.
  private mutating func assigners(of name: String, in type: String) -> [Int] {
    if let known = assignerIndex[type] { return known[name] ?? [] }
    var index: [String: [Int]] = [:]
    for id in members(of: type) {
      for assigned in uses(of: id).assignments.keys { index[assigned, default: []].append(id) }
    }
    assignerIndex[type] = index
    return index[name] ?? []
  }

  /// Whether `token` is inside a property observer or accessor (`didSet`, `willSet`, `get`, `set`).
  static func inObserver(_ token: Int, _ file: SourceFile) -> Bool {
    guard let scope = file.syntax.enclosing(token, [.function, .accessor]) else { return false }
    return file.scope(scope).kind == .accessor
  }

  /// The stored `let`s of type scope `type`, and its `private var`s that start with no value or `nil`.
  private static func storedNames(in file: SourceFile, type: Int, fileNumber: Int) -> [String: StoredKind] {
    var names: [String: StoredKind] = [:]
    for token in file.body(of: type)
    where (file.word(token) == .let || file.word(token) == .var) && file.syntax.scope(of: token) == type
      && file.kind(token + 1) == .identifier && file.word(token - 1) != .static
    {
      if file.word(token) == .let {
        names[file.text(token + 1)] = .constant
        continue
      }
      // `var clip: AVAsset?` or `= nil` in its statement (which ends at its line's end or its `;`, so a
      // one-line type of thousands of members is read once); not a value made here, nor a computed
      // property.
      let declaration = (token + 1)..<file.statement(from: token).upperBound
      let brace = declaration.first { file.kind($0) == .leftBrace }
      if let assign = declaration.first(where: { file.word($0) == .opAssign }),
        brace.map({ $0 > assign }) ?? true
      {
        guard file.word(assign + 1) == .nil, assign + 2 >= (brace ?? declaration.upperBound) else { continue }
      }
      if let brace {
        // Observers (`{ didSet { … } }`), any access level: the `didSet` runs after every outside assignment.
        guard let observers = file.scopeOpened(at: brace), let close = file.match(brace),
          let didSet = ((brace + 1)..<close).first(where: {
            file.word($0) == .didSet && file.syntax.scope(of: $0) == observers
          }),
          let open = ((didSet + 1)..<close).first(where: { file.kind($0) == .leftBrace }),
          let accessor = file.scopeOpened(at: open)
        else { continue }
        names[file.text(token + 1)] = .observed(file: fileNumber, didSet: accessor)
        continue
      }
      let modifiers = max(0, token - 4)..<token
      guard modifiers.contains(where: { file.word($0) == .private || file.word($0) == .fileprivate }) else {
        continue
      }
      names[file.text(token + 1)] = .privateVariable(file: fileNumber)
    }
    return names
  }

  /// Whether member `id`, having set `name` at token `assigned` (to `value`), leaves it loaded: it reads
  /// or loads it after that, or the value is an asset it had read before, or a parameter every caller
  /// had loaded.
  private mutating func isLoaded(_ name: String, after assigned: Int, value: Range<Int>?, in id: Int)
    -> Bool
  {
    if let first = loaded(name, in: id), first > assigned { return true }
    if let last = uses(of: id).lastRead[name], last > assigned { return true }
    let function = model.functions[id]
    let file = model.files[function.file]
    guard let value, value.count == 1, file.kind(value.lowerBound) == .identifier else { return false }
    let text = file.text(value.lowerBound)
    if let read = loaded(text, in: id), read < assigned { return true }
    guard function.parameters.contains(where: { $0.name == text }) else { return false }
    return everyCallerLoaded(id, parameter: text)
  }

  /// ``memberUses`` for member `id`: every `name = value` and `self.name = value`, and the last read or
  /// load of each name (`self.name.duration`, `name?.load(.tracks)`).
  private mutating func uses(of id: Int) -> MemberUses {
    if let known = memberUses[id] { return known }
    let function = model.functions[id]
    let file = model.files[function.file]
    var uses = MemberUses()
    for token in file.body(of: function.scope) where file.kind(token) == .identifier {
      let ownMember = file.word(token - 2) == .selfKeyword && file.kind(token - 3) != .dot
      if file.word(token + 1) == .opAssign, !file.isMember(token) || ownMember,
        file.word(token - 1) != .let, file.word(token - 1) != .var
      {
        uses.assignments[file.text(token), default: []].append((token, file.statement(from: token + 2)))
      } else if file.isMember(token),
        Self.reads.contains(file.word(token)) || Self.loaderNames.contains(file.text(token))
      {
        var end = token - 2
        if file.word(end) == .opQuestion || file.word(end) == .opBang { end -= 1 }
        let bare = !file.isMember(end) || (file.word(end - 2) == .selfKeyword && file.kind(end - 3) != .dot)
        if file.kind(end) == .identifier, bare { uses.lastRead[file.text(end)] = token }
      }
    }
    memberUses[id] = uses
    return uses
  }

  /// Whether initializer `id` does nothing but trap: `fatalError(…)` first in its body.
  private func traps(_ id: Int) -> Bool {
    let function = model.functions[id]
    let file = model.files[function.file]
    let body = file.body(of: function.scope)
    return !body.isEmpty && file.text(body.lowerBound) == "fatalError"
  }

  /// The names function `id` declares as locals (``localNames``).
  private mutating func locals(of id: Int) -> Set<String> {
    if let known = localNames[id] { return known }
    let function = model.functions[id]
    let file = model.files[function.file]
    var names: Set<String> = []
    for token in file.body(of: function.scope)
    where file.kind(token) == .identifier && (file.word(token - 1) == .let || file.word(token - 1) == .var) {
      // `if let clip = clip`, `guard let clip = self.clip`, `if let clip {`: the property itself, unwrapped.
      let value =
        file.word(token + 2) == .selfKeyword && file.kind(token + 3) == .dot ? token + 4 : token + 2
      let unwrapsItself =
        (file.word(token + 1) == .opAssign && value < file.count && file.source.sameText(value, token)
          && file.kind(value + 1) != .dot && file.kind(value + 1) != .leftParen)
        || file.kind(token + 1) == .leftBrace || file.kind(token + 1) == .comma
      if !unwrapsItself { names.insert(file.text(token)) }
    }
    localNames[id] = names
    return names
  }

  /// Whether initial-value call `number` (in a stored property's initial value) passes, for parameter
  /// `position` of `callee`, a stored `let` of its type that is loaded, from a `lazy` property (which
  /// runs after the initializer; any other initial value runs before it).
  mutating func isLoaded(argument position: Int, ofInitialValueCall number: Int, callee: Int)
    -> Bool
  {
    let call = model.initialValueCalls[number]
    let file = model.files[call.file]
    guard Self.isInLazyProperty(file, call.token),
      let arguments = CallArguments(file, callee: call.token),
      let matched = Parameter.matched(model.functions[callee].parameters, arguments),
      let index = matched.firstIndex(of: position), index < arguments.values.count
    else { return false }
    let value = arguments.values[index]
    guard value.count == 1, file.kind(value.lowerBound) == .identifier else { return false }
    return isLoaded(property: file.text(value.lowerBound), of: call.owner)
  }

  /// Whether the token at `index`, in a type-level initial value, belongs to a `lazy var`
  /// (`private lazy var toolbar: PlayerToolbar = { … }()` or `lazy var toolbar = PlayerToolbar(…)`).
  private static func isInLazyProperty(_ file: SourceFile, _ index: Int) -> Bool {
    var start = index
    var scope = file.syntax.scope(of: index)
    while file.scope(scope).kind != .type, file.scope(scope).kind != .file {
      start = file.scope(scope).open
      scope = file.scope(scope).parent
    }
    guard file.scope(scope).kind == .type else { return false }
    var token = start - 1
    while token >= 0, token >= start - 48 {
      if file.word(token) == .var { return file.word(token - 1) == .lazy }
      if file.word(token) == .let || file.syntax.scope(of: token) != scope { return false }
      token -= 1
    }
    return false
  }

  /// The initializers of `type` (``ProjectModel/membersByType``).
  private func initializers(of type: String) -> [Int] {
    members(of: type).filter { model.functions[$0].isInitializer }
  }

  /// The members of `type` (``ProjectModel/membersByType``).
  private func members(of type: String) -> [Int] {
    model.membersByType[type] ?? []
  }

  /// The initial-value calls of function `id` (``initialValueIndex``).
  mutating func callsInInitialValues(of id: Int) -> [Int] {
    if initialValueIndex == nil {
      var index: [Int: [Int]] = [:]
      for (number, call) in model.initialValueCalls.enumerated() {
        index[call.callee, default: []].append(number)
      }
      initialValueIndex = index
    }
    return initialValueIndex?[id] ?? []
  }

}
