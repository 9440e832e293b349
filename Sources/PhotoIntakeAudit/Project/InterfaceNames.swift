/// Names that files other than Swift give to the app's types: a storyboard's or xib's `customClass`, an
/// `Info.plist`'s scene delegate or principal class, a Core Data model's class, Objective-C code. The system
/// creates such a type where no Swift code names it, so ``Reachability`` keeps it running.
///
/// Every identifier-like word of those files is kept (linear in their bytes, one set of words): a word that
/// happens to equal a type's name only keeps more code running, never less.
struct InterfaceNames: Sendable {
  /// Identifier-like words of every interface, property list, model and Objective-C file read, by their
  /// ``WordTable/hash(_:)``: kept as numbers, so the thousands of words of a storyboard make no strings.
  private var words = WordHashSet()

  /// Whether some interface, property list, model or Objective-C file read spells the word `name`.
  func mentions(_ name: String) -> Bool {
    words.contains(WordTable.hash(name))
  }
  /// Storyboard, xib and `INFOPLIST_FILE` property list names the Xcode projects list.
  private var listed: Set<String> = []
  /// Storyboard, xib and property list names found in the folder.
  private var found: Set<String> = []
  /// Whether a project file with Info.plist build settings was read.
  private var sawProject = false
  /// Per storyboard (its file name without `.storyboard`), the classes it starts with (``StoryboardRoots``).
  private var storyboardRoots: [String: [String]] = [:]
  /// Storyboards an Info.plist names as the app's main one (`UIMainStoryboardFile`); `Main` when none does.
  private var mainStoryboards: Set<String> = []

  /// The view controller classes the app's main storyboard starts with (its initial view controller, the root
  /// of the navigation controller and the tabs of the tab bar controller it starts with): screens that are
  /// never dismissed, so what they hold lives as long as the app.
  var lifetimeClasses: Set<String> {
    let main = mainStoryboards.isEmpty ? ["Main"] : mainStoryboards
    return Set(main.flatMap { storyboardRoots[$0] ?? [] })
  }

  /// Whether the folder holds an Xcode project whose storyboards, xibs and Info.plists were all read: only
  /// then can a type that no file names be called unmade (a checkout without its storyboards hides every
  /// `customClass`; a folder without a project cannot say which storyboards it has).
  var isComplete: Bool { sawProject && listed.isSubset(of: found) }

  /// Reads the words of a storyboard, xib, property list, Core Data model or Objective-C file at `path`.
  mutating func add(_ bytes: [UInt8], path: String) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    if name.hasSuffix(".storyboard") {
      storyboardRoots[String(name.dropLast(".storyboard".count))] = StoryboardRoots.classes(in: bytes)
    } else if name.hasSuffix(".plist"), ASCII.contains(bytes, "UIMainStoryboardFile") {
      mainStoryboards.formUnion(Self.mainStoryboardNames(in: bytes))
    }
    Self.forEachWord(Array(name.utf8), dots: true) { word in
      if Self.isListedKind(word) { found.insert(word) }
    }
    Self.forEachWordRange(bytes) { words.insert(WordTable.hash(bytes[$0])) }
  }

  /// The values of `UIMainStoryboardFile` (and `UIMainStoryboardFile~ipad`) in a property list's bytes: the
  /// `<string>` after each such `<key>`.
  private static func mainStoryboardNames(in bytes: [UInt8]) -> [String] {
    var names: [String] = []
    var expecting = false
    var index = 0
    while index < bytes.count {
      guard bytes[index] == 0x3E else {
        index += 1
        continue
      }
      guard let close = bytes[(index + 1)...].firstIndex(of: 0x3C) else { break }
      let text = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
      if text.hasPrefix("UIMainStoryboardFile") {
        expecting = true
      } else if expecting, !text.allSatisfy(\.isWhitespace) {
        names.append(text)
        expecting = false
      }
      index = close
    }
    return names
  }

  private static func isListedKind(_ word: String) -> Bool {
    word.hasSuffix(".storyboard") || word.hasSuffix(".xib") || word.hasSuffix(".plist")
  }

  /// Notes the storyboards and xibs an Xcode project file lists (`path = Main.storyboard;`), its targets'
  /// `INFOPLIST_FILE`s, and the words of `INFOPLIST_KEY_` settings (a generated Info.plist's class names).
  mutating func addProjectFile(_ bytes: [UInt8]) {
    var lineStart = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A {
      let line = Array(bytes[lineStart..<index])
      lineStart = index + 1
      // Byte searches, not `String.contains` (Foundation's search, per line of every project file, was a
      // tenth of an audit of real projects).
      if ASCII.contains(line, "INFOPLIST_FILE") {
        sawProject = true
        guard !ASCII.contains(line, "GENERATE_INFOPLIST_FILE") else { continue }
        Self.forEachWord(line, dots: true) { word in
          if word.hasSuffix(".plist") {
            listed.insert(word.split(separator: "/").last.map(String.init) ?? word)
          }
        }
      } else if ASCII.contains(line, "INFOPLIST_KEY_") {
        Self.forEachWordRange(line) { words.insert(WordTable.hash(line[$0])) }
      } else if ASCII.containsAny(line, [".storyboard", ".xib"]) {
        Self.forEachWord(line, dots: true) { word in
          // `lastKnownFileType = file.storyboard;` names a kind, not a file.
          if word.hasSuffix(".storyboard") || word.hasSuffix(".xib"), !word.hasPrefix("file.") {
            listed.insert(word.split(separator: "/").last.map(String.init) ?? word)
          }
        }
      }
    }
  }

  /// Calls `body` with each run of ASCII letters, digits and `_` (and `.`, `/`, `-` when `dots`) that starts
  /// with a letter or `_`.
  private static func forEachWord(_ bytes: [UInt8], dots: Bool = false, _ body: (String) -> Void) {
    forEachWordRange(bytes, dots: dots) { body(String(decoding: bytes[$0], as: UTF8.self)) }
  }

  /// ``forEachWord(_:dots:_:)``, giving each word's byte range.
  private static func forEachWordRange(_ bytes: [UInt8], dots: Bool = false, _ body: (Range<Int>) -> Void) {
    var start = -1
    for index in 0...bytes.count {
      let byte = index < bytes.count ? bytes[index] : 0
      // Bytes of non-ASCII UTF-8 characters are letters too (`ÜbersichtViewController`), as in Swift names.
      let isLetter =
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
      let isPart =
        isLetter || (byte >= 0x30 && byte <= 0x39)
        || (dots && (byte == 0x2E || byte == 0x2F || byte == 0x2D))
      if start < 0 {
        if isLetter { start = index }
      } else if !isPart {
        if index - start >= 2, index - start <= 200 { body(start..<index) }
        start = -1
      }
    }
  }
}
