/// `picker-legacy`: `UIImagePickerController` used to pick from the photo library.
///
/// Matches `.photoLibrary` / `.savedPhotosAlbum` assigned to or passed as a `sourceType` (or to a
/// function of the project that takes a `UIImagePickerController.SourceType`), or written as
/// `UIImagePickerController.SourceType.photoLibrary`, in a project that uses `UIImagePickerController`,
/// and a `UIImagePickerController()` whose `sourceType` is never set: the default source is the photo
/// library. The `.camera` source is fine: PHPicker does not take photos. A `.photoLibrary` default value that
/// every call overrides by label is a branch no caller reaches (``ProjectFacts/unreachedSourceDefaults``).
struct PickerLegacyRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "picker-legacy", severity: .warning,
    summary:
      "UIImagePickerController picks from the photo library; use PHPickerViewController or PhotosPicker.",
    leavesAlone: """
      A UIImagePickerController whose source type is the camera, which is what it is still for, a \
      .photoLibrary default value that every call in the project overrides by label \
      (ImagePicker(sourceType: .camera)), the library source only asked about (isSourceTypeAvailable, \
      availableMediaTypes(for:), a comparison), however it is spelled, and a picker its file declares and \
      configures but never presents, returns or passes on.
      """,
    fix: """
      Replace the photo-library source with PHPickerViewController (UIKit) or PhotosPicker (SwiftUI). They \
      run out of process, need no photo library permission, offer search and multiple selection, and \
      deliver large, RAW and iCloud assets reliably. Keep UIImagePickerController for the .camera source only.
      """,
    reference: .wwdc(2020, 10652, "Meet the new Photos picker"))

  let triggers: Set<Word> = [.photoLibrary, .savedPhotosAlbum, .UIImagePickerController]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    guard project.words.contains(.UIImagePickerController) else { return [] }
    var findings: [Finding] = []
    // The names the file declares and uses, read once when a picker's name is first asked about.
    var names: PickerNames?
    // The names whose `sourceType` the file sets, read once when a default-source picker is first asked about.
    var sourceSet: Set<String>?
    // Per function, the names it returns (`return picker`), read once when first asked about.
    var returned: [Int: Set<String>] = [:]
    for index in 0..<file.count
    where (file.word(index) == .photoLibrary || file.word(index) == .savedPhotosAlbum) && file.isMember(index)
    {
      let qualified = file.word(index - 2) == .SourceType
      // `picker.sourceType = .photoLibrary`, `ImagePicker(sourceType: .photoLibrary)`,
      // `let source: UIImagePickerController.SourceType = .photoLibrary`, and either branch of
      // `picker.sourceType = isUsingCamera ? .camera : .photoLibrary`.
      let before = file.tokenBeforeValue(ofMember: index)
      let assigned =
        (file.word(before) == .opAssign || file.kind(before) == .colon)
        && (file.word(before - 1) == .sourceType || file.word(before - 1) == .SourceType)
      // `pickImage(.photoLibrary)` where `pickImage` takes a `UIImagePickerController.SourceType`.
      let passed = project.isSourceTypeArgument(index, in: file)
      // A picker this file declares and only configures, never shows: it picks nothing.
      if assigned, file.word(before) == .opAssign, file.kind(before - 2) == .dot,
        file.kind(before - 3) == .identifier, file.word(before - 3) != .selfKeyword,
        Self.neverShown(before - 3, in: file, names: &names)
      {
        continue
      }
      // A default value every call overrides by label is a branch no caller reaches.
      if assigned, project.unreachedSourceDefaults.contains(.init(path: file.path, token: index)) { continue }
      // The qualified spelling where the short one would not count: it only asks about the source.
      if qualified, !passed, Self.asksAboutSource(index, in: file) { continue }
      if qualified || assigned || passed { findings.append(file.finding(descriptor, at: index)) }
    }
    // `UIImagePickerController()`, or `ImagePicker()` of an app subclass that never sets its own source: it
    // inherits the default source, the photo library.
    let subclasses = project.defaultSourcePickerSubclasses
    for index in 0..<file.count
    where
      (file.word(index) == .UIImagePickerController
      || (!subclasses.isEmpty && file.kind(index) == .identifier && file.word(index) == .none
        && subclasses.contains(file.text(index))))
      && file.kind(index + 1) == .leftParen
      && file.kind(index + 2) == .rightParen && !file.isMember(index)
      && keepsDefaultSource(index, in: file, sourceSet: &sourceSet, returned: &returned)
    {
      if let name = Self.boundName(index, in: file), Self.neverShown(name, in: file, names: &names) {
        continue
      }
      findings.append(
        file.finding(
          descriptor, at: index,
          message:
            file.word(index) == .UIImagePickerController
            ? "UIImagePickerController() keeps its default source type, the photo library; use PHPickerViewController or PhotosPicker."
            : "\(file.text(index))() is a UIImagePickerController that keeps its default source type, the photo library; use PHPickerViewController or PhotosPicker."
        ))
    }
    return findings
  }

  /// Whether the qualified source type ending at `index` (`UIImagePickerController.SourceType.photoLibrary`,
  /// Swift 2's `UIImagePickerControllerSourceType.PhotoLibrary`) is only asked about, as `.photoLibrary`
  /// is there: the argument of `isSourceTypeAvailable(_:)` or `availableMediaTypes(for:)`, or one side of
  /// `==`/`!=`. Nothing is picked from the library.
  static func asksAboutSource(_ index: Int, in file: SourceFile) -> Bool {
    var start = index - 2
    if file.kind(start - 1) == .dot, file.kind(start - 2) == .identifier { start -= 2 }
    let compared = [Word.opEqual, .opNotEqual]
    if compared.contains(file.word(start - 1)) || compared.contains(file.word(index + 1)) { return true }
    // `isSourceTypeAvailable(…)`, `availableMediaTypes(for: …)`, Swift 2's `availableMediaTypesForSourceType(…)`.
    var paren = start - 1
    if file.kind(paren) == .colon, file.text(paren - 1) == "for" { paren -= 2 }
    guard file.kind(paren) == .leftParen else { return false }
    return file.word(paren - 1) == .isSourceTypeAvailable
      || file.text(paren - 1).hasPrefix("availableMediaTypes")
  }

  /// The names a file declares (`let picker`, `var imagePicker: UIImagePickerController!`) and the names it
  /// uses as values, read in one pass (see ``neverShown(_:in:names:)``).
  struct PickerNames {
    var declared: Set<String> = []
    var used: Set<String> = []

    init(_ file: SourceFile) {
      for token in 0..<file.count where file.kind(token) == .identifier {
        if file.word(token - 1) == .let || file.word(token - 1) == .var {
          declared.insert(file.text(token))
          continue
        }
        var after = token + 1
        if file.word(after) == .opQuestion || file.word(after) == .opBang { after += 1 }
        // Configured (`picker.allowsEditing = true`), unless its view is what is shown.
        if file.kind(after) == .dot, file.text(after + 1) != "view" { continue }
        // Assigned (`picker = UIImagePickerController()`), or a declaration's type or an argument label.
        if file.kind(after) != .dot, file.word(after) == .opAssign || file.kind(after) == .colon { continue }
        used.insert(file.text(token))
      }
    }
  }

  /// Whether the picker named at `receiver` (`imagePicker` of `imagePicker.sourceType = .photoLibrary`) is
  /// declared in this file and never used there as a value, only configured (`imagePicker.delegate = self`)
  /// and assigned: never presented, pushed, returned, passed or shown as a child
  /// (`present(imagePicker, animated: true)`, `return picker`, `view.addSubview(picker.view)`). A picker that
  /// nobody shows picks nothing. Any other mention of the name, also as another value's member
  /// (`controller.imagePicker`), counts as a use; a commented-out `present` does not. `names` is the file's
  /// ``PickerNames``, read once when first needed.
  static func neverShown(_ receiver: Int, in file: SourceFile, names: inout PickerNames?) -> Bool {
    if names == nil { names = PickerNames(file) }
    let name = file.text(receiver)
    return (names?.declared.contains(name) ?? false) && !(names?.used.contains(name) ?? true)
  }

  /// The name the picker created at `index` is bound to: `let picker: UIImagePickerController =
  /// UIImagePickerController()` or `picker = UIImagePickerController()`.
  private static func boundName(_ index: Int, in file: SourceFile) -> Int? {
    guard file.word(index - 1) == .opAssign else { return nil }
    if file.kind(index - 3) == .colon, file.kind(index - 4) == .identifier { return index - 4 }
    return file.kind(index - 2) == .identifier ? index - 2 : nil
  }

  /// Whether the picker created at `index` never has its `sourceType` set: the variable it is bound to
  /// (`let picker = UIImagePickerController()`) gets no `picker.sourceType =` in the file — in the same
  /// function when it is a local of that function, since each function's `picker` is another instance — or,
  /// when it is not bound to a name, the file never mentions `sourceType`.
  private func keepsDefaultSource(
    _ index: Int, in file: SourceFile, sourceSet: inout Set<String>?, returned: inout [Int: Set<String>]
  ) -> Bool {
    guard file.source.words.contains(.sourceType) else { return true }
    guard let name = Self.boundName(index, in: file) else { return false }
    if sourceSet == nil {
      // The receivers of every `x.sourceType` in the file, and each with its function, read once.
      var receivers: Set<String> = []
      for other in 0..<file.count where file.word(other) == .sourceType && file.isMember(other) {
        var receiver = other - 2
        if file.word(receiver) == .opQuestion || file.word(receiver) == .opBang { receiver -= 1 }
        guard file.kind(receiver) == .identifier else { continue }
        receivers.insert(file.text(receiver))
        receivers.insert("\(file.enclosingFunction(of: receiver)) \(file.text(receiver))")
      }
      sourceSet = receivers
    }
    // `let picker = UIImagePickerController()`, `var picker: UIImagePickerController = …` in a function.
    // A local the function returns may be configured by its caller (`let picker = makePicker()`), unless the
    // function is a representable's `makeUIViewController`, whose controller SwiftUI shows as it is.
    let function = file.enclosingFunction(of: index)
    let isLocal =
      (file.word(name - 1) == .let || file.word(name - 1) == .var) && function > 0
      && file.scope(function).kind == .function
      && (file.word(file.scope(function).name) == .makeUIViewController
        || !Self.returned(by: function, in: file, memo: &returned).contains(file.text(name)))
    let key = isLocal ? "\(function) \(file.text(name))" : file.text(name)
    // `lazy var imagePicker: UIImagePickerController = { let picker = UIImagePickerController(); …; return
    // picker }()`: the closure's picker is the property's, whose source the file sets
    // (`imagePicker.sourceType = .camera`).
    if let property = Self.propertyMade(byClosureAround: name, returning: file.text(name), in: file),
      sourceSet?.contains(file.text(property)) == true
    {
      return false
    }
    return !(sourceSet?.contains(key) ?? false)
  }

  /// The stored property (`var imagePicker`) whose initial value is the closure around `index`, called
  /// where it is written (`= { … }()`), when that closure returns `name`.
  private static func propertyMade(byClosureAround index: Int, returning name: String, in file: SourceFile)
    -> Int?
  {
    let closure = file.syntax.scope(of: index)
    let scope = file.scope(closure)
    guard scope.kind == .closure, file.word(scope.open - 1) == .opAssign,
      let close = file.match(scope.open), file.kind(close + 1) == .leftParen,
      file.kind(close + 2) == .rightParen, file.returnedNames(inBodyOf: closure).contains(name)
    else { return nil }
    // `var imagePicker =` or `var imagePicker: UIImagePickerController =`.
    var property = scope.open - 2
    if file.kind(property) == .identifier, file.kind(property - 1) == .colon { property -= 2 }
    let keyword = file.word(property - 1)
    guard file.kind(property) == .identifier, keyword == .var || keyword == .let else { return nil }
    return property
  }

  /// ``SourceFile/returnedNames(inBodyOf:)`` of `function`, read once per function.
  private static func returned(by function: Int, in file: SourceFile, memo: inout [Int: Set<String>])
    -> Set<String>
  {
    if let known = memo[function] { return known }
    let names = file.returnedNames(inBodyOf: function)
    memo[function] = names
    return names
  }
}
