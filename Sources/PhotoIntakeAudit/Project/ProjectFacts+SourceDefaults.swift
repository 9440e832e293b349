/// A `.photoLibrary` written as a default value picks from the library only for the calls that leave the
/// argument out: `var sourceType: UIImagePickerController.SourceType = .photoLibrary` in a representable is
/// the default of its memberwise initializer's `sourceType:`, and `func present(source:
/// UIImagePickerController.SourceType = .photoLibrary)` that of `present`'s `source:`. When the project calls
/// the type or function and every call passes that argument (`ImagePicker(sourceType: .camera, …)`), the
/// default is a branch no caller reaches and nobody meets the library picker there.
///
/// Calls are matched by name, so a call of any function or type of that name that leaves the label out
/// keeps the default reported (this errs towards reporting), and so do defaults with no call in the folder
/// (a library's callers may be elsewhere), `public`/`open` declarations, unlabeled parameters and structs
/// that declare an initializer of their own.
extension ProjectFacts {
  /// The `.photoLibrary` or `.savedPhotosAlbum` token of a default value.
  struct SourceDefault: Hashable, Sendable {
    var path: String
    var token: Int
  }

  /// A function or memberwise initializer with defaulted source-type parameters, and what the project's
  /// calls of it pass.
  ///
  /// The places of one declaration share it, so each call is fitted to a declaration once and its labels
  /// are counted once, however many defaulted parameters the declaration has: the work is linear in the
  /// calls' labels rather than calls × places × parameters.
  private struct SourceDefaultDeclaration {
    var callee: UInt64
    /// The function's parameters in order, or nil for an initializer (called with any of its type's
    /// initializers' labels).
    var parameters: [Parameter]?
    /// How many calls fit the declaration.
    var calls = 0
    /// Per label, how many of the fitting calls pass it.
    var passed: [UInt64: Int] = [:]
  }

  mutating func addUnreachedSourceDefaults(_ files: [SourceFile]) {
    var declarations: [SourceDefaultDeclaration] = []
    var places: [(place: SourceDefault, declaration: Int, label: UInt64)] = []
    for file in files
    where file.source.words.contains(.SourceType)
      && file.source.words.containsAny([.photoLibrary, .savedPhotosAlbum])
    {
      // Per declaring token (a parameter list's `(`, a struct's scope), its place in `declarations`.
      var declarationAt: [Int: Int] = [:]
      var parameterLists: [Int: [Parameter]] = [:]
      for index in 0..<file.count
      where (file.word(index) == .photoLibrary || file.word(index) == .savedPhotosAlbum)
        && file.isMember(index)
        && file.word(index - 2) == .opAssign && file.word(index - 3) == .SourceType
      {
        guard let found = Self.sourceDefault(file, index, parameterLists: &parameterLists) else { continue }
        let declaration: Int
        if let known = declarationAt[found.declaration] {
          declaration = known
        } else {
          declaration = declarations.count
          declarationAt[found.declaration] = declaration
          declarations.append(SourceDefaultDeclaration(callee: found.callee, parameters: found.parameters))
        }
        places.append((SourceDefault(path: file.path, token: index), declaration, found.label))
      }
    }
    guard !places.isEmpty else { return }
    let byCallee = Dictionary(grouping: declarations.indices, by: { declarations[$0].callee })
    for file in files {
      for index in 0..<file.count
      where file.kind(index) == .identifier && file.kind(index + 1) == .leftParen
        && file.word(index - 1) != .func && file.word(index - 1) != .case
      {
        guard let candidates = byCallee[ProjectModel.hash(file, index)],
          let arguments = CallArguments(file, callee: index)
        else { continue }
        let labels = Set(arguments.labels)
        for declaration in candidates {
          // A call whose labels the function's parameters cannot take calls another function of that name
          // (`controller.present(picker, animated: true)` is not `present(from:source:)`).
          if let parameters = declarations[declaration].parameters, !Self.fits(arguments, parameters) {
            continue
          }
          declarations[declaration].calls += 1
          for label in labels { declarations[declaration].passed[label, default: 0] += 1 }
        }
      }
    }
    // Called, and every call passes the label.
    for (place, declaration, label) in places
    where declarations[declaration].calls > 0
      && declarations[declaration].passed[label, default: 0] == declarations[declaration].calls
    {
      unreachedSourceDefaults.insert(place)
    }
  }

