/// Names the file declares with a given type or initializer, and the region where each is visible:
/// `status: PHAuthorizationStatus`, `let semaphore = DispatchSemaphore(value: 0)`.
///
/// Visibility is approximate (the enclosing scope, or the function for a parameter) but is enough to keep
/// a `status` of AVFoundation in one function apart from a `status` of PhotoKit in another.
struct DeclaredNames {
  private var names: [(token: Int, region: Range<Int>)] = []
  private let file: SourceFile

  /// - Parameters:
  ///   - types: a declaration `name: T` (or `T?`, `[T]`) with `T` in `types` counts.
  ///   - initializers: `let/var name = …` counts when the initializer mentions one of these words…
  ///   - excluding: …and none of these…
  ///   - accepting: …and this accepts the initializer's tokens.
  init(
    in file: SourceFile, types: Set<Word>, initializers: Set<Word>, excluding: Set<Word> = [],
    accepting: (Range<Int>) -> Bool = { _ in true }
  ) {
    self.file = file
    for index in 0..<file.count where file.kind(index) == .identifier && !file.isMember(index) {
      if file.kind(index + 1) == .colon {
        var type = index + 2
        if file.kind(type) == .leftBracket { type += 1 }
        guard types.contains(file.word(type)) else { continue }
        names.append((index, region(of: index)))
      } else if file.word(index - 1) == .let || file.word(index - 1) == .var {
        let statement = file.statement(from: index)
        guard let assign = statement.first(where: { file.word($0) == .opAssign }),
          file.contains(initializers, in: (assign + 1)..<statement.upperBound),
          !file.contains(excluding, in: (assign + 1)..<statement.upperBound),
          accepting((assign + 1)..<statement.upperBound)
        else { continue }
        names.append((index, region(of: index)))
      }
    }
  }

  private func region(of index: Int) -> Range<Int> {
    if let function = file.functionDeclaring(parameter: index) { return file.body(of: function) }
    return file.body(of: file.syntax.scope(of: index))
  }

  mutating func add(_ token: Int, visibleIn region: Range<Int>) { names.append((token, region)) }

  /// Whether the identifier token `index` refers to one of the recorded names.
  func refers(_ index: Int) -> Bool {
    names.contains { $0.region.contains(index) && file.source.sameText($0.token, index) }
  }
}
