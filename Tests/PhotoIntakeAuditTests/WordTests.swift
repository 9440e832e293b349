import Testing

@testable import PhotoIntakeAudit

/// ``Word/number`` reads a case's stored tag as its place among `allCases`, and ``WordTable`` spells each
/// case by its raw value: both must hold for every case, or the lexer would intern the wrong words.
struct WordTests {
  @Test func numbersArePlacesAmongAllCases() {
    #expect(MemoryLayout<Word>.size == 2)
    for (place, word) in Word.allCases.enumerated() {
      #expect(Int(word.number) == place, "\(word)")
      #expect(Word(number: word.number) == word)
    }
    #expect(Word(number: UInt16(Word.caseCount)) == nil)
    #expect(Word.none.number == 0)
  }

  /// A case's raw value is its name, but for the operators and the names Swift reserves as members.
  @Test func rawValuesAreTheSpellings() {
    let written: [Word: String] = [
      .none: "", .opAssign: "=", .opEqual: "==", .opNotEqual: "!=", .opBang: "!", .opQuestion: "?",
      .opArrow: "->", .opAmpersand: "&", .initKeyword: "init", .selfKeyword: "self", .selfType: "Self",
      .someKeyword: "some", .anyKeyword: "any", .dispatchAsync: "dispatch_async",
      .dispatchSync: "dispatch_sync", .dispatchAfter: "dispatch_after",
    ]
    for word in Word.allCases {
      #expect(word.rawValue == written[word] ?? String(describing: word), "\(word)")
    }
    #expect(Set(Word.allCases.map(\.rawValue)).count == Word.caseCount)
  }

  /// The lexer interns by those spellings.
  @Test func lexerInternsBySpelling() {
    let file = SourceFile(path: "A.swift", bytes: Array("init(); self.x = some; PHPhotoLibrary".utf8))
    let words = (0..<file.count).map { file.word($0) }
    #expect(words.contains(.initKeyword))
    #expect(words.contains(.selfKeyword))
    #expect(words.contains(.opAssign))
    #expect(words.contains(.PHPhotoLibrary))
  }
}