  /// Whether a call's labels can be those of a function with `parameters`, in order, skipping defaulted
  /// parameters, with trailing closures taking the last parameters.
  private static func fits(_ arguments: CallArguments, _ parameters: [Parameter]) -> Bool {
    var next = 0
    for label in arguments.labels {
      while next < parameters.count, parameters[next].labelHash != label, parameters[next].hasDefault {
        next += 1
      }
      guard next < parameters.count, parameters[next].labelHash == label else { return false }
      next += 1
    }
    let rest = parameters[next...]
    return rest.filter { !$0.hasDefault }.count <= arguments.trailing.count
  }

  /// The callee (a function's name, or a struct's for its memberwise initializer) and argument label whose
  /// default is the value at `index`, with the token that declares them (the parameter list's `(`, or the
  /// struct's scope as `-1 - scope`), or nil when calls cannot leave it out by label or callers are unseen.
  /// `parameterLists` keeps each list read once per file, however many of its parameters have defaults.
  private static func sourceDefault(
    _ file: SourceFile, _ index: Int, parameterLists: inout [Int: [Parameter]]
  ) -> (callee: UInt64, label: UInt64, parameters: [Parameter]?, declaration: Int)? {
    if let paren = file.enclosingParen(of: index) {
      // A parameter's default: `func present(source: UIImagePickerController.SourceType = .photoLibrary)`.
      let head: Int
      let callee: Int
      if file.word(paren - 1) == .initKeyword {
        guard let type = file.enclosingType(of: paren), file.scope(type).name >= 0 else { return nil }
        head = paren - 1
        callee = file.scope(type).name
      } else if file.word(paren - 2) == .func, file.kind(paren - 1) == .identifier {
        head = paren - 2
        callee = paren - 1
      } else {
        return nil
      }
      let parameters = parameterLists[paren] ?? Parameter.list(file, paren: paren)
      parameterLists[paren] = parameters
      guard !file.isPublicOrOpen(declarationAt: head),
        let parameter = parameters.first(where: { $0.defaultValue?.contains(index) == true }),
        parameter.labelHash != Parameter.unlabeled
      else { return nil }
      // An initializer is called by its type's name with any of the type's initializers' labels.
      let matched = file.word(head) == .initKeyword ? nil : parameters
      return (ProjectModel.hash(file, callee), parameter.labelHash, matched, paren)
    }
    // A stored property's initial value in a struct, the default of its memberwise initializer.
    let scope = file.syntax.scope(of: index)
    guard file.scope(scope).kind == .type, file.word(file.scope(scope).head) == .struct,
      file.scope(scope).name >= 0, !file.isPublicOrOpen(declarationAt: file.scope(scope).head)
    else { return nil }
    var cursor = index - 3
    while cursor > file.scope(scope).open, file.word(cursor) != .var, file.word(cursor) != .let,
      index - cursor < 16
    {
      cursor -= 1
    }
    guard file.word(cursor) == .var, file.kind(cursor + 1) == .identifier, file.kind(cursor + 2) == .colon,
      !file.isPublicOrOpen(declarationAt: cursor), file.word(cursor - 1) != .static
    else { return nil }
    let declaresInit = file.syntax.scopes.contains {
      $0.parent == scope && $0.kind == .function && file.word($0.head) == .initKeyword
    }
    guard !declaresInit else { return nil }
    return (
      ProjectModel.hash(file, file.scope(scope).name), Parameter.hash(file, cursor + 1), nil, -1 - scope
    )
  }
}
